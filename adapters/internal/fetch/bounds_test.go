package fetch_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/internal/fetch"
	"github.com/quarrydata/quarry/ports"
)

// testSpool is a run's spool in a test's folder, with a budget.
type testSpool struct {
	dir       string
	budget    int64
	taken     atomic.Int64
	unbounded bool
}

func (s *testSpool) Dir() string { return s.dir }

func (s *testSpool) Left() int64 {
	if s.unbounded {
		return 1 << 62
	}
	return max(s.budget-s.taken.Load(), 0)
}

func (s *testSpool) Take(n int64) error {
	if s.taken.Add(n) > s.budget && !s.unbounded {
		return fmt.Errorf("more than %d bytes: %w", s.budget, ports.ErrBudgetSpent)
	}
	return nil
}

// spooled is the test's context with a spool of no practical budget.
func spooled(t *testing.T) context.Context {
	return ports.WithSpool(t.Context(), &testSpool{dir: t.TempDir(), unbounded: true})
}

func read(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func bounded(t *testing.T, url string, maxBytes int64) *fetch.Client {
	t.Helper()
	c, err := fetch.New(fetch.Options{Source: "test", BaseURL: url, UserAgent: "Quarry test ops@example.org",
		Backoff: time.Millisecond, MaxBytes: maxBytes, DocumentBytes: maxBytes})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestAGzipBombIsRefusedAtTheBoundDecoded serves 16 MiB of zeros gzipped
// (16 KiB on the wire) as the Content-Encoding of a file bounded at
// 1 MiB: the decoded bytes are bounded as the file is, so the fetch stops
// one byte past the bound, writes no more than that, and leaves no file.
func TestAGzipBombIsRefusedAtTheBoundDecoded(t *testing.T) {
	var bomb bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&bomb, gzip.BestCompression)
	_, _ = zw.Write(make([]byte, 16<<20))
	_ = zw.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Length", strconv.Itoa(bomb.Len()))
		_, _ = w.Write(bomb.Bytes())
	}))
	defer srv.Close()
	spool := &testSpool{dir: t.TempDir(), budget: 1 << 40}
	for _, get := range []func(*fetch.Client, context.Context) error{
		func(c *fetch.Client, ctx context.Context) error { _, err := c.GetFile(ctx, "f.csv", nil); return err },
		func(c *fetch.Client, ctx context.Context) error { _, err := c.Get(ctx, "f.json", nil); return err },
	} {
		err := get(bounded(t, srv.URL, 1<<20), ports.WithSpool(t.Context(), spool))
		if !errors.Is(err, ports.ErrSourceFailed) || !strings.Contains(err.Error(), "larger than") {
			t.Fatalf("a gzip bomb: %v", err)
		}
	}
	if left, _ := os.ReadDir(spool.dir); len(left) != 0 {
		t.Fatalf("left %d files", len(left))
	}
	if taken := spool.taken.Load(); taken > 2*(1<<20+1) {
		t.Fatalf("wrote %d bytes of the bomb, more than the bound and one byte twice", taken)
	}
}

// TestADeclaredLengthOverTheBoundIsRefusedUnread: a body declaring
// 10 GiB, of which the server sends 1 KiB and then waits, is refused from
// its Content-Length alone. A client reading the body would wait with
// the server until the test timed out.
func TestADeclaredLengthOverTheBoundIsRefusedUnread(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.FormatInt(10<<30, 10))
		_, _ = w.Write(make([]byte, 1<<10))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer srv.Close()
	spool := &testSpool{dir: t.TempDir(), budget: 1 << 40}
	_, err := bounded(t, srv.URL, 1<<30).GetFile(ports.WithSpool(t.Context(), spool), "day.zip", nil)
	if !errors.Is(err, ports.ErrSourceFailed) || !strings.Contains(err.Error(), "Content-Length 10737418240 is larger than the bound") {
		t.Fatalf("a declared 10 GiB: %v", err)
	}
	if taken := spool.taken.Load(); taken != 0 {
		t.Fatalf("read %d bytes of a body refused by its length", taken)
	}
}

// recorder is a server that records what reaches it.
type recorder struct {
	mu     sync.Mutex
	bodies []string
	heads  []http.Header
}

