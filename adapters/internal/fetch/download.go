package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"strings"
	"time"

	"github.com/quarrydata/quarry/ports"
)

// Downloaded is a file streamed to disk whole.
type Downloaded struct {
	URL string
	// File holds the body, in the folder Download was given or the
	// run's spool; the spool's removal, or the caller, removes it. Empty
	// when NotModified.
	File string
	// Size is the body's length in bytes.
	Size int64
	// NotModified: the server answered 304; nothing was downloaded.
	NotModified bool
	// RetrievedAt is when the body was received.
	RetrievedAt time.Time
	// Validator identifies the version served, for the next Download.
	Validator Validator
}

// Download is GetFile asking the server to answer 304 when the file is
// still the version v identifies, for a file too large to hold in memory:
// the body is streamed to a new file in dir (the run's spool when empty),
// named *-BASE for the base name of file, never longer than MaxBytes,
// refused when shorter than its Content-Length, when it is an HTML page,
// or when check refuses it, and retried as Get is. A file refused is
// removed; only a file whole and checked is returned.
func (c *Client) Download(ctx context.Context, file string, v Validator, dir string, check FileCheck) (Downloaded, error) {
	res, err := c.do(ctx, file, request{method: http.MethodGet, validator: v, limit: c.opt.MaxBytes, dir: dir}, check)
	if err != nil {
		return Downloaded{}, err
	}
	return Downloaded(res), nil
}

// save streams the body, decoded (net/http decodes a gzip Content-Encoding
// it asked for), to a new file in the spool and returns its name (set
// whenever the file was created, so that the caller removes it) and size.
// A Content-Length over the bound, or over what the run may still fetch,
// is refused before any of the body is read; a body that passes the bound as it is decoded, or that spends the
// run's budget, is refused at that point, having written at most the
// bound and one byte.
func (c *Client) save(ctx context.Context, resp *http.Response, rq request) (string, int64, error) {
	if !rq.page && isHTML(resp) {
		return "", 0, fmt.Errorf("%w: %w", ports.ErrSourceFailed, &checkError{errors.New("an HTML page was served in place of the file")})
	}
	if resp.ContentLength > rq.limit {
		return "", 0, fmt.Errorf("%w: %w", ports.ErrSourceFailed, &checkError{fmt.Errorf("Content-Length %d is larger than the bound of %d bytes; the body was not read", resp.ContentLength, rq.limit)})
	}
	spool := ports.SpoolFrom(ctx)
	if spool != nil && resp.ContentLength > spool.Left() {
		return "", 0, fmt.Errorf("Content-Length %d is more than the %d bytes the run may still fetch; the body was not read: %w", resp.ContentLength, spool.Left(), ports.ErrBudgetSpent)
	}
	dir := rq.dir
	if dir == "" && spool != nil {
		dir = spool.Dir()
	}
	f, err := os.CreateTemp(dir, "*-"+baseName(resp.Request.URL.Path))
	if err != nil {
		return "", 0, err
	}
	n, err := io.Copy(&budgeted{w: f, spool: spool}, io.LimitReader(resp.Body, rq.limit+1))
	c.opt.Meter.Received(c.opt.Source, int(n))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return f.Name(), n, c.saved(resp, n, rq.limit, err)
}

// saved says what is wrong with a body of n bytes saved with err, if
// anything.
func (c *Client) saved(resp *http.Response, n, limit int64, err error) error {
	switch {
	case errors.Is(err, ports.ErrBudgetSpent):
		return err
	case err != nil:
		return fmt.Errorf("%w: body cut after %d bytes: %v", ports.ErrSourceFailed, n, err)
	case n > limit:
		return fmt.Errorf("%w: %w", ports.ErrSourceFailed, &checkError{fmt.Errorf("body larger than %d bytes", limit)})
	case resp.ContentLength >= 0 && n != resp.ContentLength && !resp.Uncompressed:
		return fmt.Errorf("%w: body of %d bytes, Content-Length %d", ports.ErrSourceFailed, n, resp.ContentLength)
	}
	return nil
}

// budgeted counts what is written against a run's budget, and writes
// nothing past it.
type budgeted struct {
	w     io.Writer
	spool ports.Spool
}

func (b *budgeted) Write(p []byte) (int, error) {
	if b.spool != nil {
		if err := b.spool.Take(int64(len(p))); err != nil {
			return 0, err
		}
	}
	return b.w.Write(p)
}

// isHTML reports whether resp says it is an HTML page.
func isHTML(resp *http.Response) bool {
	return strings.HasPrefix(strings.ToLower(resp.Header.Get("Content-Type")), "text/html")
}

// Spill writes body, a file a source made of what it fetched (an API's
// answer as CSV), to a new file *-name in ctx's spool (the system's
// temporary directory without one), counted against the run's budget,
// its modification time at, and returns its name.
func Spill(ctx context.Context, name string, body []byte, at time.Time) (string, error) {
	spool := ports.SpoolFrom(ctx)
	dir := ""
	if spool != nil {
		dir = spool.Dir()
		if err := spool.Take(int64(len(body))); err != nil {
			return "", err
		}
	}
	f, err := os.CreateTemp(dir, "*-"+baseName(name))
	if err != nil {
		return "", err
	}
	_, err = f.Write(body)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chtimes(f.Name(), at, at)
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// baseName is the last element of a URL's path, to name a file by; body
// for a path that has none.
func baseName(p string) string {
	if b := path.Base(p); b != "/" && b != "." {
		return b
	}
	return "body"
}
