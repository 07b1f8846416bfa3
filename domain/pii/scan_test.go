package pii_test

import (
	"strings"
	"testing"

	"github.com/quarrydata/quarry/domain/pii"
)

func TestHasPANShaped(t *testing.T) {
	key := testKey(t, 0)
	tok, err := key.Token(pii.KindPAN, "ABCPK1234D")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text string
		want bool
	}{
		{"The assessee's PAN is ABCPK1234D.", true},
		{"the assessee's pan is abcpk1234d.", true},                    // any case
		{"PANABCPK1234Dissued to the firm", true},                      // glued to words
		{"pan:abcpk1234d", true},                                       // glued to punctuation
		{"ABCPK 1234 D was quoted", true},                              // spaced
		{"A-B-C-P-K-1-2-3-4-D", true},                                  // hyphenated
		{"ABCPK/1234/D", true},                                         // slashed
		{"AB.CPK.1234.D", true},                                        // dotted
		{"Net sales were 383,285 million in fiscal 2023.", false},      // numbers, no letters around
		{"Since 2019 a new rule applied; until 2020 a review.", false}, // prose, not upper case
		{"Civil Appeal No. 1234 of 2019", false},
		{"ABCPK  1234  D", true},      // the redactor's split form
		{"ＡＢＣＰＫ１２３４Ｄ", true},          // full width, seen in NFKC
		{"ABCPK12\u200b34D", true},    // a zero-width space inside
		{"A B C P K 1 2 3 4 D", true}, // one space between each
		{"ABCPK12345D", false},        // five digits
		{"The party " + tok + " appealed.", false},
	} {
		if got := pii.HasPANShaped(c.text); got != c.want {
			t.Errorf("HasPANShaped(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// A token's base32 body may hold a PAN-shaped run; it is a token, not a PAN.
func TestHasPANShapedSkipsTokens(t *testing.T) {
	body := "ABCDE2345FGHIJKL"
	for _, prefix := range []string{"PAN_", "PTY_"} {
		if text := "held by " + prefix + body + " alone"; pii.HasPANShaped(text) {
			t.Errorf("HasPANShaped(%q) = true, want a token skipped", text)
		}
	}
	if !pii.HasPANShaped("held by " + body + " alone") {
		t.Errorf("the same run outside a token is PAN-shaped")
	}
}

// FuzzHasPANShaped scans arbitrary text: no input panics, and every PAN the
// redactor would replace (a PAN-shaped word) is found, so the scan of an
// answer is never weaker than the redaction of its source.
func FuzzHasPANShaped(f *testing.F) {
	f.Add("The PAN ABCPK1234D was quoted.")
	f.Add("PANABCPK1234Dissued")
	f.Add("A B C P K 1 2 3 4 D")
	f.Add("PAN_ABCDE2345FGHIJKL")
	f.Fuzz(func(t *testing.T, text string) {
		if panWord.MatchString(text) && !strings.Contains(text, "_") && !pii.HasPANShaped(text) {
			t.Fatalf("HasPANShaped(%q) = false; the redactor finds a PAN in it", text)
		}
	})
}
