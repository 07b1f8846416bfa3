package indiaexports_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/indiaexports"
	"github.com/quarrydata/quarry/app/indiajudgments"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/domain/table"
)

// TestExportsProbe: the route is available once any exported dataset
// holds data; a failing probe is reported only when none does.
func TestExportsProbe(t *testing.T) {
	held := func(v bool, err error) usecase.Probe { return func(context.Context) (bool, error) { return v, err } }
	failed := errors.New("store down")
	for _, tc := range []struct {
		probes  []usecase.Probe
		want    bool
		wantErr bool
	}{
		{nil, false, false},
		{[]usecase.Probe{held(false, nil), held(false, nil)}, false, false},
		{[]usecase.Probe{held(false, failed), held(true, nil)}, true, false},
		{[]usecase.Probe{held(false, nil), held(false, failed)}, false, true},
	} {
		var ds []usecase.ExportDataset
		for _, p := range tc.probes {
			ds = append(ds, usecase.ExportDataset{Held: p})
		}
		p := indiaexports.Probe(ds)
		got, err := p.Probe(context.Background())
		if p.Dataset != dataset.IndiaExports || got != tc.want || (err != nil) != tc.wantErr || tc.wantErr && !errors.Is(err, failed) {
			t.Errorf("%d probes: %v, %v; want %v, error %v", len(tc.probes), got, err, tc.want, tc.wantErr)
		}
	}
}

var exportAt = time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC)

// TestJudgmentsExportRows: a judgment's metadata as a row, party tokens
// with their roles, unknown bench and page count null, and no text.
func TestJudgmentsExportRows(t *testing.T) {
	store := memory.NewJudgments()
	j := judgment.Judgment{ID: judgment.NewID("Supreme Court of India", "Civil Appeal No. 2244 of 2018", "2018-02-16"), Court: "Supreme Court of India",
		CaseNumber: "Civil Appeal No. 2244 of 2018", Title: "PTY_A v PTY_B", Parties: []judgment.Party{{Token: "PTY_A", Role: "appellant"}, {Token: "PTY_B", Role: "respondent"}},
		Judges: []string{"Madan B. Lokur", "Deepak Gupta"}, DecisionDate: "2018-02-16", Language: "en", Text: "1. Leave granted."}
	if _, err := store.UpsertJudgments(context.Background(), []judgment.Judgment{j}); err != nil {
		t.Fatal(err)
	}
	u := indiajudgments.New(store, nil, nil, func() time.Time { return exportAt })
	ds := u.ExportDataset()
	plan, err := ds.Plan(map[string]string{"court": " supreme   court of india", "decided_to": "2018-02-16"})
	if err != nil {
		t.Fatal(err)
	}
	ex, err := plan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if ex.Stem != "india_judgments_supreme_court_of_india_all_2018-02-16" || !ex.AsOf.Equal(exportAt) {
		t.Fatalf("stem %q, as_of %v", ex.Stem, ex.AsOf)
	}
	var rows []table.Row
	for r, err := range ex.Source.Rows(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, append(table.Row(nil), r...))
	}
	day, _ := table.ParseDay("2018-02-16")
	want := table.Row{{Str: j.ID}, {Str: "Supreme Court of India"}, {Null: true}, {Str: j.CaseNumber}, {Str: "PTY_A v PTY_B"},
		{Str: "PTY_A (appellant); PTY_B (respondent)"}, {Str: "Madan B. Lokur; Deepak Gupta"}, {Day: day}, {Str: ""}, {Str: "en"}, {Null: true}}
	if len(rows) != 1 || len(rows[0]) != len(ex.Source.Columns()) {
		t.Fatalf("rows %v", rows)
	}
	for i, v := range want {
		if rows[0][i] != v {
			t.Errorf("%s = %+v, want %+v", ex.Source.Columns()[i].Name, rows[0][i], v)
		}
	}
	for _, f := range []map[string]string{{"decided_from": "2018-02-30"}, {"decided_from": "2018-02-17", "decided_to": "2018-02-16"}} {
		if _, err := ds.Plan(f); !errors.Is(err, usecase.ErrValidation) && !errors.Is(err, usecase.ErrInvalidRequest) {
			t.Errorf("%v: %v", f, err)
		}
	}
}
