package ingest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/domain/pii"
	"github.com/quarrydata/quarry/ingest"
)

// TestRetokenizeJudgmentsBringsTheStoreUpToTheRules: a judgment stored
// by earlier rules, its listed party a token but a minor victim, her
// mother, an address and a disguised PAN in clear, is rewritten with
// every one of them a token, the new tokens' entries in the vault before
// it; a judgment already up to the rules is left alone, and a second run
// changes nothing. The cause and the people are made up.
func TestRetokenizeJudgmentsBringsTheStoreUpToTheRules(t *testing.T) {
	ctx := context.Background()
	key, err := pii.NewKey([]byte(strings.Repeat("r", pii.MinKeyBytes)))
	if err != nil {
		t.Fatal(err)
	}
	party, _ := key.Token(pii.KindParty, "Ramesh Yadav")
	old := judgment.Judgment{
		ID: "inj_aaaaaaaaaaaaaaaa", Court: "Sessions Court, Bareilly", CaseNumber: "S.T. No. 4 of 2021", Title: party + " v. State",
		Parties: []judgment.Party{{Token: party, Role: "accused"}}, DecisionDate: "2021-05-04", Language: "en",
		Text: "The prosecutrix Kumari Pinki, aged 13 years, and her mother Smt. Rameshwari, r/o House No. 7, Qazi Tola, Bareilly, deposed. " +
			"The accused " + party + " gave his PAN as ΑΒCPΥ 1234 Κ.", RetrievedAt: time.Date(2021, 5, 5, 0, 0, 0, 0, time.UTC),
	}
	clean := old
	clean.ID, clean.Text = "inj_bbbbbbbbbbbbbbbb", "The appeal is dismissed."
	store, vault := memory.NewJudgments(), memory.NewVault()
	if _, err := store.UpsertJudgments(ctx, []judgment.Judgment{old, clean}); err != nil {
		t.Fatal(err)
	}
	got, err := ingest.RetokenizeJudgments(ctx, key, store, vault)
	if err != nil {
		t.Fatal(err)
	}
	if got.Read != 2 || got.Records != 1 || got.Tokens < 4 {
		t.Fatalf("counts %+v, want 2 read, 1 changed, 4 tokens or more", got)
	}
	j, err := store.Judgment(ctx, old.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, clear := range []string{"Pinki", "Rameshwari", "Qazi Tola", "1234"} {
		if strings.Contains(j.Text, clear) {
			t.Errorf("%q survives: %s", clear, j.Text)
		}
	}
	for _, tok := range strings.Fields(strings.NewReplacer(",", " ", ".", " ").Replace(j.Text)) {
		if pii.IsToken(tok) && tok != party {
			if _, err := vault.Reveal(ctx, tok); err != nil {
				t.Errorf("%s: not in the vault: %v", tok, err)
			}
		}
	}
	again, err := ingest.RetokenizeJudgments(ctx, key, store, vault)
	if err != nil || again.Records != 0 {
		t.Fatalf("a second run: %+v, %v; want nothing changed", again, err)
	}
}
