// Package fetch is the HTTP behaviour every source adapter shares: a
// declared User-Agent, a request rate the client keeps, retries with
// backoff and jitter on 429 and 5xx honouring Retry-After, conditional
// requests for the callers that keep the server's validators, and the checks that keep a
// body cut short or an HTML error page from being taken for a file. Every
// body is streamed to a file in the run's spool (ports.SpoolFrom), bounded
// in bytes once decoded and counted against the run's budget, never held
// whole in memory but for the check of a document; a redirect to another
// scheme, host or port is refused, so that a token or key sent to a
// source never reaches another host. What fails is logged with its URL
// and reason and returned wrapping ports.ErrSourceFailed; nothing of it
// reaches a store.
package fetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap"
	"golang.org/x/time/rate"

	"github.com/quarrydata/quarry/ports"
)

// Options configure a Client.
type Options struct {
	// Source names the source in logs and metrics (nse, edgar).
	Source string
	// BaseURL is where the source's paths are resolved.
	BaseURL string
	// UserAgent is sent with every request.
	UserAgent string
	// PerSecond bounds the requests per second the client sends, with a
	// burst of one; zero is no bound.
	PerSecond float64
	// Attempts is how many times a request is tried in all; zero is 4.
	Attempts int
	// Backoff is the first wait between attempts, doubled at each retry
	// and jittered; zero is one second.
	Backoff time.Duration
	// MaxWait bounds a wait, Retry-After's included; zero is one minute.
	MaxWait time.Duration
	// MaxBytes bounds a file streamed to disk and checked there (GetFile,
	// GetPage, Download), once decoded; zero is 1 GiB.
	MaxBytes int64
	// DocumentBytes bounds a body checked whole in memory (Get, Post), once
	// decoded; zero is MaxDocumentBytes.
	DocumentBytes int64
	// HTTP is the client used, copied with the redirect rule set
	// (sameOrigin); nil is one with a five-minute timeout.
	HTTP *http.Client
	// Meter counts requests, bytes and errors; nil counts nothing.
	Meter ports.SourceMeter
	Log   *zap.Logger
}

// Client fetches a source's files.
type Client struct {
	opt     Options
	base    *url.URL
	limiter *rate.Limiter
}

// Validator is what a server said identifies the version of a file it
// served: its ETag and Last-Modified. A caller that stored the file keeps
// it, and asks with Download next time; one that did not store it must
// not, or a 304 would stand for a file it never held.
type Validator struct{ ETag, LastModified string }

// New returns a client of the source at o.BaseURL.
func New(o Options) (*Client, error) {
	base, err := url.Parse(o.BaseURL)
	if err != nil || base.Scheme == "" || base.Host == "" {
		return nil, fmt.Errorf("%s base URL %q is not an absolute URL", o.Source, o.BaseURL)
	}
	if !strings.HasSuffix(base.Path, "/") {
		base.Path += "/"
	}
	if o.Attempts <= 0 {
		o.Attempts = 4
	}
	if o.Backoff <= 0 {
		o.Backoff = time.Second
	}
	if o.MaxWait <= 0 {
		o.MaxWait = time.Minute
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = 1 << 30
	}
	if o.DocumentBytes <= 0 {
		o.DocumentBytes = MaxDocumentBytes
	}
	h := http.Client{Timeout: 5 * time.Minute}
	if o.HTTP != nil {
		h = *o.HTTP
	}
	h.CheckRedirect = sameOrigin
	o.HTTP = &h
	if o.Log == nil {
		o.Log = zap.NewNop()
	}
	if o.Meter == nil {
		o.Meter = noMeter{}
	}
	limit := rate.Inf
	if o.PerSecond > 0 {
		limit = rate.Limit(o.PerSecond)
	}
	return &Client{opt: o, base: base, limiter: rate.NewLimiter(limit, 1)}, nil
}

// At returns a client of the same source at another base URL (a second
// host of the source) that shares c's options and its rate: the two
// together keep the one rate.
func (c *Client) At(baseURL string) (*Client, error) {
	o := c.opt
	o.BaseURL = baseURL
	d, err := New(o)
	if err != nil {
		return nil, err
	}
	d.limiter = c.limiter
	return d, nil
}

