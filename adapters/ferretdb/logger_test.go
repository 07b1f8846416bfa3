package ferretdb

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// countingHandler counts the attributes it is given to encode ahead of a
// record.
type countingHandler struct {
	slog.Handler
	given *int
}

func (c countingHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	*c.given += len(attrs)
	return countingHandler{c.Handler.WithAttrs(attrs), c.given}
}

func (c countingHandler) WithGroup(name string) slog.Handler {
	return countingHandler{c.Handler.WithGroup(name), c.given}
}

// TestLazyAttrsEncodeOnlyWhatIsLogged: a logger given a statement's
// arguments hands none to the handler while nothing is logged, and a
// record logged carries them, outside a group opened after them.
func TestLazyAttrsEncodeOnlyWhatIsLogged(t *testing.T) {
	var out bytes.Buffer
	given := 0
	inner := countingHandler{slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelError}), &given}
	log := slog.New(lazyAttrs{h: inner})
	for range 3 {
		log.With("sql", "INSERT …", "args", []string{"a large document"}).Debug("exec")
	}
	if given != 0 || out.Len() != 0 {
		t.Fatalf("%d attributes given to the handler, %q written, for records never logged", given, out.String())
	}
	log.With("sql", "INSERT …").WithGroup("g").Error("failed", "n", 1)
	if got := out.String(); !strings.Contains(got, "sql=\"INSERT …\"") || !strings.Contains(got, "g.n=1") || strings.Contains(got, "g.sql") {
		t.Fatalf("logged %q, want the statement outside the group and n inside", got)
	}
	out.Reset()
	log.With("sql", "SELECT").Error("failed")
	if got := out.String(); !strings.Contains(got, "msg=failed sql=SELECT") {
		t.Fatalf("logged %q, want the statement with the record", got)
	}
}
