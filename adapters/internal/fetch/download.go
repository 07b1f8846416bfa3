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
	// File is the temporary file holding the body; the caller removes
	// it. Empty when NotModified.
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

// FileCheck refuses a downloaded file that is not the file asked for,
// saying why.
type FileCheck func(file string) error

// Download is GetIfChanged for a file too large to hold in memory: the
// body is streamed to a new file in dir, named *-BASE for the base name
// of file, (the system's temporary
// directory when empty), never longer than MaxBytes, refused when shorter
// than its Content-Length, when it is an HTML page, or when check refuses
// it, and retried as Get is. A file refused is removed; only a file whole
// and checked is returned.
func (c *Client) Download(ctx context.Context, file string, v Validator, dir string, check FileCheck) (Downloaded, error) {
	u := c.resolve(file)
	return retry(ctx, c, u, func() (Downloaded, error) { return c.downloadOnce(ctx, u, v, dir, check) })
}

func (c *Client) downloadOnce(ctx context.Context, u string, v Validator, dir string, check FileCheck) (Downloaded, error) {
	resp, err := c.send(ctx, u, request{method: http.MethodGet, validator: v})
	if err != nil {
		return Downloaded{}, err
	}
	defer resp.Body.Close()
	notModified, err := status(resp, u)
	if err != nil {
		return Downloaded{}, err
	}
	if notModified {
		return Downloaded{URL: u, NotModified: true, RetrievedAt: time.Now().UTC()}, nil
	}
	file, size, err := c.save(resp, dir)
	if err == nil && check != nil {
		if cerr := check(file); cerr != nil {
			err = fmt.Errorf("%w: %w", ports.ErrSourceFailed, &checkError{cerr})
		}
	}
	if err != nil {
		if file != "" {
			os.Remove(file)
		}
		return Downloaded{}, err
	}
	return Downloaded{URL: u, File: file, Size: size, RetrievedAt: time.Now().UTC(), Validator: validator(resp)}, nil
}

// Bounded returns a client of the same source that bounds a body by
// maxBytes instead (a large archive's), sharing c's rate.
func (c *Client) Bounded(maxBytes int64) *Client {
	d := *c
	d.opt.MaxBytes = maxBytes
	return &d
}

// save streams the body to a new file in dir and returns its name (set
// whenever the file was created, so that the caller removes it) and size.
func (c *Client) save(resp *http.Response, dir string) (string, int64, error) {
	if strings.HasPrefix(strings.ToLower(resp.Header.Get("Content-Type")), "text/html") {
		return "", 0, fmt.Errorf("%w: %w", ports.ErrSourceFailed, &checkError{errors.New("an HTML page was served in place of the file")})
	}
	f, err := os.CreateTemp(dir, "*-"+path.Base(resp.Request.URL.Path))
	if err != nil {
		return "", 0, err
	}
	n, err := io.Copy(f, io.LimitReader(resp.Body, c.opt.MaxBytes+1))
	c.opt.Meter.Received(c.opt.Source, int(n))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil:
		return f.Name(), n, fmt.Errorf("%w: body cut after %d bytes: %v", ports.ErrSourceFailed, n, err)
	case n > c.opt.MaxBytes:
		return f.Name(), n, fmt.Errorf("%w: %w", ports.ErrSourceFailed, &checkError{fmt.Errorf("body larger than %d bytes", c.opt.MaxBytes)})
	case resp.ContentLength >= 0 && n != resp.ContentLength && resp.Header.Get("Content-Encoding") == "":
		return f.Name(), n, fmt.Errorf("%w: body of %d bytes, Content-Length %d", ports.ErrSourceFailed, n, resp.ContentLength)
	}
	return f.Name(), n, nil
}
