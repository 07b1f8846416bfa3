package http

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"strconv"
	"sync"
)

// framing follows the requests of one connection as Go's server frames
// them, to learn the one thing Go's parser hides from handlers: whether a
// head carried both Transfer-Encoding and Content-Length. Go reads such a
// body as chunked and deletes both headers, and keeps the connection open;
// RFC 9112 §6.3 calls the message a likely smuggling attempt, to be answered
// with an error and the connection closed, since a proxy in front may have
// framed it by its Content-Length. framing reads the bytes the server reads,
// in order, and keeps one verdict per head. When it cannot follow (framing
// Go refuses, and then closes the connection itself), it stops judging:
// every later request is let through.
type framing struct {
	mu       sync.Mutex
	state    framingState
	line     []byte // the line being read: of a head, a chunk size or a trailer
	headSize int
	first    bool // the next head line is the request line
	http10   bool
	te, cl   bool
	length   int64
	remain   int64 // body or chunk bytes still to pass
	verdicts []bool
}

type framingState int

const (
	inHead framingState = iota
	inBody
	inChunkSize
	inChunkData
	inChunkEnd
	inTrailer
	lost
)

// Bounds beyond which Go's server refuses the request and closes the
// connection, so framing need not follow further.
const (
	maxHeadBytes  = MaxHeaderBytes + 4096
	maxChunkLine  = 4096
	maxVerdicts   = 1024
	chunkEndBytes = 2 // the CRLF after a chunk's data
)

func newFraming() *framing { return &framing{first: true} }

// feed follows the bytes the server read.
func (f *framing) feed(p []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for len(p) > 0 && f.state != lost {
		switch f.state {
		case inBody, inChunkData, inChunkEnd:
			p = f.pass(p)
		default:
			p = f.readLine(p)
		}
	}
}

// next reports the verdict on the next request the server dispatches: true
// when its head carried both Transfer-Encoding and Content-Length.
func (f *framing) next() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.verdicts) == 0 {
		return false
	}
	v := f.verdicts[0]
	f.verdicts = f.verdicts[1:]
	return v
}

// pass skips body or chunk bytes, and checks the CRLF ending a chunk.
func (f *framing) pass(p []byte) []byte {
	n := min(int64(len(p)), f.remain)
	if f.state == inChunkEnd && !bytes.HasPrefix([]byte("\r\n")[chunkEndBytes-f.remain:], p[:n]) {
		f.state = lost
		return nil
	}
	f.remain -= n
	if f.remain > 0 {
		return p[n:]
	}
	switch f.state {
	case inBody:
		f.state = inHead
	case inChunkData:
		f.state, f.remain = inChunkEnd, chunkEndBytes
	case inChunkEnd:
		f.state = inChunkSize
	}
	return p[n:]
}

// readLine gathers a line and acts on it once whole.
func (f *framing) readLine(p []byte) []byte {
	i := bytes.IndexByte(p, '\n')
	if i < 0 {
		f.line = append(f.line, p...)
		f.checkLength()
		return nil
	}
	f.line = append(f.line, p[:i]...)
	f.checkLength()
	if f.state != lost {
		line := bytes.TrimSuffix(f.line, []byte("\r"))
		f.line = f.line[:0]
		f.onLine(line)
	}
	return p[i+1:]
}

func (f *framing) checkLength() {
	limit := maxChunkLine
	if f.state == inHead {
		limit = maxHeadBytes - f.headSize
	}
	if len(f.line) > limit {
		f.state = lost
	}
}

func (f *framing) onLine(line []byte) {
	switch f.state {
	case inHead:
		f.headSize += len(line) + 2
		f.headLine(line)
	case inChunkSize:
		f.chunkSize(line)
	case inTrailer:
		if len(line) == 0 {
			f.state = inHead
		}
	}
}

// headLine reads the request line and the framing headers of a head.
func (f *framing) headLine(line []byte) {
	switch {
	case f.first && len(line) == 0:
		f.state = lost // Go refuses a head without a request line
	case f.first:
		f.first, f.http10 = false, bytes.HasSuffix(line, []byte(" HTTP/1.0"))
	case len(line) == 0:
		f.endHead()
	case line[0] == ' ' || line[0] == '\t':
		// a continuation of the previous field's value
	default:
		f.field(line)
	}
}

func (f *framing) field(line []byte) {
	name, value, ok := bytes.Cut(line, []byte(":"))
	switch {
	case !ok:
		f.state = lost
	case asciiFold(name, "Transfer-Encoding"):
		f.te = true
	case asciiFold(name, "Content-Length"):
		n, err := strconv.ParseInt(string(bytes.TrimSpace(value)), 10, 64)
		if err != nil || n < 0 || (f.cl && n != f.length) {
			f.state = lost // Go refuses a bad or a second, different length
			return
		}
		f.cl, f.length = true, n
	}
}

// endHead records the verdict on a whole head and sets how its body is
// framed: chunked on HTTP/1.1 when Transfer-Encoding is sent (Go ignores it
// on HTTP/1.0), else by Content-Length.
func (f *framing) endHead() {
	both := f.te && f.cl
	if len(f.verdicts) == maxVerdicts {
		f.state = lost
		return
	}
	f.verdicts = append(f.verdicts, both)
	switch {
	case both:
		f.state = lost // answered 400, and the connection closes
	case f.te && !f.http10:
		f.state = inChunkSize
	case f.cl && f.length > 0:
		f.state, f.remain = inBody, f.length
	}
	f.first, f.http10, f.te, f.cl, f.length, f.headSize = true, false, false, false, 0, 0
}

// chunkSize reads "size[;extensions]" in hex, as Go does: trailing blanks
// of the line trimmed, nothing else; size 0 ends the body, before its
// trailer.
func (f *framing) chunkSize(line []byte) {
	size, _, _ := bytes.Cut(bytes.TrimRight(line, " \t"), []byte(";"))
	n, err := strconv.ParseInt(string(size), 16, 64)
	switch {
	case err != nil || n < 0 || len(size) == 0 || size[0] == '+' || size[0] == '-':
		f.state = lost
	case n == 0:
		f.state = inTrailer
	default:
		f.state, f.remain = inChunkData, n
	}
}

// asciiFold compares a header name with want, ignoring ASCII case only, as
// Go canonicalizes names; a name with other bytes is one Go refuses.
func asciiFold(name []byte, want string) bool {
	if len(name) != len(want) {
		return false
	}
	for i := range name {
		a, b := name[i], want[i]
		if 'A' <= a && a <= 'Z' {
			a += 'a' - 'A'
		}
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		if a != b {
			return false
		}
	}
	return true
}

type framingKey struct{}

// ConnContext gives each request's context the framing of its connection,
// for a listener wrapped by JSONErrors; the http.Server serving it must be
// given it.
func ConnContext(ctx context.Context, c net.Conn) context.Context {
	if jc, ok := c.(jsonErrorConn); ok {
		return context.WithValue(ctx, framingKey{}, jc.framing)
	}
	return ctx
}

// errAmbiguousLength answers a request whose head carried both
// Transfer-Encoding and Content-Length.
var errAmbiguousLength = invalid("the request carries both Transfer-Encoding and Content-Length; send one (RFC 9112, section 6.3)")

// ambiguousLength reports whether the request's head carried both
// Transfer-Encoding and Content-Length. It must be asked once for every
// request the server dispatches, in order.
func ambiguousLength(r *http.Request) bool {
	f, ok := r.Context().Value(framingKey{}).(*framing)
	return ok && f.next()
}
