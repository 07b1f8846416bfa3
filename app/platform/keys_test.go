package platform_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/app/usecase"
)

// TestKeyNamesHoldText: a key name with a control character, a bidirectional
// control or a line separator is 422 and mints nothing; names in any
// script, emoji sequences joined by U+200D included, are kept as sent.
func TestKeyNamesHoldText(t *testing.T) {
	ctx := context.Background()
	clock := &fixedClock{time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC)}
	accounts, p := newAccounts(clock)
	login, err := accounts.Login(ctx, "ada@example.com", "correct horse battery", "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	id, err := accounts.Authenticate(ctx, login.Token)
	if err != nil {
		t.Fatal(err)
	}
	keys := platform.NewKeys(p, clock.now)
	for _, name := range []string{"ci\x00", "ci\nforged log line", "\x1b[31mred", "tab\there", "del\x7f", "c1\u0085",
		"invoice\u202Egpj.exe", "iso\u2066late", "mark\u200Fer", "line\u2028sep", "para\u2029sep"} {
		if _, err := keys.Create(ctx, id, name); !errors.Is(err, usecase.ErrValidation) {
			t.Errorf("name %q: %v, want a validation error", name, err)
		}
	}
	if got, err := keys.List(ctx, id); err != nil || len(got) != 0 {
		t.Fatalf("after refused names: %d keys, %v", len(got), err)
	}
	for _, name := range []string{"production", "生产环境", "مفتاح\u200cالإنتاج", "👨\u200d👩\u200d👧 family", "Zoë's key"} {
		k, err := keys.Create(ctx, id, name)
		if err != nil || k.Key.Name != name {
			t.Errorf("name %q: %+v, %v; want it kept", name, k.Key.Name, err)
		}
	}
}
