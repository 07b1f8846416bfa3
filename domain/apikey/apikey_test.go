package apikey_test

import (
	"bytes"
	"crypto/rand"
	"errors"
	"testing"
	"time"

	"github.com/quarrydata/quarry/domain/apikey"
)

func TestGenerateIsWellFormed(t *testing.T) {
	for range 100 {
		key, err := apikey.Generate(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		if err := apikey.Check(key); err != nil {
			t.Fatalf("Check(%q) = %v", key, err)
		}
		if got := apikey.Prefix(key); len(got) != apikey.PrefixLen || got[:3] != "qk_" {
			t.Fatalf("Prefix(%q) = %q", key, got)
		}
	}
}

func TestCheckRefusesDamagedKeys(t *testing.T) {
	key, err := apikey.Generate(bytes.NewReader(bytes.Repeat([]byte{7}, 64)))
	if err != nil {
		t.Fatal(err)
	}
	flipped := []byte(key)
	flipped[10] = 'Z'
	if flipped[10] == key[10] {
		flipped[10] = 'Y'
	}
	cases := map[string]string{
		"empty":        "",
		"short":        key[:20],
		"long":         key + "a",
		"no marker":    "xx_" + key[3:],
		"bad alphabet": key[:5] + "-" + key[6:],
		"typo":         string(flipped),
	}
	for name, k := range cases {
		t.Run(name, func(t *testing.T) {
			if err := apikey.Check(k); !errors.Is(err, apikey.ErrMalformed) {
				t.Fatalf("Check(%q) = %v, want ErrMalformed", k, err)
			}
		})
	}
}

func TestDigestIsStableHex(t *testing.T) {
	if got := apikey.Digest("abc"); got != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Fatalf("Digest(abc) = %s", got)
	}
}

func FuzzCheck(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		if apikey.Check(s) == nil && len(s) != apikey.Len {
			t.Fatalf("accepted key of length %d", len(s))
		}
	})
}

func TestKindAndLife(t *testing.T) {
	t0 := time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC)
	exp := t0.Add(10 * time.Minute)
	standing := apikey.Key{CreatedAt: t0}
	browser := apikey.Key{CreatedAt: t0, ExpiresAt: &exp}
	if standing.Kind() != apikey.Standing || browser.Kind() != apikey.Browser {
		t.Fatalf("kinds %q %q", standing.Kind(), browser.Kind())
	}
	if !standing.Live(t0.Add(1000*time.Hour)) || standing.Expired(t0.Add(1000*time.Hour)) {
		t.Fatal("a standing key expired")
	}
	if !browser.Live(exp.Add(-time.Nanosecond)) || browser.Live(exp) || !browser.Expired(exp) {
		t.Fatal("a browser credential is live before its expiry and not at it")
	}
	revoked := t0
	browser.RevokedAt = &revoked
	if browser.Live(t0) {
		t.Fatal("a revoked credential is live")
	}
}
