package http

import (
	"bytes"
	"slices"
	"testing"
)

// FuzzFraming feeds the same bytes whole and in pieces of every size: the
// verdicts and the state (and, while followed, the bytes still to pass)
// must not depend on how reads split the stream, and
// a head is judged to carry both lengths only if both names were sent.
func FuzzFraming(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, step uint8) {
		whole := newFraming()
		whole.feed(data)
		pieces := newFraming()
		size := int(step)%64 + 1
		for rest := data; len(rest) > 0; {
			n := min(size, len(rest))
			pieces.feed(rest[:n])
			rest = rest[n:]
		}
		followed := whole.state != lost && whole.remain != pieces.remain
		if !slices.Equal(whole.verdicts, pieces.verdicts) || whole.state != pieces.state || followed {
			t.Fatalf("whole: %v state %d; in pieces of %d: %v state %d", whole.verdicts, whole.state, size, pieces.verdicts, pieces.state)
		}
		lower := bytes.ToLower(data)
		if slices.Contains(whole.verdicts, true) &&
			(!bytes.Contains(lower, []byte("transfer-encoding:")) || !bytes.Contains(lower, []byte("content-length:"))) {
			t.Fatalf("judged both lengths sent in %q", data)
		}
	})
}
