package scope

import (
	"errors"
	"testing"
)

func TestParse(t *testing.T) {
	for _, name := range []string{"us:read", "data:export", "resale:read"} {
		if p, err := Parse(name); err != nil || string(p) != name {
			t.Errorf("Parse(%q) = %q, %v", name, p, err)
		}
	}
	for _, name := range []string{"", "admin:all", "US:READ", "resale:read "} {
		if _, err := Parse(name); !errors.Is(err, ErrUnknown) {
			t.Errorf("Parse(%q) = %v, want ErrUnknown", name, err)
		}
	}
}