func (rc *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	rc.bodies, rc.heads = append(rc.bodies, string(b)), append(rc.heads, r.Header.Clone())
	rc.mu.Unlock()
	_, _ = w.Write([]byte(`{"code":0}`))
}

// TestARedirectToAnotherOriginIsNotFollowed: a 307 re-posts the body it
// redirects, so a token in it would reach whatever host the Location
// names. A redirect to another port of the same host, or to another
// host, is refused without a request to it, and not retried; one within
// the origin is followed.
func TestARedirectToAnotherOriginIsNotFollowed(t *testing.T) {
	other := &recorder{}
	elsewhere := httptest.NewServer(other)
	defer elsewhere.Close()
	var asked atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, elsewhere.URL+"/api", http.StatusTemporaryRedirect)
		case "/host":
			http.Redirect(w, r, strings.Replace(elsewhere.URL, "127.0.0.1", "localhost", 1)+"/api", http.StatusPermanentRedirect)
		case "/near":
			http.Redirect(w, r, "/here", http.StatusTemporaryRedirect)
		default:
			_, _ = w.Write([]byte(`{"code":0}`))
		}
	}))
	defer srv.Close()
	c := bounded(t, srv.URL, 1<<20)
	for _, p := range []string{"away", "host"} {
		_, err := c.Post(spooled(t), p, "application/json", []byte(`{"token":"secret-token"}`), nil)
		if !errors.Is(err, ports.ErrSourceFailed) || !strings.Contains(err.Error(), "redirect from") {
			t.Fatalf("a redirect to another origin: %v", err)
		}
	}
	if len(other.bodies) != 0 {
		t.Fatalf("the other origin received %d requests: %q", len(other.bodies), other.bodies)
	}
	if n := asked.Load(); n != 2 {
		t.Fatalf("the source was asked %d times, not once per refused redirect", n)
	}
	res, err := c.Post(spooled(t), "near", "application/json", []byte(`{"token":"secret-token"}`), nil)
	if err != nil || read(t, res.File) != `{"code":0}` {
		t.Fatalf("a redirect within the origin: %v", err)
	}
}

// TestARunsBudgetStopsTheFetchThatSpendsIt: two files of 600 KiB against
// a budget of 1 MiB: the second fails with ErrBudgetSpent, is not retried,
// and leaves no file.
func TestARunsBudgetStopsTheFetchThatSpendsIt(t *testing.T) {
	var asked atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		_, _ = w.Write(make([]byte, 600<<10))
	}))
	defer srv.Close()
	spool := &testSpool{dir: t.TempDir(), budget: 1 << 20}
	ctx := ports.WithSpool(t.Context(), spool)
	c := bounded(t, srv.URL, 1<<30)
	first, err := c.GetFile(ctx, "a.zip", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetFile(ctx, "b.zip", nil); !errors.Is(err, ports.ErrBudgetSpent) {
		t.Fatalf("past the budget: %v", err)
	}
	if n := asked.Load(); n != 2 {
		t.Fatalf("%d requests: a spent budget is retried", n)
	}
	if left, _ := os.ReadDir(spool.dir); len(left) != 1 || spool.dir+"/"+left[0].Name() != first.File {
		t.Fatalf("the spool holds %v", left)
	}
}

// TestADeclaredLengthOverTheRunsBudgetIsRefusedUnread: a body declaring
// 10 GiB under a file bound of 16 GiB, in a run that may fetch 8 GiB, is
// refused from its Content-Length with ErrBudgetSpent, not streamed until
// the budget is spent.
func TestADeclaredLengthOverTheRunsBudgetIsRefusedUnread(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.FormatInt(10<<30, 10))
		_, _ = w.Write(make([]byte, 1<<10))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer srv.Close()
	spool := &testSpool{dir: t.TempDir(), budget: 8 << 30}
	_, err := bounded(t, srv.URL, 16<<30).GetFile(ports.WithSpool(t.Context(), spool), "day.zip", nil)
	if !errors.Is(err, ports.ErrBudgetSpent) || !strings.Contains(err.Error(), "the body was not read") {
		t.Fatalf("a declared 10 GiB past the budget: %v", err)
	}
	if taken := spool.taken.Load(); taken != 0 {
		t.Fatalf("read %d bytes of a body refused by its length", taken)
	}
}
