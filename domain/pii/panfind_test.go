package pii_test

import (
	"strings"
	"testing"
)

// TestRedactFindsDisguisedPANs: a PAN glued to other text, split by
// separators, written in full-width letters or with a zero-width space
// inside is replaced, in the original text, by the token of the PAN it
// spells. The PAN is made up to the published structure.
func TestRedactFindsDisguisedPANs(t *testing.T) {
	k := testKey(t, 0)
	r, err := k.NewRedactor(nil)
	if err != nil {
		t.Fatal(err)
	}
	tok := mustToken(t, k, "ABCPK1234Z")
	cases := []struct{ name, in, want string }{
		{"glued after letters", "see PANABCPK1234Z here", "see PAN" + tok + " here"},
		{"glued after a digit", "no. 9ABCPK1234Z.", "no. 9" + tok + "."},
		{"glued before a digit", "ABCPK1234Z9 filed", tok + "9 filed"},
		{"glued before an underscore", "file ABCPK1234Z_x", "file " + tok + "_x"},
		{"split by spaces", "PAN ABCPK 1234 Z of", "PAN " + tok + " of"},
		{"split by hyphens", "PAN ABCPK-1234-Z of", "PAN " + tok + " of"},
		{"split by dots", "PAN ABCPK.1234.Z", "PAN " + tok},
		{"full width", "PAN ＡＢＣＰＫ１２３４Ｚ, said", "PAN " + tok + ", said"},
		{"zero-width space inside", "PAN ABCPK\u200b1234Z.", "PAN " + tok + "."},
		{"soft hyphen and word joiner inside", "PAN AB\u00adCPK12\u206034Z", "PAN " + tok},
		{"lower case, standing alone", "pan abcpk1234z", "pan " + tok},
		{"four spaces", "PAN ABCPK    1234Z", "PAN " + tok},
		{"separated, lower case", "no. abcpk-1234-z", "no. " + tok},
		{"broken across a line", "PAN ABCPK 1234\nZ", "PAN " + tok},
		{"broken inside the digits", "PAN ABCPK12\n   34Z", "PAN " + tok},
		{"slash", "ABCPK/1234/Z", tok},
		{"underscore", "ABCPK_1234_Z", tok},
		{"tab", "ABCPK\t1234\tZ", tok},
		{"double space", "ABCPK  1234  Z", tok},
		{"en dash", "ABCPK – 1234 – Z", tok},
		{"no-break space", "ABCPK 1234 Z", tok},
		{"thin space", "ABCPK 1234 Z", tok},
		{"spread one by one", "A B C P K 1 2 3 4 Z", tok},
		{"spread by dots", "A.B.C.P.K.1.2.3.4.Z.", tok + "."},
		{"Greek look-alikes", "PAN ΑΒCPK1234Z", "PAN " + tok},
		{"Cyrillic look-alikes", "PAN АВСРК1234Z", "PAN " + tok},
		{"mathematical letters", "PAN 𝐀𝐁𝐂𝐏𝐊𝟏𝟐𝟑𝟒𝐙", "PAN " + tok},
		{"Devanagari digits", "PAN ABCPK१२३४Z", "PAN " + tok},
		{"Arabic-Indic digits", "PAN ABCPK١٢٣٤Z", "PAN " + tok},
		{"lower case with spaces", "his pan abcpk 1234 z", "his pan " + tok},
		{"lower case spread, no label", "it reads a b c p k 1 2 3 4 z", "it reads " + tok},
		{"five spaces", "ABCPK     1234Z", tok},
		{"dashes between double spaces", "ABCPK  --  1234  --  Z", tok},
		{"a table cell wrapped with its indent", "PAN ABCPK\n                                           1234Z", "PAN " + tok},
		{"letters grouped 3 and 2", "PAN ABC PK 1234 Z", "PAN " + tok},
		{"Cherokee look-alikes", "PAN \u13aa\u13f4\u13df\u13e2\u13e61234Z", "PAN " + tok},
		{"small capitals", "PAN \u1d00\u0299\u1d04\u1d18\u1d0b 1234 z", "PAN " + tok},
		{"inside a GSTIN, lower case", "GSTIN 19abcpk1234z1zk.", "GSTIN 19" + tok + "1zk."},
		{"inside a GSTIN, no holder type", "GSTIN 19abcmk1234z1zk", "GSTIN 19" + mustToken(t, k, "ABCMK1234Z") + "1zk"},
		{"inside a GSTIN, parted by dots", "is 07ABCPK.1234.Z1ZW (as typed)", "is 07" + tok + "1ZW (as typed)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := r.Redact(c.in); got != c.want {
				t.Fatalf("Redact(%q)\n got %q\nwant %q", c.in, got, c.want)
			}
		})
	}
}

// TestRedactLeavesOrdinaryRunsAlone: a run glued to a word is a PAN only
// written together in upper case, a parted one only when its letters are
// no English word (or a label precedes it), and either needs a holder type
// for its fourth letter, so ordinary words, dates and codes stay as they
// are.
func TestRedactLeavesOrdinaryRunsAlone(t *testing.T) {
	r, err := testKey(t, 0).NewRedactor(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{
		"panabcpk1234z",    // glued, lower case
		"PANABCXK1234Z",    // glued, X is no holder type
		"ABCPK 12345 Z",    // five digits
		"ABCPK -----1234Z", // five separators that are no white space
		"ORDER 2019 A",     // an English word, a year and a letter
		"it was dated 2015 e.g. in",
		"in re Act 1961 a", // letters from words of prose
		"IN RE ACT 1961 A", // the same in capitals: RE and ACT are words
		"SCHEDULE 2019 A",  // five letters glued to others, then parted
		"ABCPK 1234 Zebra", // parted, the last letter glued to a word
		"Civil Appeal No. 1234 of 2018, WPL126.15.sxw, 2015:BHC-OS:12420-DB",
		"ABCDE12345F is no PAN",
		"DATE : 31ST MARCH 2005\nPPP...CCC... :", // a heading's date, then the next line
		"DATED : 31ST MARCH 2005 P.C.",
		"ABCPK\n\n1234Z",       // two line breaks
		"no. 19abcpk1234z1zkq", // a GSTIN's shape glued to more
		"no. 07abcpk1234z1z",   // one character short of a GSTIN
	} {
		if got := r.Redact(in); got != in {
			t.Errorf("Redact(%q) = %q, want it unchanged", in, got)
		}
	}
	if len(r.Entries()) != 0 {
		t.Fatalf("entries %+v", r.Entries())
	}
}

// TestRedactNeverLooksIntoTokens: a token whose base32 happens to hold a
// PAN's shape is left whole, so redacting twice changes nothing.
func TestRedactNeverLooksIntoTokens(t *testing.T) {
	r, err := testKey(t, 0).NewRedactor(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"PAN_ABCPK2345ZQRSTUV", "PTY_QQABCPK2345ZQRST and PANPAN_ABCPK2345ZQRSTUV"} {
		if got := r.Redact(in); got != in {
			t.Errorf("Redact(%q) = %q", in, got)
		}
	}
	in := "PANABCPK1234Z, ＡＢＣＰＫ１２３４Ｚ"
	once := r.Redact(in)
	if twice := r.Redact(once); twice != once || strings.Contains(once, "1234") {
		t.Fatalf("once %q, twice %q", once, twice)
	}
}
