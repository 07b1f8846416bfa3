package http

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strconv"
)

// MaxHeaderBytes bounds a request's line and headers. Go's server allows
// 4 KiB beyond it before answering 431.
const MaxHeaderBytes = 32 << 10

// serverErrorHeaders ends the head of every response Go's server writes on
// its own, before any handler runs: a request it cannot parse (400, a control
// character in a header, say), headers over the limit (431), an unsupported
// transfer coding (501). Handlers never answer text/plain with
// Connection: close, so these responses are told apart by it.
var serverErrorHeaders = []byte("\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n")

// JSONErrors wraps a listener so that the responses Go's server writes on its
// own are ErrorResponse bodies too, like every other error of the service,
// and so that each connection's request framing is followed (framing.go);
// the server must be given ConnContext.
func JSONErrors(ln net.Listener) net.Listener { return jsonErrorListener{ln} }

type jsonErrorListener struct{ net.Listener }

func (l jsonErrorListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return jsonErrorConn{Conn: c, framing: newFraming()}, nil
}

type jsonErrorConn struct {
	net.Conn
	framing *framing
}

// Read follows the framing of what the server reads.
func (c jsonErrorConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.framing.feed(p[:n])
	return n, err
}

// Write rewrites a response of Go's server into its JSON form; the server
// writes each such response whole, in one call. Anything else passes through.
func (c jsonErrorConn) Write(b []byte) (int, error) {
	if out, ok := jsonServerError(b); ok {
		if _, err := c.Conn.Write(out); err != nil {
			return 0, err
		}
		return len(b), nil
	}
	return c.Conn.Write(b)
}

// jsonServerError turns "HTTP/1.1 <code> <text><serverErrorHeaders><detail>"
// into the same status with an ErrorResponse body.
func jsonServerError(b []byte) ([]byte, bool) {
	rest, ok := bytes.CutPrefix(b, []byte("HTTP/1.1 "))
	if !ok || len(rest) < 3 {
		return nil, false
	}
	head, detail, ok := bytes.Cut(rest, serverErrorHeaders)
	code, err := strconv.Atoi(string(head[:3]))
	if !ok || err != nil {
		return nil, false
	}
	msg := markupEscapes.Replace(string(detail))
	if code == http.StatusRequestHeaderFieldsTooLarge {
		msg = "request line and headers exceed 32 KiB"
	}
	body, _ := json.Marshal(map[string]any{"error": serverErrorKind(code), "message": msg, "request_id": nil})
	out := fmt.Appendf(nil, "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nX-Content-Type-Options: nosniff\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		code, http.StatusText(code), len(body), body)
	return out, true
}

func serverErrorKind(code int) string {
	switch code {
	case http.StatusRequestHeaderFieldsTooLarge:
		return "headers_too_large"
	case http.StatusNotImplemented:
		return "not_implemented"
	}
	return "invalid_request"
}