// MaxDocumentBytes bounds a body checked whole in memory unless
// Options.DocumentBytes says otherwise: a form index, a JSON document, an
// API's answer. The largest real ones, companyfacts documents, are about
// 30 MB; a body past it is refused as it is read, or before when its
// Content-Length declares more.
const MaxDocumentBytes = 64 << 20

// Response is a body fetched whole, on disk.
type Response struct {
	URL string
	// File holds the body, in the run's spool (the system's temporary
	// directory without one), its modification time RetrievedAt; the
	// spool's removal, or the caller without a spool, removes it. Empty
	// when NotModified.
	File string
	// Size is the body's length in bytes, decoded.
	Size int64
	// NotModified: the server answered a conditional request with 304;
	// nothing was fetched and what was fetched before is current.
	NotModified bool
	// RetrievedAt is when the body was received.
	RetrievedAt time.Time
	// Validator identifies the version served, for Download.
	Validator Validator
}

// Check refuses a document that is not the file asked for, saying why; it
// is handed the whole body, read back from its file.
type Check func(body []byte) error

// FileCheck refuses a file on disk that is not the file asked for,
// saying why.
type FileCheck func(file string) error

// Get fetches path (relative to the base URL), a document of at most
// DocumentBytes checked whole in memory. A 404 returns ports.ErrNotFound;
// a body that check refuses, a body cut short or too long, an HTML page,
// a redirect to another origin, and a request that still fails after the
// retries return ports.ErrSourceFailed, logged with the URL and the
// reason; a run's budget spent returns ports.ErrBudgetSpent.
func (c *Client) Get(ctx context.Context, path string, check Check) (Response, error) {
	return c.do(ctx, path, request{method: http.MethodGet, limit: c.opt.DocumentBytes}, inMemory(check))
}

// Post sends body (of contentType) to path with POST and reads the answer
// as Get does: retried on 429 and 5xx, checked whole. It is for an API
// whose requests only read, so sending one again does no harm.
func (c *Client) Post(ctx context.Context, path, contentType string, body []byte, check Check) (Response, error) {
	return c.do(ctx, path, request{method: http.MethodPost, contentType: contentType, body: body, limit: c.opt.DocumentBytes}, inMemory(check))
}

// GetFile is Get for a file of up to MaxBytes, checked on disk, never
// held in memory.
func (c *Client) GetFile(ctx context.Context, path string, check FileCheck) (Response, error) {
	return c.do(ctx, path, request{method: http.MethodGet, limit: c.opt.MaxBytes}, check)
}

// GetPage is GetFile for a file that is itself an HTML page, such as a
// filing's primary document: an HTML body is not refused as an error
// page, so check alone must tell the file from one.
func (c *Client) GetPage(ctx context.Context, path string, check FileCheck) (Response, error) {
	return c.do(ctx, path, request{method: http.MethodGet, page: true, limit: c.opt.MaxBytes}, check)
}

// request is what one call sends.
type request struct {
	method, contentType string
	body                []byte
	validator           Validator
	// page: the file is an HTML page, not refused as an error page.
	page bool
	// limit bounds the body, decoded.
	limit int64
	// dir, when set, is where the body is written instead of the spool.
	dir string
}

// inMemory is check run on the whole file, read back into memory.
func inMemory(check Check) FileCheck {
	if check == nil {
		return nil
	}
	return func(file string) error {
		body, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		return check(body)
	}
}

func (c *Client) do(ctx context.Context, path string, rq request, check FileCheck) (Response, error) {
	u := c.resolve(path)
	return retry(ctx, c, u, func() (Response, error) { return c.once(ctx, u, rq, check) })
}

// resolve is path's URL under the base URL.
func (c *Client) resolve(path string) string {
	return c.base.ResolveReference(&url.URL{Path: strings.TrimPrefix(path, "/")}).String()
}

