package ingest

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/usfinancials"
)

// ingestWithProgress ingests the bundled companyfacts, written into a
// folder, through p.
func ingestWithProgress(t *testing.T, p *progress) []string {
	t.Helper()
	dir := t.TempDir()
	docs, tickers := sampleFinancials(t)
	docs["company_tickers.json"] = tickers
	for name, raw := range docs {
		if err := os.WriteFile(filepath.Join(dir, name), raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fin := usfinancials.New(memory.NewFinancials(), time.Now, nil)
	if _, err := IngestUSFinancials(context.Background(), fin, &Files{Names: []string{dir}, Progress: p}); err != nil {
		t.Fatal(err)
	}
	p.Finish()
	return sortedKeys(docs)
}

func TestProgressModes(t *testing.T) {
	t.Run("a non-terminal gets one line per file", func(t *testing.T) {
		var out bytes.Buffer
		p := NewProgress(&out, false)
		if p.mode != progressLines {
			t.Fatalf("mode %v for a buffer", p.mode)
		}
		names := ingestWithProgress(t, p)
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if len(lines) != len(names) {
			t.Fatalf("%d lines for %d files:\n%s", len(lines), len(names), out.String())
		}
		for _, l := range lines {
			f := strings.Split(l, "\t")
			if len(f) != 3 || !strings.HasSuffix(f[1], " records") || f[1] == "0 records" {
				t.Fatalf("line %q: want name, records, elapsed", l)
			}
			if _, err := time.ParseDuration(f[2]); err != nil {
				t.Fatalf("line %q: elapsed %v", l, err)
			}
		}
		if !strings.Contains(out.String(), "company_tickers.json\t3 records") {
			t.Fatalf("no line for the tickers file:\n%s", out.String())
		}
	})
	t.Run("quiet shows nothing", func(t *testing.T) {
		var out bytes.Buffer
		ingestWithProgress(t, NewProgress(&out, true))
		if out.Len() != 0 {
			t.Fatalf("quiet wrote %q", out.String())
		}
	})
	t.Run("a file is no terminal", func(t *testing.T) {
		f, err := os.Create(filepath.Join(t.TempDir(), "log"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if NewProgress(f, false).mode != progressLines {
			t.Fatal("a file is taken for a terminal")
		}
	})
	t.Run("a terminal gets a bar for long runs only", func(t *testing.T) {
		for _, c := range []struct {
			total int64
			drawn bool
		}{{100, false}, {progressThreshold, true}} {
			var out bytes.Buffer
			p := &progress{mode: progressBar, out: &out, now: time.Now, start: map[string]time.Time{}}
			p.expect(c.total)
			r := p.reader("x", io.NopCloser(strings.NewReader("some bytes")), true)
			if _, err := io.Copy(io.Discard, r); err != nil {
				t.Fatal(err)
			}
			r.Close()
			p.Finish()
			if drawn := strings.Contains(out.String(), "ingesting"); drawn != c.drawn {
				t.Fatalf("total %d: bar drawn = %v, want %v (%q)", c.total, drawn, c.drawn, out.String())
			}
			if strings.Contains(out.String(), "bytes\t") {
				t.Fatalf("a terminal got file lines: %q", out.String())
			}
		}
	})
}
