package pii_test

import (
	"regexp"
	"strings"
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

// FuzzLitigants detects litigants in arbitrary text: no input panics;
// every name found is one to five words, each found in the text; and once
// the people (names, their forms and addresses) are redacted, redacting
// the result again with the people found in it changes nothing (tokens
// are never read as names or addresses).
func FuzzLitigants(f *testing.F) {
	f.Add("defendant Nos.2 to 4 (Bishan Lal, Om Lal and Ved Lal)", "A.K. Sikri")
	f.Add("Mr. Naresh Jindal S/o Ram Jindal, partner of the firm; Mr. Kapil Rao, learned counsel", "")
	f.Add("PTY_SW7LB3GSMGIYSCGP v. the respondent (PTY_MX5TZWECRG3YQNOX and others)", "")
	f.Add("The prosecutrix, Kumari Pinki, aged about 14 years, r/o House No. 14, Gandhi Nagar, Bareilly; her brother-in-law Suresh", "")
	f.Add("Raju alias Rambo and Sonu @ golu; PW-2 Kallu; Ramprasad (PW-4); Ram Lal, Patwari; initialled \"P.V.R.\"", "")
	f.Add("2.  Priyanka Kumari\nRahul\nC-5/112, Yamuna Vihar, Delhi - 110053\nPAN: ABCPK1234Z", "")
	key := testKey(f, 0)
	f.Fuzz(func(t *testing.T, text, judge string) {
		names := pii.Litigants(text, []string{judge})
		for _, n := range names {
			if w := len(strings.Fields(n)); w < 1 || w > 5 || !strings.Contains(strings.Join(strings.Fields(text), " "), n) {
				t.Fatalf("Litigants(%q) found %q", text, n)
			}
		}
		r, err := key.PeopleRedactor(pii.FindPeople(text, []string{judge}, nil))
		if err != nil {
			return // a name too long to tokenize
		}
		out := r.Redact(text)
		again, err := key.PeopleRedactor(pii.FindPeople(out, []string{judge}, nil))
		if err != nil {
			return
		}
		if twice := again.Redact(out); twice != out {
			t.Fatalf("people found again in %q: %q", out, twice)
		}
	})
}
