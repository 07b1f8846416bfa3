package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/domain/pii"
)

// TestTokenSpans: the runs of an earlier text that a tokenized copy holds
// as tokens are found, and a copy that differs otherwise is refused.
func TestTokenSpans(t *testing.T) {
	earlier := "PTY_AAAAAAAAAAAAAAAA v. State\n\nIndira Banerjee, J.\n\nheard Ramesh Kumar and Suresh"
	tokenized := "PTY_AAAAAAAAAAAAAAAA v. State\n\nPTY_BBBBBBBBBBBBBBBB Banerjee, J.\n\nheard PTY_CCCCCCCCCCCCCCCC and PTY_DDDDDDDDDDDDDDDD"
	got, err := tokenSpans(tokenized, earlier)
	if err != nil {
		t.Fatal(err)
	}
	var originals []string
	for _, s := range got {
		originals = append(originals, earlier[s.start:s.end]+"="+s.token[:5])
	}
	want := []string{"Indira=PTY_B", "Ramesh Kumar=PTY_C", "Suresh=PTY_D"}
	if !slices.Equal(originals, want) {
		t.Errorf("spans %q, want %q", originals, want)
	}
	if _, err := tokenSpans(strings.Replace(tokenized, "State", "Union", 1), earlier); err == nil {
		t.Error("a copy that differs from the earlier text was aligned")
	}
}

// TestRebuild: a judgment rebuilt from its earlier form by the current
// rules has a judge's name that a later form tokenized in clear again, and
// keeps the later form's token for a litigant both tokenize.
func TestRebuild(t *testing.T) {
	key, err := pii.NewKey([]byte(strings.Repeat("s", pii.MinKeyBytes)))
	if err != nil {
		t.Fatal(err)
	}
	earlier := judgment.Judgment{
		ID: "inj_aaaaaaaaaaaaaaaa", Court: "Supreme Court of India", CaseNumber: "Civil Appeal No. 1 of 2021",
		Title: "PTY_AAAAAAAAAAAAAAAA v PTY_EEEEEEEEEEEEEEEE", Judges: []string{"Indira Banerjee"},
		DecisionDate: "2021-09-14", Language: "en",
		Text: "Indira Banerjee, J.\n\nThe appellant's brother Harcharan Singh Dhillon deposed.",
	}
	shipped := earlier
	shipped.Judges = []string{"PTY_BBBBBBBBBBBBBBBB Banerjee"}
	shipped.Text = "PTY_BBBBBBBBBBBBBBBB Banerjee, J.\n\nThe appellant's brother PTY_CCCCCCCCCCCCCCCC deposed."
	got, err := rebuild(key, shipped, earlier)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Indira Banerjee, J.\n\nThe appellant's brother PTY_CCCCCCCCCCCCCCCC deposed."; got.Text != want {
		t.Errorf("text %q, want %q", got.Text, want)
	}
	if !slices.Equal(got.Judges, earlier.Judges) {
		t.Errorf("judges %q, want %q", got.Judges, earlier.Judges)
	}
}
