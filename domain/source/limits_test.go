package source_test

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/quarrydata/quarry/domain/source"
)

func TestQuoteCapsALongValue(t *testing.T) {
	huge := strings.Repeat("é", 50<<20) // 100 MB
	got := source.Quote(huge)
	if len(got) > 200 {
		t.Fatalf("Quote of a 100 MB value is %d bytes long", len(got))
	}
	if !strings.HasPrefix(got, `"`+strings.Repeat("é", 64)+`"`) || !strings.HasSuffix(got, "…(104857600 bytes)") {
		t.Fatalf("Quote = %.120s…", got)
	}
	if got := source.Quote("AAPL"); got != `"AAPL"` {
		t.Fatalf("Quote(AAPL) = %s, want it quoted whole", got)
	}
	if got := source.Quote(strings.Repeat("x", 64)); got != `"`+strings.Repeat("x", 64)+`"` {
		t.Fatalf("a 64-character value is quoted whole; got %s", got)
	}
}

func TestReadAllRefusesBeyondItsLimit(t *testing.T) {
	cases := []struct {
		name  string
		input string
		want  error
	}{
		{"at the limit", "0123456789", nil},
		{"one byte past", "0123456789a", source.ErrTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			raw, err := source.ReadAll("f.json", strings.NewReader(c.input), 10)
			if c.want == nil {
				if err != nil || string(raw) != c.input {
					t.Fatalf("ReadAll = %q, %v", raw, err)
				}
				return
			}
			if !errors.Is(err, c.want) || !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), "f.json: ") || !strings.Contains(err.Error(), "larger than 10 bytes") {
				t.Fatalf("ReadAll error = %v", err)
			}
		})
	}
}

// TestReadAllReadsNoMoreThanItsLimit reads an endless stream: the refusal
// comes after limit+1 bytes, not at the end of the input.
func TestReadAllReadsNoMoreThanItsLimit(t *testing.T) {
	counted := &countingReader{}
	_, err := source.ReadAll("endless", counted, 1<<20)
	if !errors.Is(err, source.ErrTooLarge) || counted.n != 1<<20+1 {
		t.Fatalf("read %d bytes, error %v", counted.n, err)
	}
}

type countingReader struct{ n int64 }

func (c *countingReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	c.n += int64(len(p))
	return len(p), nil
}

func TestLinesRefusesALongRecord(t *testing.T) {
	cases := []struct {
		name, input string
		line        string // in the refusal; empty when none is refused
	}{
		{"short lines", "a,b\n1,2\n" + strings.Repeat("x", 16) + "\n", ""},
		{"a long line", "a,b\n1,2\n" + strings.Repeat("x", 17) + "\n", "f.csv:3: a line longer than 16 bytes"},
		{"a quoted newline keeps the record going", "a,b\n\"" + strings.Repeat("x\n", 9) + "\",2\n", "f.csv:2: a line longer than 16 bytes"},
		{"doubled quotes close and reopen", "a,\"\"\"x\"\"\"\n" + strings.Repeat("y", 16) + "\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cr := csv.NewReader(source.Lines("f.csv", strings.NewReader(c.input), 16))
			cr.FieldsPerRecord = -1
			_, err := cr.ReadAll()
			if c.line == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !errors.Is(err, source.ErrTooLarge) || !strings.Contains(err.Error(), c.line) {
				t.Fatalf("error = %v, want %s", err, c.line)
			}
		})
	}
}

func TestEntryNames(t *testing.T) {
	cases := []struct {
		name    string
		entries []string
		reason  string // empty when the names are accepted
	}{
		{"local names", []string{"CIK0000320193.json", "sub/", "sub/x.csv"}, ""},
		{"parent", []string{"../../etc/passwd"}, "not a local path"},
		{"absolute", []string{"/etc/passwd"}, "not a local path"},
		{"dot-dot inside", []string{"sub/../x.csv"}, "not a local path"},
		{"dot", []string{"./x.csv"}, "not a local path"},
		{"empty element", []string{"sub//x.csv"}, "not a local path"},
		{"backslash", []string{`..\..\x.csv`}, "backslash"},
		{"drive letter", []string{"C:/x.csv"}, "drive letter"},
		{"colon", []string{"sub/ab:c.csv"}, "colon"},
		{"empty", []string{""}, "empty name"},
		{"twice", []string{"x.csv", "y.csv", "x.csv"}, `entry "x.csv" appears twice`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := source.EntryNames("a.zip", c.entries)
			if c.reason == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), "a.zip: ") || !strings.Contains(err.Error(), c.reason) {
				t.Fatalf("error = %v, want a.zip and %q", err, c.reason)
			}
		})
	}
}

// FuzzLimits feeds one input to every bound: none may panic, Quote stays
// short and valid UTF-8 for valid input, and Lines passes through exactly
// the bytes it reads until it refuses.
func FuzzLimits(f *testing.F) {
	for _, seed := range []string{"", "a,b\n1,2\n", "\"x\n\ny\",z\n", "../../etc/passwd", "sub/../x", "C:\\x", strings.Repeat("é", 100)} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if q := source.Quote(s); len(q) > 6*64+40 || (utf8.ValidString(s) && !utf8.ValidString(q)) {
			t.Fatalf("Quote(%q) = %q", s, q)
		}
		_ = source.EntryNames("a.zip", strings.Split(s, "|"))
		var out bytes.Buffer
		_, err := io.Copy(&out, source.Lines("f", strings.NewReader(s), 8))
		if !strings.HasPrefix(s, out.String()) || (err != nil && !errors.Is(err, source.ErrTooLarge)) {
			t.Fatalf("Lines passed %q of %q, error %v", out.String(), s, err)
		}
	})
}