// retry runs attempt until it succeeds, fails for good, or has run
// Attempts times, waiting the backoff between runs; a failure is logged
// and counted against u.
func retry[T any](ctx context.Context, c *Client, u string, attempt func() (T, error)) (T, error) {
	var zero T
	var last error
	for n := 0; n < c.opt.Attempts; n++ {
		if n > 0 {
			if err := c.sleep(ctx, c.backoff(n, last)); err != nil {
				return zero, err
			}
		}
		res, err := attempt()
		if err == nil || !retryable(err) {
			return res, c.failed(u, err)
		}
		last = err
	}
	return zero, c.failed(u, last)
}

// failed counts a failure, and logs it at debug level only: the error is
// returned, and whoever stops on it reports it once (the sync's outcome, a
// source's own warning for what it does without); ErrNotFound is an
// answer, not a failure.
func (c *Client) failed(u string, err error) error {
	if err == nil || errors.Is(err, ports.ErrNotFound) || errors.Is(err, context.Canceled) {
		return err
	}
	c.opt.Meter.Failed(c.opt.Source)
	c.opt.Log.Debug("source fetch failed; nothing stored, the next run fetches it again",
		zap.String("source", c.opt.Source), zap.String("url", u), zap.String("reason", err.Error()))
	return err
}

// statusError is an answer other than 200, 304 or 404.
type statusError struct {
	status     int
	retryAfter time.Duration
}

func (e *statusError) Error() string { return fmt.Sprintf("HTTP %d", e.status) }

func retryable(err error) bool {
	var se *statusError
	if errors.As(err, &se) {
		return se.status == http.StatusTooManyRequests || se.status >= 500
	}
	var ce *checkError
	return !errors.As(err, &ce) && !errors.Is(err, ports.ErrNotFound) && !errors.Is(err, context.Canceled) &&
		!errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, ports.ErrBudgetSpent)
}

// checkError is a body served whole that is not the file asked for:
// retrying at once would fetch the same.
type checkError struct{ reason error }

func (e *checkError) Error() string { return e.reason.Error() }

func (c *Client) once(ctx context.Context, u string, rq request, check FileCheck) (Response, error) {
	resp, err := c.send(ctx, u, rq)
	if err != nil {
		return Response{}, err
	}
	defer resp.Body.Close()
	notModified, err := status(resp, u)
	if err != nil {
		return Response{}, err
	}
	if notModified {
		return Response{URL: u, NotModified: true, RetrievedAt: time.Now().UTC()}, nil
	}
	file, size, err := c.save(ctx, resp, rq)
	if err == nil {
		err = checkFile(file, check, rq.page)
	}
	if err != nil {
		if file != "" {
			os.Remove(file)
		}
		return Response{}, err
	}
	at := time.Now().UTC()
	if err := os.Chtimes(file, at, at); err != nil {
		os.Remove(file)
		return Response{}, err
	}
	return Response{URL: u, File: file, Size: size, RetrievedAt: at, Validator: validator(resp)}, nil
}

// send sends rq to u at the client's rate.
func (c *Client) send(ctx context.Context, u string, rq request) (*http.Response, error) {
	if err := c.limiter.Wait(ctx); err != nil {
		return nil, err
	}
	var body io.Reader
	if rq.body != nil {
		body = bytes.NewReader(rq.body)
	}
	req, err := http.NewRequestWithContext(ctx, rq.method, u, body)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ports.ErrSourceFailed, err)
	}
	req.Header.Set("User-Agent", c.opt.UserAgent)
	if rq.contentType != "" {
		req.Header.Set("Content-Type", rq.contentType)
	}
	if v := rq.validator; v.ETag != "" {
		req.Header.Set("If-None-Match", v.ETag)
	}
	if v := rq.validator; v.LastModified != "" {
		req.Header.Set("If-Modified-Since", v.LastModified)
	}
	c.opt.Meter.Requested(c.opt.Source)
	resp, err := c.opt.HTTP.Do(req)
	var refused *redirectRefused
	if errors.As(err, &refused) {
		return nil, fmt.Errorf("%w: %w", ports.ErrSourceFailed, &checkError{refused})
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ports.ErrSourceFailed, err)
	}
	return resp, nil
}

