package bootstrap

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestProgressOpenerDrawsOnlyForLongRuns(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.csv")
	large := filepath.Join(dir, "nested", "large.json")
	if err := os.MkdirAll(filepath.Dir(large), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(small, []byte("a,b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(large, bytes.Repeat([]byte("x"), progressThreshold), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := sourceBytes([]string{small, dir + "/nested", filepath.Join(dir, "missing")}); got != 4+progressThreshold {
		t.Fatalf("sourceBytes = %d", got)
	}
	for _, c := range []struct {
		files []string
		drawn bool
	}{{[]string{small}, false}, {[]string{small, large}, true}} {
		var out bytes.Buffer
		open := progressOpener(c.files, &out)
		for _, name := range c.files {
			f, err := open(name)
			if err != nil {
				t.Fatal(err)
			}
			n, err := io.Copy(io.Discard, f)
			f.Close()
			if err != nil || n == 0 {
				t.Fatalf("read %s: %d bytes, %v", name, n, err)
			}
		}
		if drawn := strings.Contains(out.String(), "ingesting"); drawn != c.drawn {
			t.Fatalf("files %v: bar drawn = %v, want %v (%q)", c.files, drawn, c.drawn, out.String())
		}
	}
}
