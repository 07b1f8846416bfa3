package account_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/domain/account"
)

func TestNormalizeEmail(t *testing.T) {
	got, err := account.NormalizeEmail("  Ada@Example.COM ")
	if err != nil || got != "ada@example.com" {
		t.Fatalf("NormalizeEmail = %q, %v", got, err)
	}
	for _, bad := range []string{"", "ada", "Ada <ada@example.com>", "a@b@c", strings.Repeat("a", 250) + "@x.io"} {
		if _, err := account.NormalizeEmail(bad); !errors.Is(err, account.ErrInvalidEmail) {
			t.Fatalf("NormalizeEmail(%q) = %v, want ErrInvalidEmail", bad, err)
		}
	}
}

func TestCheckPassword(t *testing.T) {
	cases := map[string]bool{
		strings.Repeat("x", 11):              false,
		strings.Repeat("x", 12):              true,
		strings.Repeat("é", 12):              true,
		strings.Repeat("x", 128):             true,
		strings.Repeat("x", 129):             false,
		"\xff\xfe" + strings.Repeat("x", 12): false,
	}
	for p, ok := range cases {
		if err := account.CheckPassword(p); (err == nil) != ok {
			t.Fatalf("CheckPassword(len %d) = %v, want ok=%v", len(p), err, ok)
		}
	}
}

func FuzzNormalizeEmail(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		e, err := account.NormalizeEmail(s)
		if err != nil {
			return
		}
		if again, err := account.NormalizeEmail(e); err != nil || again != e {
			t.Fatalf("normal form %q is not stable: %q, %v", e, again, err)
		}
	})
}
