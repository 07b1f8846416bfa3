package judgment_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/domain/pii"
)

func TestIDsAreDerivedAndParsed(t *testing.T) {
	id := judgment.NewID("Supreme Court of India", "Civil Appeal No. 2244 of 2018", "2018-02-16")
	if same := judgment.NewID(" supreme court  of india", "CIVIL APPEAL NO. 2244 OF\t2018", "2018-02-16"); same != id {
		t.Fatalf("%s and %s: spacing and case changed the id", id, same)
	}
	if other := judgment.NewID("Supreme Court of India", "Civil Appeal No. 2244 of 2018", "2018-02-17"); other == id {
		t.Fatal("another date gives the same id")
	}
	if got, err := judgment.ParseID(id); err != nil || got != id || len(id) != 20 || !strings.HasPrefix(id, "inj_") {
		t.Fatalf("ParseID(%s) = %s, %v", id, got, err)
	}
	for _, bad := range []string{"", "inj_", "INJ_AAAAAAAAAAAAAAAA", "inj_aaaaaaaaaaaaaaa1", "inj_aaaaaaaaaaaaaaaaa", "pty_aaaaaaaaaaaaaaaa"} {
		if _, err := judgment.ParseID(bad); !errors.Is(err, judgment.ErrInvalidID) {
			t.Errorf("ParseID(%q) = %v", bad, err)
		}
	}
}

