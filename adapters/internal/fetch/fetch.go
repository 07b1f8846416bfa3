// Package fetch is the HTTP behaviour every source adapter shares: a
// declared User-Agent, a request rate the client keeps, retries with
// backoff and jitter on 429 and 5xx honouring Retry-After, conditional
// requests for the callers that keep the server's validators, and the checks that keep a
// body cut short or an HTML error page from being taken for a file. What
// fails is logged with its URL and reason and returned wrapping
// ports.ErrSourceFailed; nothing of it reaches a store.
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
	// MaxBytes bounds a body; zero is 1 GiB.
	MaxBytes int64
	// HTTP is the client used; nil is one with a five-minute timeout.
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
// it, and asks with GetIfChanged next time; one that did not store it must
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
	if o.HTTP == nil {
		o.HTTP = &http.Client{Timeout: 5 * time.Minute}
	}
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

// Response is a body fetched whole.
type Response struct {
	URL  string
	Body []byte
	// NotModified: the server answered a conditional request with 304;
	// Body is empty and what was fetched before is current.
	NotModified bool
	// RetrievedAt is when the body was received.
	RetrievedAt time.Time
	// Validator identifies the version served, for GetIfChanged.
	Validator Validator
}

// Check refuses a body that is not the file asked for, saying why.
type Check func(body []byte) error

// Get fetches path (relative to the base URL) whole. A 404 returns
// ports.ErrNotFound; a body that check refuses, a body cut short, an HTML
// page, and a request that still fails after the retries return
// ports.ErrSourceFailed, logged with the URL and the reason.
func (c *Client) Get(ctx context.Context, path string, check Check) (Response, error) {
	return c.GetIfChanged(ctx, path, Validator{}, check)
}

// GetIfChanged is Get asking the server to answer 304 (Response.NotModified)
// when the file is still the version v identifies.
func (c *Client) GetIfChanged(ctx context.Context, path string, v Validator, check Check) (Response, error) {
	return c.do(ctx, path, request{method: http.MethodGet, validator: v}, check)
}

// Post sends body (of contentType) to path with POST and reads the answer
// as Get does: retried on 429 and 5xx, checked whole. It is for an API
// whose requests only read, so sending one again does no harm.
func (c *Client) Post(ctx context.Context, path, contentType string, body []byte, check Check) (Response, error) {
	return c.do(ctx, path, request{method: http.MethodPost, contentType: contentType, body: body}, check)
}

// GetPage is Get for a file that is itself an HTML page, such as a
// filing's primary document: an HTML body is not refused as an error
// page, so check alone must tell the file from one.
func (c *Client) GetPage(ctx context.Context, path string, check Check) (Response, error) {
	return c.do(ctx, path, request{method: http.MethodGet, page: true}, check)
}

// request is what one call sends.
type request struct {
	method, contentType string
	body                []byte
	validator           Validator
	// page: the file is an HTML page, not refused as an error page.
	page bool
}

func (c *Client) do(ctx context.Context, path string, rq request, check Check) (Response, error) {
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

// failed logs and counts a failure; ErrNotFound is an answer, not one.
func (c *Client) failed(u string, err error) error {
	if err == nil || errors.Is(err, ports.ErrNotFound) || errors.Is(err, context.Canceled) {
		return err
	}
	c.opt.Meter.Failed(c.opt.Source)
	c.opt.Log.Warn("source fetch failed; nothing stored, the next run fetches it again",
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
		!errors.Is(err, context.DeadlineExceeded)
}

// checkError is a body served whole that is not the file asked for:
// retrying at once would fetch the same.
type checkError struct{ reason error }

func (e *checkError) Error() string { return e.reason.Error() }

func (c *Client) once(ctx context.Context, u string, rq request, check Check) (Response, error) {
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
	body, err := c.read(resp)
	if err != nil {
		return Response{}, err
	}
	if err := checkBody(resp, body, check, rq.page); err != nil {
		return Response{}, fmt.Errorf("%w: %w", ports.ErrSourceFailed, &checkError{err})
	}
	return Response{URL: u, Body: body, RetrievedAt: time.Now().UTC(), Validator: validator(resp)}, nil
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
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ports.ErrSourceFailed, err)
	}
	return resp, nil
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

// read reads the whole body: one cut short of its Content-Length fails
// (net/http reports it as an unexpected EOF), as does one over MaxBytes.
func (c *Client) read(resp *http.Response) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.opt.MaxBytes+1))
	c.opt.Meter.Received(c.opt.Source, len(body))
	if err != nil {
		return nil, fmt.Errorf("%w: body cut after %d bytes: %v", ports.ErrSourceFailed, len(body), err)
	}
	if int64(len(body)) > c.opt.MaxBytes {
		return nil, fmt.Errorf("%w: %w", ports.ErrSourceFailed, &checkError{fmt.Errorf("body larger than %d bytes", c.opt.MaxBytes)})
	}
	if resp.ContentLength >= 0 && int64(len(body)) != resp.ContentLength && resp.Header.Get("Content-Encoding") == "" {
		return nil, fmt.Errorf("%w: body of %d bytes, Content-Length %d", ports.ErrSourceFailed, len(body), resp.ContentLength)
	}
	return body, nil
}

// checkBody refuses an HTML page served with 200 where a file was asked
// for (unless the file is a page), then runs the caller's check.
func checkBody(resp *http.Response, body []byte, check Check, page bool) error {
	ct := strings.ToLower(resp.Header.Get("Content-Type"))
	head := bytes.ToLower(bytes.TrimSpace(body[:min(len(body), 512)]))
	if !page && (strings.HasPrefix(ct, "text/html") || bytes.HasPrefix(head, []byte("<!doctype html")) || bytes.HasPrefix(head, []byte("<html"))) {
		return errors.New("an HTML page was served in place of the file")
	}
	if check == nil {
		return nil
	}
	return check(body)
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
