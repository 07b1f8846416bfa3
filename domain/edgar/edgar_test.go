package edgar_test

import (
	"testing"

	"github.com/quarrydata/quarry/domain/edgar"
)

func TestParseAccession(t *testing.T) {
	for in, want := range map[string]string{
		"0000320193-24-000123": "0000320193-24-000123",
		"000032019324000123":   "0000320193-24-000123",
	} {
		if got, err := edgar.ParseAccession(in); err != nil || got != want {
			t.Fatalf("ParseAccession(%q) = %q, %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "0000320193-24-00012", "00003201932-4-000123", "x000320193-24-000123", "0000320193--24000123"} {
		if _, err := edgar.ParseAccession(bad); err == nil {
			t.Fatalf("ParseAccession(%q) accepted", bad)
		}
	}
}

func TestParseCIKAndTicker(t *testing.T) {
	if got, err := edgar.ParseCIK("320193"); err != nil || got != "0000320193" {
		t.Fatalf("ParseCIK = %q, %v", got, err)
	}
	for _, bad := range []string{"", "0", "12345678901", "32O193"} {
		if _, err := edgar.ParseCIK(bad); err == nil {
			t.Fatalf("ParseCIK(%q) accepted", bad)
		}
	}
	if got, err := edgar.ParseTicker("brk.b"); err != nil || got != "BRK.B" {
		t.Fatalf("ParseTicker = %q, %v", got, err)
	}
	if _, err := edgar.ParseTicker("AA PL"); err == nil {
		t.Fatal("ParseTicker accepted a space")
	}
}

func TestParseCUSIP(t *testing.T) {
	// Apple's common stock and Microsoft's, with their published check digits.
	for _, ok := range []string{"037833100", "594918104"} {
		if _, err := edgar.ParseCUSIP(ok); err != nil {
			t.Fatalf("ParseCUSIP(%q) = %v", ok, err)
		}
	}
	for _, bad := range []string{"037833101", "03783310", "03783310X"} {
		if _, err := edgar.ParseCUSIP(bad); err == nil {
			t.Fatalf("ParseCUSIP(%q) accepted", bad)
		}
	}
}

func FuzzParseAccession(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		a, err := edgar.ParseAccession(s)
		if err != nil {
			return
		}
		if again, err := edgar.ParseAccession(a); err != nil || again != a {
			t.Fatalf("canonical %q does not round-trip", a)
		}
	})
}