func TestRoles(t *testing.T) {
	for in, want := range map[string]judgment.Role{"Petitioner": "petitioner", "opposite party": "opposite_party", "Opposite-Party": "opposite_party"} {
		if got, err := judgment.ParseRole(in); err != nil || got != want {
			t.Errorf("ParseRole(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := judgment.ParseRole("judge"); err == nil {
		t.Error("a judge is a party")
	}
}

// TestTokenizeReplacesPartiesEverywhere uses a made-up party and PAN in
// the shape of an Indian cause title.
func TestTokenizeReplacesPartiesEverywhere(t *testing.T) {
	key, err := pii.NewKey([]byte(strings.Repeat("k", pii.MinKeyBytes)))
	if err != nil {
		t.Fatal(err)
	}
	src := judgment.Source{
		Court: "High Court of Delhi", CaseNumber: "W.P.(C) 1/2024 (Meera Devi)", Title: "Meera Devi v. Union of India",
		Parties: []judgment.SourceParty{{Name: "Meera Devi", Role: "Petitioner"}, {Name: "Union of India", Role: "respondent"}},
		Judges:  []string{"A. Example"}, Citations: []string{"2024:DHC:1 (MEERA DEVI)"}, DecisionDate: "2024-01-02", Language: "en",
		Text: "The petitioner Meera Devi (PAN AAAPD1234K) is heard; meera  devi says so.",
	}
	j, entries, err := judgment.Tokenize(key, src)
	if err != nil {
		t.Fatal(err)
	}
	all := strings.ToLower(strings.Join(append([]string{j.Title, j.CaseNumber, j.Text}, j.Citations...), " "))
	for _, original := range []string{"meera", "union of india", "aaapd1234k"} {
		if strings.Contains(all, original) {
			t.Errorf("%q survives: %s", original, all)
		}
	}
	if j.Parties[0].Role != "petitioner" || !pii.IsToken(j.Parties[0].Token) || !strings.HasPrefix(j.Title, j.Parties[0].Token) || j.Judges[0] != "A. Example" {
		t.Fatalf("judgment = %+v", j)
	}
	if len(entries) != 3 || j.ID != judgment.NewID(src.Court, src.CaseNumber, src.DecisionDate) {
		t.Fatalf("entries %+v, id %s", entries, j.ID)
	}
	again, _, _ := judgment.Tokenize(key, src)
	if again.Text != j.Text || again.Parties[0] != j.Parties[0] {
		t.Fatal("tokenizing twice gave other tokens")
	}
	src.Parties = nil
	if _, _, err := judgment.Tokenize(key, src); err == nil {
		t.Fatal("a judgment without parties was tokenized")
	}
}

// TestDigestChangesWithEveryField changes each field of a judgment in
// turn, and moves text between two fields: each change gives another
// digest, and an equal copy the same one; Equal agrees: each changed
// judgment is unequal to the first, the copy equal.
func TestDigestChangesWithEveryField(t *testing.T) {
	base := judgment.Judgment{
		ID: "inj_aaaaaaaaaaaaaaaa", Court: "Supreme Court of India", Bench: "", CaseNumber: "C.A. 1/2020", Title: "PTY_A v. PTY_B",
		Parties: []judgment.Party{{Token: "PTY_A", Role: "appellant"}, {Token: "PTY_B", Role: "respondent"}},
		Judges:  []string{"A", "B"}, DecisionDate: "2020-01-02", Citations: []string{"(2020) 1 SCC 1"}, Language: "en",
		PageCount: 3, Text: "1. Text.", RetrievedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
	}
	clone := func() judgment.Judgment {
		j := base
		j.Parties = slices.Clone(base.Parties)
		j.Judges = slices.Clone(base.Judges)
		j.Citations = slices.Clone(base.Citations)
		return j
	}
	if clone().Digest() != base.Digest() || !clone().Equal(base) {
		t.Fatal("an equal copy has another digest, or is not Equal")
	}
	changes := map[string]func(*judgment.Judgment){
		"court":        func(j *judgment.Judgment) { j.Court += "." },
		"bench":        func(j *judgment.Judgment) { j.Bench = "Lucknow" },
		"case number":  func(j *judgment.Judgment) { j.CaseNumber += "." },
		"title":        func(j *judgment.Judgment) { j.Title += "." },
		"party token":  func(j *judgment.Judgment) { j.Parties[0].Token = "PTY_C" },
		"party role":   func(j *judgment.Judgment) { j.Parties[1].Role = "appellee" },
		"judges":       func(j *judgment.Judgment) { j.Judges = []string{"AB"} },
		"date":         func(j *judgment.Judgment) { j.DecisionDate = "2020-01-03" },
		"citations":    func(j *judgment.Judgment) { j.Citations = nil },
		"language":     func(j *judgment.Judgment) { j.Language = "hi" },
		"pages":        func(j *judgment.Judgment) { j.PageCount = 4 },
		"text":         func(j *judgment.Judgment) { j.Text += " More." },
		"retrieved at": func(j *judgment.Judgment) { j.RetrievedAt = j.RetrievedAt.Add(time.Millisecond) },
		"text moved":   func(j *judgment.Judgment) { j.Court, j.Bench = "Supreme Court", " of India" },
		"judge moved":  func(j *judgment.Judgment) { j.Judges, j.Citations = []string{"A"}, []string{"B", "(2020) 1 SCC 1"} },
	}
	seen := map[string]string{base.Digest(): "base"}
	for name, change := range changes {
		j := clone()
		change(&j)
		d := j.Digest()
		if other, ok := seen[d]; ok {
			t.Errorf("%s: same digest as %s", name, other)
		}
		if j.Equal(base) || base.Equal(j) {
			t.Errorf("%s: still Equal", name)
		}
		seen[d] = name
	}
}

// TestTokenizeFindsLitigantsInTheText: persons the text names as litigants
// (co-defendants listed after their role, a party firm's partners) are
// tokenized like listed parties, everywhere, with the same tokens and
// vault entries; counsel and judges stay; tokenizing again gives the same.
// The cause and the people are made up.
func TestTokenizeFindsLitigantsInTheText(t *testing.T) {
	key := testKey(t)
	src := judgment.Source{
		Court: "Supreme Court of India", CaseNumber: "Civil Appeal No. 1 of 2018", Title: "Meera Devi v. Anil Kumar and others",
		Parties: []judgment.SourceParty{{Name: "Meera Devi", Role: "appellant"}, {Name: "Anil Kumar", Role: "respondent"}},
		Judges:  []string{"A. Example"}, DecisionDate: "2018-02-16", Language: "en",
		Text: "The land belonged to defendant Nos.2 to 4 (Bishan Lal, Om Lal and Ved Lal). The firm's partners, namely, Mr. Naresh Jindal and " +
			"Mr. Surinder Jindal, signed. Mr. Kapil Rao, learned counsel for the appellant, relied on Ved Lal's letter; Shri A. Example heard it. PAN ABCPK-1234-Z.",
	}
	j, entries, err := judgment.Tokenize(key, src)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Bishan", "Om Lal", "Ved Lal", "Naresh", "Surinder", "ABCPK"} {
		if strings.Contains(j.Text, name) {
			t.Errorf("%q survives: %s", name, j.Text)
		}
	}
	if !strings.Contains(j.Text, "Mr. Kapil Rao, learned counsel") || !strings.Contains(j.Text, "Shri A. Example") {
		t.Errorf("counsel or judge tokenized: %s", j.Text)
	}
	want := map[string]bool{"Meera Devi": true, "Anil Kumar": true, "Bishan Lal": true, "Om Lal": true, "Ved Lal": true, "Naresh Jindal": true, "Surinder Jindal": true, "ABCPK1234Z": true}
	for _, e := range entries {
		if !want[e.Original] || !strings.Contains(j.Text+j.Title, e.Token) {
			t.Errorf("entry %+v", e)
		}
		delete(want, e.Original)
	}
	if len(want) != 0 {
		t.Errorf("no entry for %v", want)
	}
	again, entriesAgain, _ := judgment.Tokenize(key, src)
	if !again.Equal(j) || len(entriesAgain) != len(entries) {
		t.Fatal("tokenizing the same source again gave another judgment")
	}
	if re, more, err := judgment.Retokenize(key, j); err != nil || !re.Equal(j) || len(more) != 0 {
		t.Fatalf("retokenizing a tokenized judgment changed it: %v, %+v", err, more)
	}
}

// TestTokenizeFindsEveryPerson: the families of persons the third
// hardening round found served in clear are tokenized: a minor victim
// named with her age, a minor through his guardian and next friend,
// relatives by kinship phrases, heirs substituted, aliases, witnesses, a
// listed party's name in capitals, re-ordered or by initials, and an
// address after "r/o"; judges and counsel stay. The cause and the people
// are made up.
func TestTokenizeFindsEveryPerson(t *testing.T) {
	src := judgment.Source{
		Court: "High Court of Judicature at Allahabad", CaseNumber: "Criminal Appeal No. 12 of 2020",
		Title:   "Rajesh Kumar Sharma v. State of U.P.",
		Parties: []judgment.SourceParty{{Name: "Rajesh Kumar Sharma", Role: "appellant"}, {Name: "State of U.P.", Role: "respondent"}},
		Judges:  []string{"Anand Prakash Verma"}, DecisionDate: "2020-03-02", Language: "en",
		Text: "Heard Mr. Vikram Seth, learned counsel for the appellant.\n" +
			"The prosecutrix, Kumari Pinki, aged about 14 years, was living with her mother Smt. Rameshwari w/o Late Hariram. " +
			"Master Chhotu, a minor, through his guardian and next friend Bhagwati Prasad, filed the revision. " +
			"Her brother-in-law Suresh Chandra and her husband Mahesh deposed. The respondent No. 3 having died, his son Dinesh was substituted as LRs. " +
			"The accused Raju alias Rambo and Sonu @ Golu were named. PW-2 Kallu stated that the appellant, " +
			"SHARMA RAJESH KUMAR, also called R.K. Sharma, lived r/o House No. 14, Gandhi Nagar, Mohalla Qazi, Bareilly; " +
			"this was confirmed by Ramprasad (PW-4). (Delivered by Anand Prakash Verma, J.)",
	}
	j, _, err := judgment.Tokenize(testKey(t), src)
	if err != nil {
		t.Fatal(err)
	}
	all := j.Title + "\n" + j.Text
	for _, name := range []string{"Pinki", "Rameshwari", "Hariram", "Chhotu", "Bhagwati", "Suresh", "Mahesh", "Dinesh", "Raju", "Rambo",
		"Sonu", "Golu", "Kallu", "SHARMA", "RAJESH", "R.K. Sharma", "Gandhi Nagar", "House No. 14", "Ramprasad"} {
		if strings.Contains(all, name) {
			t.Errorf("%q survives: %s", name, all)
		}
	}
	for _, stays := range []string{"Mr. Vikram Seth, learned counsel", "Anand Prakash Verma, J."} {
		if !strings.Contains(j.Text, stays) {
			t.Errorf("%q was tokenized: %s", stays, j.Text)
		}
	}
	if !strings.Contains(j.Text, "ADR_") {
		t.Errorf("no address token: %s", j.Text)
	}
}

// TestTokenizeReadsHindi: a Hindi passage names persons by its own
// honorifics, kinship, aliases, roles and witness numbers, and an address
// after निवासी; they are tokenized, and counsel stays. The people are made
// up.
func TestTokenizeReadsHindi(t *testing.T) {
	src := judgment.Source{
		Court: "Court of the Additional Sessions Judge, Agra", CaseNumber: "S.T. No. 7 of 2019", Title: "State v. Ramesh",
		Parties: []judgment.SourceParty{{Name: "State", Role: "complainant"}}, DecisionDate: "2019-11-04", Language: "hi",
		Text: "वादिनी श्रीमती सरला देवी पत्नी स्व. महेश चन्द्र निवासी ग्राम भीमपुर, थाना सदर ने तहरीर दी। " +
			"घटना को पप्पू उर्फ़ पवन तथा उसके पुत्र गोलू (उम्र 12 वर्ष) ने देखा था। साक्षी दिनेश कुमार (अ.सा.-2) का परीक्षण हुआ।\n" +
			"बचाव पक्ष की ओर से : श्री अनिल कुमार शर्मा, अधिवक्ता",
	}
	j, _, err := judgment.Tokenize(testKey(t), src)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"सरला", "महेश", "भीमपुर", "पप्पू", "पवन", "गोलू", "दिनेश"} {
		if strings.Contains(j.Text, name) {
			t.Errorf("%q survives: %s", name, j.Text)
		}
	}
	if !strings.Contains(j.Text, "श्री अनिल कुमार शर्मा, अधिवक्ता") {
		t.Errorf("counsel was tokenized: %s", j.Text)
	}
}
