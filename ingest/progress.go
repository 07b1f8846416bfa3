package ingest

import (
	"fmt"
	"github.com/quarrydata/quarry/domain/source"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progressThreshold is the input size from which an ingest run on a
// terminal shows a progress bar: below it a run takes a moment and a bar is
// noise.
const progressThreshold = 8 << 20

// progressMode is how an ingest run shows its progress.
type progressMode int

const (
	// progressNone shows nothing: --quiet, or a reader with no display.
	progressNone progressMode = iota
	// progressLines prints one line per file read, for logs and pipes,
	// where a redrawn bar would be a mess of carriage returns.
	progressLines
	// progressBar draws a bar over the bytes read, on a terminal only.
	progressBar
)

// progress is the display of one ingest run. Its zero value shows nothing.
type progress struct {
	mode progressMode
	out  io.Writer
	now  func() time.Time

	mu    sync.Mutex
	bar   *progressbar.ProgressBar
	start map[string]time.Time
}

// newProgress chooses the display for out: none when quiet, a bar when out
// is a terminal, else one line per file.
func NewProgress(out io.Writer, quiet bool) *progress {
	mode := progressLines
	switch {
	case quiet:
		mode = progressNone
	case isTerminal(out):
		mode = progressBar
	}
	return &progress{mode: mode, out: out, now: time.Now, start: map[string]time.Time{}}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// expect adds the bytes a run is about to read. On a terminal, a run
// reaching progressThreshold gets its bar.
func (p *progress) expect(total int64) {
	if p.mode != progressBar {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.bar != nil:
		p.bar.ChangeMax64(p.bar.GetMax64() + total)
	case total >= progressThreshold:
		out := p.out
		p.bar = progressbar.NewOptions64(total,
			progressbar.OptionSetWriter(out), progressbar.OptionSetDescription("ingesting"),
			progressbar.OptionShowBytes(true), progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionOnCompletion(func() { _, _ = io.WriteString(out, "\n") }))
	}
}

// reader wraps a file just opened: its bytes move the bar, and in line
// mode its line is printed when it is closed (lineAtClose: the bytes read)
// or when its reader calls done (the records it held).
func (p *progress) reader(name string, rc io.ReadCloser, lineAtClose bool) io.ReadCloser {
	if p.mode == progressNone {
		return rc
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mode == progressLines {
		p.start[name] = p.now()
	}
	r := &progressReader{rc: rc, p: p, name: name, lineAtClose: lineAtClose}
	if p.bar != nil {
		br := progressbar.NewReader(rc, p.bar)
		r.r = &br
	}
	return r
}

// done reports a file read and the records it held.
func (p *progress) done(name string, records int) {
	p.line(name, fmt.Sprintf("%d records", records))
}

func (p *progress) line(name, what string) {
	if p.mode != progressLines {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	start, ok := p.start[name]
	if !ok {
		return
	}
	delete(p.start, name)
	fmt.Fprintf(p.out, "%s\t%s\t%s\n", name, what, p.now().Sub(start).Round(time.Millisecond))
}

// finish completes the bar, if one was drawn.
func (p *progress) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		_ = p.bar.Finish()
		p.bar = nil
	}
}

type progressReader struct {
	rc          io.ReadCloser
	r           io.Reader // through the bar, when one is drawn
	p           *progress
	name        string
	lineAtClose bool
	n           int64
}

func (r *progressReader) Read(b []byte) (int, error) {
	var n int
	var err error
	if r.r != nil {
		n, err = r.r.Read(b)
	} else {
		n, err = r.rc.Read(b)
	}
	r.n += int64(n)
	return n, err
}

// Size is the size the file it reads was listed with, -1 when unknown
// (source.Sized).
func (r *progressReader) Size() int64 {
	if s, ok := r.rc.(source.Sized); ok {
		return s.Size()
	}
	return -1
}

func (r *progressReader) Close() error {
	err := r.rc.Close()
	if r.lineAtClose {
		r.p.line(r.name, fmt.Sprintf("%d bytes", r.n))
	}
	return err
}
