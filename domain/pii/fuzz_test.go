package pii_test

import (
	"regexp"
	"testing"

	"github.com/quarrydata/quarry/domain/pii"
)

// panWord is a PAN-shaped word, as the redactor finds them.
var panWord = regexp.MustCompile(`(?i)\b[A-Z]{5}[0-9]{4}[A-Z]\b`)

// FuzzRedact redacts arbitrary text for an arbitrary party: no input
// panics, no PAN-shaped word survives, and redacting again changes nothing
// (a name never matches inside a token, and no PAN is found again: none
// glued, separated, full-width or split by a format character survived).
// The seeds in testdata/fuzz/FuzzRedact hold each disguised form.
func FuzzRedact(f *testing.F) {
	f.Add("Ramesh Kumar (PAN ABCPK1234D) v. State of Punjab", "Ramesh Kumar")
	f.Add("रमेश कुमार बनाम पंजाब राज्य", "रमेश कुमार")
	f.Add("PTY PAN_ ramesh   KUMAR", "PTY")
	key := testKey(f, 0)
	f.Fuzz(func(t *testing.T, text, party string) {
		r, err := key.NewRedactor([]string{party})
		if err != nil {
			return // a name that cannot be a party (empty, blank, too long)
		}
		out := r.Redact(text)
		if panWord.MatchString(out) {
			t.Fatalf("a PAN-shaped word survived: %q -> %q", text, out)
		}
		if again := r.Redact(out); again != out {
			t.Fatalf("redacting twice changed %q into %q", out, again)
		}
	})
}

// FuzzParsePAN checks that whatever ParsePAN accepts is a PAN in canonical
// form, which it accepts again unchanged.
func FuzzParsePAN(f *testing.F) {
	f.Add("abcpk1234d")
	f.Add("ABCPK1234D ")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := pii.ParsePAN(s)
		if err != nil {
			return
		}
		if !panWord.MatchString(p) || len(p) != 10 {
			t.Fatalf("ParsePAN(%q) = %q, not a PAN", s, p)
		}
		if again, err := pii.ParsePAN(p); err != nil || again != p {
			t.Fatalf("ParsePAN(%q) = %q, %v; want it unchanged", p, again, err)
		}
	})
}
