package pii_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/domain/pii"
)

func testKey(t testing.TB, seed byte) pii.Key {
	t.Helper()
	k, err := pii.NewKey([]byte(strings.Repeat(string(rune('a'+seed)), pii.MinKeyBytes)))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestParsePAN(t *testing.T) {
	// The PANs below are made up to the published structure; none is
	// claimed to be anybody's.
	cases := []struct {
		name, in, want string
		ok             bool
	}{
		{"individual", "AAAPA1234A", "AAAPA1234A", true},
		{"company, lower case, spaced", " aaaca1234b ", "AAACA1234B", true},
		{"huf", "ABCHS0001Z", "ABCHS0001Z", true},
		{"llp", "ABCEL0001Z", "ABCEL0001Z", true},
		{"fourth letter no holder type", "AAAXA1234A", "", false},
		{"digit for a letter", "AAAP11234A", "", false},
		{"too short", "AAAPA1234", "", false},
		{"too long", "AAAPA1234AB", "", false},
		{"letter among digits", "AAAPA12O4A", "", false},
		{"empty", "", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := pii.ParsePAN(c.in)
			if c.ok != (err == nil) || got != c.want {
				t.Fatalf("ParsePAN(%q) = %q, %v", c.in, got, err)
			}
			if err != nil && !errors.Is(err, pii.ErrInvalidPAN) {
				t.Fatalf("error %v is not ErrInvalidPAN", err)
			}
		})
	}
}

func TestTokensAreDeterministicKeyedAndNormalised(t *testing.T) {
	k := testKey(t, 0)
	tok := func(kind pii.Kind, s string) string {
		t.Helper()
		v, err := k.Token(kind, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	a := tok(pii.KindParty, "Ram Kumar Gupta")
	if !strings.HasPrefix(a, "PTY_") || len(a) != 4+16 || !pii.IsToken(a) {
		t.Fatalf("token %q: want PTY_ and 16 base32 characters", a)
	}
	for _, same := range []string{"RAM KUMAR GUPTA", "  ram\tkumar\n gupta ", "Ram  Kumar  Gupta"} {
		if got := tok(pii.KindParty, same); got != a {
			t.Errorf("token of %q = %q, want %q (same party)", same, got, a)
		}
	}
	if tok(pii.KindParty, "Ram Kumar") == a || tok(pii.KindParty, "RamKumar Gupta") == a {
		t.Error("different names share a token")
	}
	// Composed and decomposed Devanagari are one name.
	if tok(pii.KindParty, "शर्मा") != tok(pii.KindParty, "\u0936\u0930\u094d\u092e\u093e") {
		t.Error("NFC forms differ")
	}
	p := tok(pii.KindPAN, "aaapa1234a")
	if !strings.HasPrefix(p, "PAN_") || p != tok(pii.KindPAN, "AAAPA1234A") {
		t.Fatalf("PAN token %q", p)
	}
	if tok(pii.KindParty, "AAAPA1234A")[4:] == p[4:] {
		t.Error("the kind does not enter the hash")
	}
	other, _ := testKey(t, 1).Token(pii.KindParty, "Ram Kumar Gupta")
	if other == a {
		t.Error("another key gives the same token")
	}
	if _, err := pii.NewKey(make([]byte, pii.MinKeyBytes-1)); !errors.Is(err, pii.ErrShortKey) {
		t.Errorf("short key: %v", err)
	}
	if _, err := (pii.Key{}).Token(pii.KindParty, "x"); !errors.Is(err, pii.ErrShortKey) {
		t.Errorf("zero key: %v", err)
	}
	if _, err := k.Token(pii.KindParty, " \t"); err == nil {
		t.Error("blank name tokenized")
	}
	if pii.IsToken("PTY_SHORT") || pii.IsToken("Ram Kumar") {
		t.Error("IsToken accepts a non-token")
	}
}

func TestRedactorReplacesEveryOccurrence(t *testing.T) {
	k := testKey(t, 0)
	// An invented cause title and passage in the shape of an Indian
	// judgment; the people and the PAN are made up.
	parties := []string{"Suresh Kumar Jindal", "Suresh Kumar", "State Bank of India", "Meera Devi"}
	r, err := k.NewRedactor(parties)
	if err != nil {
		t.Fatal(err)
	}
	tok := func(s string) string {
		v, err := r.Token(s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	jindal, kumar, sbi, meera := tok("Suresh Kumar Jindal"), tok("Suresh Kumar"), tok("State Bank of India"), tok("Meera Devi")
	pan, _ := k.Token(pii.KindPAN, "AAAPJ1234K")
	cases := []struct{ in, want string }{
		{"Suresh Kumar Jindal v. State Bank of India", jindal + " v. " + sbi},
		{"SURESH  KUMAR\nJINDAL (PAN aaapj1234k) and one Suresh Kumar", jindal + " (PAN " + pan + ") and one " + kumar},
		{"the State of Haryana; the State Bank of India's officer", "the State of Haryana; the " + sbi + "'s officer"},
		{"Meera Devist is not Meera Devi.", "Meera Devist is not " + meera + "."},
		{"XMeera Devi and Meera Devi2 are other words", "XMeera Devi and Meera Devi2 are other words"},
		{"PAN AAAXA1234A, shaped like one, is replaced too", "PAN " + mustToken(t, k, "AAAXA1234A") + ", shaped like one, is replaced too"},
		{"ABCDE12345F is no PAN", "ABCDE12345F is no PAN"},
	}
	for _, c := range cases {
		if got := r.Redact(c.in); got != c.want {
			t.Errorf("Redact(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
	// Redacting again changes nothing: tokens are never matched again.
	once := r.Redact(cases[1].in)
	if twice := r.Redact(once); twice != once {
		t.Errorf("redacting twice: %q", twice)
	}
	got := r.Entries()
	if len(got) != len(parties)+2 {
		t.Fatalf("%d entries, want %d parties and 2 PANs: %+v", len(got), len(parties), got)
	}
	for _, e := range got {
		if e.Kind == pii.KindPAN && e.Original != "AAAPJ1234K" && e.Original != "AAAXA1234A" {
			t.Errorf("PAN entry %+v", e)
		}
	}
}

func TestRedactorHindiNames(t *testing.T) {
	k := testKey(t, 0)
	r, err := k.NewRedactor([]string{"सुनीता शर्मा"})
	if err != nil {
		t.Fatal(err)
	}
	tok, _ := r.Token("सुनीता शर्मा")
	in := "याचिकाकर्ता सुनीता शर्मा ने कहा; सुनीता शर्माजी नहीं"
	want := "याचिकाकर्ता " + tok + " ने कहा; सुनीता शर्माजी नहीं"
	if got := r.Redact(in); got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

func TestSameTokensAcrossJudgments(t *testing.T) {
	k := testKey(t, 0)
	r1, _ := k.NewRedactor([]string{"Meera Devi", "Union of India"})
	r2, _ := k.NewRedactor([]string{"meera devi"})
	a, b := r1.Redact("Meera Devi v. Union of India"), r2.Redact("In re MEERA DEVI")
	if strings.Fields(a)[0] != strings.Fields(b)[2] {
		t.Fatalf("%q and %q name the party differently", a, b)
	}
}

func mustToken(t *testing.T, k pii.Key, pan string) string {
	t.Helper()
	v, err := k.Token(pii.KindPAN, pan)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
