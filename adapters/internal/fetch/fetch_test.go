package fetch_test

import (
	"archive/zip"
	"bytes"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/internal/fetch"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/quarrytest/replay"
)

func client(t *testing.T, srv *replay.Server, perSecond float64) *fetch.Client {
	t.Helper()
	c, err := fetch.New(fetch.Options{Source: "test", BaseURL: srv.URL, UserAgent: "Quarry test ops@example.org",
		PerSecond: perSecond, Backoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestClientKeepsItsRate sends 21 requests at 10 per second with a burst
// of one: the SEC's fair-access rule is at most ten requests a second. The
// limiter lets the first through at once and each next one 100 ms after
// the one before, so the 21 cannot take less than two seconds however the
// machine schedules them. The spacing the server saw is not checked: a
// request delayed in flight would shorten the gap after it, though the
// client kept its rate.
func TestClientKeepsItsRate(t *testing.T) {
	srv := replay.New(t)
	srv.Add("f", []byte("x"))
	c := client(t, srv, 10)
	start := time.Now()
	for range 21 {
		if _, err := c.Get(spooled(t), "f", nil); err != nil {
			t.Fatal(err)
		}
	}
	if took := time.Since(start); took < 1999*time.Millisecond { // a millisecond for the limiter's float rounding
		t.Fatalf("21 requests at 10 a second took %v, less than 2s", took)
	}
	if n := len(srv.Requests()); n != 21 {
		t.Fatalf("the server saw %d requests, not 21", n)
	}
}

func TestClientSendsItsUserAgent(t *testing.T) {
	srv := replay.New(t)
	srv.Add("f", []byte("x"))
	if _, err := client(t, srv, 0).Get(spooled(t), "f", nil); err != nil {
		t.Fatal(err)
	}
	if got := srv.Requests()[0].UserAgent; got != "Quarry test ops@example.org" {
		t.Fatalf("User-Agent %q", got)
	}
}

func TestClientRetriesAndGivesUp(t *testing.T) {
	srv := replay.New(t)
	srv.Add("f", []byte("x"))
	srv.Fail("f", replay.TooMany, replay.Unavailable, replay.Unavailable, replay.Unavailable)
	_, err := client(t, srv, 0).Get(spooled(t), "f", nil)
	if !errors.Is(err, ports.ErrSourceFailed) || len(srv.Requests()) != 4 {
		t.Fatalf("after four refusals: %v, %d requests", err, len(srv.Requests()))
	}
	res, err := client(t, srv, 0).Get(spooled(t), "f", nil)
	if body := read(t, res.File); err != nil || body != "x" {
		t.Fatalf("once served: %q, %v", body, err)
	}
}

func TestClientAsksIfChanged(t *testing.T) {
	srv := replay.New(t)
	srv.Add("f", []byte("x"))
	c := client(t, srv, 0)
	ctx := spooled(t)
	first, err := c.Download(ctx, "f", fetch.Validator{}, "", nil)
	if err != nil || first.Validator.ETag == "" {
		t.Fatalf("first fetch: %+v, %v", first, err)
	}
	again, err := c.Download(ctx, "f", first.Validator, "", nil)
	if err != nil || !again.NotModified || !srv.Requests()[1].Conditional {
		t.Fatalf("conditional fetch: %+v, %v", again, err)
	}
	srv.Add("f", []byte("y"))
	changed, err := c.Download(ctx, "f", first.Validator, "", nil)
	if err != nil || changed.NotModified || read(t, changed.File) != "y" {
		t.Fatalf("after a change: %+v, %v", changed, err)
	}
}

func TestClientAnswersNotFound(t *testing.T) {
	_, err := client(t, replay.New(t), 0).Get(t.Context(), "missing", nil)
	if !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("404: %v", err)
	}
}

// zipWhole is the check a caller of Download makes of an archive: that
// archive/zip opens it, which needs its central directory at the end.
func zipWhole(file string) error {
	r, err := zip.OpenReader(file)
	if err != nil {
		return err
	}
	return r.Close()
}

func TestClientDownloadsToDisk(t *testing.T) {
	srv := replay.New(t)
	archive := replay.CompanyFactsZip(t)
	srv.Add(replay.CompanyFactsZipPath, archive)
	c := client(t, srv, 0)
	dir := t.TempDir()
	got, err := c.Download(t.Context(), replay.CompanyFactsZipPath, fetch.Validator{}, dir, zipWhole)
	if err != nil || got.Size != int64(len(archive)) || got.Validator.ETag == "" {
		t.Fatalf("download: %+v, %v", got, err)
	}
	if body, err := os.ReadFile(got.File); err != nil || !bytes.Equal(body, archive) {
		t.Fatalf("file on disk differs from the archive served: %v", err)
	}
	again, err := c.Download(t.Context(), replay.CompanyFactsZipPath, got.Validator, dir, zipWhole)
	if err != nil || !again.NotModified || again.File != "" {
		t.Fatalf("conditional download: %+v, %v", again, err)
	}
}

// TestClientDownloadRefusesPartFiles: a body cut short of its
// Content-Length, a truncated archive served as whole, a body over
// MaxBytes and an HTML page each fail, and leave no file behind.
func TestClientDownloadRefusesPartFiles(t *testing.T) {
	archive := replay.CompanyFactsZip(t)
	for name, fault := range map[string]replay.Fault{"cut": replay.Cut, "truncated": replay.Truncated, "html": replay.HTML} {
		t.Run(name, func(t *testing.T) {
			srv := replay.New(t)
			srv.Add(replay.CompanyFactsZipPath, archive)
			srv.Fail(replay.CompanyFactsZipPath, fault, fault, fault, fault)
			dir := t.TempDir()
			_, err := client(t, srv, 0).Download(t.Context(), replay.CompanyFactsZipPath, fetch.Validator{}, dir, zipWhole)
			if !errors.Is(err, ports.ErrSourceFailed) {
				t.Fatalf("%s: %v", name, err)
			}
			if left, _ := os.ReadDir(dir); len(left) != 0 {
				t.Fatalf("%s left %d files", name, len(left))
			}
		})
	}
	t.Run("over MaxBytes", func(t *testing.T) {
		srv := replay.New(t)
		srv.Add(replay.CompanyFactsZipPath, archive)
		c, err := fetch.New(fetch.Options{Source: "test", BaseURL: srv.URL, UserAgent: "Quarry test ops@example.org",
			Backoff: time.Millisecond, MaxBytes: int64(len(archive) - 1)})
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if _, err := c.Download(t.Context(), replay.CompanyFactsZipPath, fetch.Validator{}, dir, zipWhole); !errors.Is(err, ports.ErrSourceFailed) {
			t.Fatalf("over MaxBytes: %v", err)
		}
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Fatalf("left %d files", len(left))
		}
	})
}
