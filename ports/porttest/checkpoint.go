package porttest

import (
	"context"
	"testing"
)

// checkpointer is the checkpoint half of the index ports.
type checkpointer interface {
	Checkpoint(ctx context.Context) ([]byte, error)
	SaveCheckpoint(ctx context.Context, cp []byte) error
}

// runCheckpoint checks that a new index holds no checkpoint and that the
// last one saved is the one read back.
func runCheckpoint(t *testing.T, x checkpointer) {
	t.Helper()
	ctx := context.Background()
	cp, err := x.Checkpoint(ctx)
	must(t, "Checkpoint", err)
	if len(cp) != 0 {
		t.Fatalf("a new index holds checkpoint %q", cp)
	}
	for _, want := range []string{`{"mark":1}`, `{"mark":2}`} {
		must(t, "SaveCheckpoint", x.SaveCheckpoint(ctx, []byte(want)))
		cp, err = x.Checkpoint(ctx)
		must(t, "Checkpoint", err)
		if string(cp) != want {
			t.Fatalf("Checkpoint = %q, want %q", cp, want)
		}
	}
}