// redirectRefused is a redirect to another origin than the request's.
type redirectRefused struct{ from, to *url.URL }

func (e *redirectRefused) Error() string {
	return fmt.Sprintf("redirect from %s to %s refused: a source is only followed within its own scheme, host and port", origin(e.from), origin(e.to))
}

// maxRedirects bounds the redirects followed within one origin.
const maxRedirects = 10

// sameOrigin is the clients' CheckRedirect: a redirect is followed only to
// the scheme, host and port of the request that met it, so that a token
// in a header or in a re-posted body (a 307 or 308 sends the body again)
// never reaches another host.
func sameOrigin(req *http.Request, via []*http.Request) error {
	first := via[0].URL
	if origin(req.URL) != origin(first) {
		return &redirectRefused{from: first, to: req.URL}
	}
	if len(via) >= maxRedirects {
		return fmt.Errorf("stopped after %d redirects", maxRedirects)
	}
	return nil
}

// origin is a URL's scheme, host and port, the port spelled out.
func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

// status reads what resp's status says: a body follows (200), the file
// is unchanged (304), there is no such file (404, ports.ErrNotFound), or
// the server failed (any other, a statusError the retry reads).
func status(resp *http.Response, u string) (notModified bool, err error) {
	switch resp.StatusCode {
	case http.StatusOK:
		return false, nil
	case http.StatusNotModified:
		return true, nil
	case http.StatusNotFound:
		return false, fmt.Errorf("%s: %w", u, ports.ErrNotFound)
	default:
		return false, fmt.Errorf("%w: %w", ports.ErrSourceFailed, &statusError{resp.StatusCode, retryAfter(resp.Header.Get("Retry-After"))})
	}
}

// validator is the version resp served.
func validator(resp *http.Response) Validator {
	return Validator{ETag: resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified")}
}

// checkFile refuses an HTML page served with 200 where a file was asked
// for (unless the file is a page; save refused one its Content-Type
// declared), then runs the caller's check.
func checkFile(file string, check FileCheck, page bool) error {
	if !page {
		head, err := readHead(file, 512)
		if err != nil {
			return err
		}
		head = bytes.ToLower(bytes.TrimSpace(head))
		if bytes.HasPrefix(head, []byte("<!doctype html")) || bytes.HasPrefix(head, []byte("<html")) {
			return fmt.Errorf("%w: %w", ports.ErrSourceFailed, &checkError{errors.New("an HTML page was served in place of the file")})
		}
	}
	if check == nil {
		return nil
	}
	if err := check(file); err != nil {
		return fmt.Errorf("%w: %w", ports.ErrSourceFailed, &checkError{err})
	}
	return nil
}

// readHead reads up to n bytes from the start of file.
func readHead(file string, n int) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, n)
	got, err := io.ReadFull(f, buf)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		err = nil
	}
	return buf[:got], err
}

// backoff is the wait before attempt (1 is the first retry): what
// Retry-After asked for when the last answer carried it, else the backoff
// doubled per attempt with up to half of it again as jitter; at most MaxWait.
func (c *Client) backoff(attempt int, last error) time.Duration {
	var se *statusError
	if errors.As(last, &se) && se.retryAfter > 0 {
		return min(se.retryAfter, c.opt.MaxWait)
	}
	d := c.opt.Backoff << (attempt - 1)
	d += time.Duration(rand.Int64N(int64(d)/2 + 1))
	return min(d, c.opt.MaxWait)
}

func (c *Client) sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// retryAfter reads a Retry-After header: seconds, or an HTTP date.
func retryAfter(h string) time.Duration {
	if h == "" {
		return 0
	}
	if s, err := strconv.Atoi(strings.TrimSpace(h)); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(h); err == nil {
		return max(time.Until(t), 0)
	}
	return 0
}

// noMeter counts nothing.
type noMeter struct{}

func (noMeter) Requested(string)     {}
func (noMeter) Received(string, int) {}
func (noMeter) Failed(string)        {}
