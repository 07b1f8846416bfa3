package porttest

import (
	"context"
	"sync"
	"testing"

	"github.com/quarrydata/quarry/domain/pii"
	"github.com/quarrydata/quarry/ports"
)

// NewVault returns an empty Vault for one test.
type NewVault func(t *testing.T) ports.Vault

// RunVault is the contract of Vault.
func RunVault(t *testing.T, newVault NewVault) {
	ctx := context.Background()
	key, err := pii.NewKey([]byte("porttest vault key, 32 bytes or more"))
	must(t, "NewKey", err)
	entry := func(kind pii.Kind, original string) pii.Entry {
		tok, err := key.Token(kind, original)
		must(t, "Token", err)
		return pii.Entry{Token: tok, Kind: kind, Original: original}
	}
	// Invented parties; the PAN is made up to the published structure.
	party := entry(pii.KindParty, "Meera Devi")
	hindi := entry(pii.KindParty, "सुनीता शर्मा")
	pan := entry(pii.KindPAN, "AAAPJ1234K")
	address := entry(pii.KindAddress, "House No. 14, Gandhi Nagar, Bareilly")

	t.Run("empty vault", func(t *testing.T) {
		v := newVault(t)
		_, err := v.Reveal(ctx, party.Token)
		wantErr(t, "Reveal", err, ports.ErrNotFound)
		must(t, "Put nothing", v.Put(ctx, nil))
	})
	t.Run("put then reveal", func(t *testing.T) {
		v := newVault(t)
		must(t, "Put", v.Put(ctx, []pii.Entry{party, hindi, pan, address}))
		for _, want := range []pii.Entry{party, hindi, pan, address} {
			got, err := v.Reveal(ctx, want.Token)
			must(t, "Reveal", err)
			if got != want {
				t.Fatalf("Reveal(%s) = %+v, want %+v", want.Token, got, want)
			}
		}
	})
	t.Run("put is idempotent", func(t *testing.T) {
		v := newVault(t)
		must(t, "Put", v.Put(ctx, []pii.Entry{party}))
		must(t, "Put again", v.Put(ctx, []pii.Entry{party, pan}))
		must(t, "Put a third time", v.Put(ctx, []pii.Entry{pan, party, party}))
		got, err := v.Reveal(ctx, pan.Token)
		must(t, "Reveal", err)
		if got != pan {
			t.Fatalf("Reveal = %+v", got)
		}
	})
	t.Run("another original under a held token conflicts and writes nothing", func(t *testing.T) {
		v := newVault(t)
		must(t, "Put", v.Put(ctx, []pii.Entry{party}))
		forged := party
		forged.Original = "Someone Else"
		err := v.Put(ctx, []pii.Entry{hindi, forged})
		wantErr(t, "Put forged", err, ports.ErrConflict)
		_, err = v.Reveal(ctx, hindi.Token)
		wantErr(t, "Reveal of the batch's other entry", err, ports.ErrNotFound)
		got, err := v.Reveal(ctx, party.Token)
		must(t, "Reveal", err)
		if got != party {
			t.Fatalf("the held entry changed: %+v", got)
		}
		kind := party
		kind.Kind = pii.KindPAN
		wantErr(t, "Put another kind", v.Put(ctx, []pii.Entry{kind}), ports.ErrConflict)
	})
	t.Run("concurrent puts of the same entries all succeed once", func(t *testing.T) {
		v := newVault(t)
		var wg sync.WaitGroup
		errs := make(chan error, 20)
		for range 20 {
			wg.Go(func() { errs <- v.Put(ctx, []pii.Entry{pan, party, hindi}) })
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			must(t, "concurrent Put", err)
		}
		got, err := v.Reveal(ctx, hindi.Token)
		must(t, "Reveal", err)
		if got != hindi {
			t.Fatalf("Reveal = %+v", got)
		}
	})
}
