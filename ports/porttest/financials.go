package porttest

import (
	"context"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/quarrydata/quarry/domain/financials"
	"github.com/quarrydata/quarry/ports"
)

// NewFinancialsStore returns an empty FinancialsStore for one test.
type NewFinancialsStore func(t *testing.T) ports.FinancialsStore

// RunFinancials is the contract of FinancialsStore.
func RunFinancials(t *testing.T, newStore NewFinancialsStore) {
	ctx := context.Background()
	retrieved := t0.Truncate(time.Millisecond)
	nvda := financials.Company{
		CIK: "0001045810", Tickers: []string{"NVDA"}, Name: "NVIDIA CORP", RetrievedAt: retrieved,
		Facts: []financials.Fact{
			{Concept: "EarningsPerShareDiluted", Unit: "USD/shares", Start: "2023-01-30", End: "2024-01-28", Value: 11.93,
				Accession: "0001045810-24-000029", FiscalYear: 2024, FiscalPeriod: "FY", Form: "10-K", Filed: "2024-02-21"},
			{Concept: "EarningsPerShareDiluted", Unit: "USD/shares", Start: "2023-01-30", End: "2024-01-28", Value: 1.19,
				Accession: "0001045810-25-000023", FiscalYear: 2025, FiscalPeriod: "FY", Form: "10-K", Filed: "2025-02-26"},
			{Concept: "Assets", Unit: "USD", End: "2025-01-26", Value: 111601000000,
				Accession: "0001045810-25-000023", FiscalYear: 2025, FiscalPeriod: "FY", Form: "10-K", Filed: "2025-02-26"},
		},
	}
	alphabet := financials.Company{CIK: "0001652044", Tickers: []string{"GOOGL", "GOOG"}, Name: "Alphabet Inc.", RetrievedAt: retrieved}
	t.Run("empty store", func(t *testing.T) {
		s := newStore(t)
		n, err := s.CountCompanies(ctx)
		must(t, "CountCompanies", err)
		if n != 0 {
			t.Fatalf("count = %d, want 0", n)
		}
		_, err = s.Company(ctx, nvda.CIK)
		wantErr(t, "Company", err, ports.ErrNotFound)
		_, err = s.CIKForTicker(ctx, "NVDA")
		wantErr(t, "CIKForTicker", err, ports.ErrNotFound)
	})
	t.Run("upsert is idempotent and keeps every fact and ticker", func(t *testing.T) {
		s := newStore(t)
		must(t, "Upsert", s.UpsertCompanies(ctx, []financials.Company{nvda, alphabet}))
		must(t, "Upsert again", s.UpsertCompanies(ctx, []financials.Company{nvda, alphabet}))
		n, err := s.CountCompanies(ctx)
		must(t, "CountCompanies", err)
		if n != 2 {
			t.Fatalf("count = %d, want 2", n)
		}
		got, err := s.Company(ctx, nvda.CIK)
		must(t, "Company", err)
		if !reflect.DeepEqual(got, nvda) {
			t.Fatalf("Company = %+v, want %+v", got, nvda)
		}
		for _, ticker := range []string{"GOOGL", "GOOG"} {
			cik, err := s.CIKForTicker(ctx, ticker)
			must(t, "CIKForTicker "+ticker, err)
			if cik != alphabet.CIK {
				t.Fatalf("CIKForTicker(%s) = %s", ticker, cik)
			}
		}
	})
	t.Run("companies are found by name or its first words", func(t *testing.T) {
		s := newStore(t)
		alphaOther := financials.Company{CIK: "0000008670", Tickers: []string{"ADP"}, Name: "AUTOMATIC DATA PROCESSING INC", RetrievedAt: retrieved}
		must(t, "Upsert", s.UpsertCompanies(ctx, []financials.Company{nvda, alphabet, alphaOther}))
		for asked, want := range map[string][]string{
			"Nvidia": {nvda.CIK}, "NVIDIA Corp.": {nvda.CIK}, "alphabet inc": {alphabet.CIK},
			"Automatic Data": {alphaOther.CIK}, "Alpha": {}, "Inc": {}, "": {}, "nvidia corporation": {},
		} {
			got, err := s.CIKsForName(ctx, asked)
			must(t, "CIKsForName "+asked, err)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("CIKsForName(%q) = %v, want %v", asked, got, want)
			}
		}
	})
	t.Run("upsert replaces a company by CIK", func(t *testing.T) {
		s := newStore(t)
		must(t, "Upsert", s.UpsertCompanies(ctx, []financials.Company{nvda}))
		newer := nvda
		newer.Facts = nvda.Facts[:1]
		newer.RetrievedAt = retrieved.Add(24 * time.Hour)
		must(t, "Upsert newer", s.UpsertCompanies(ctx, []financials.Company{newer}))
		got, err := s.Company(ctx, nvda.CIK)
		must(t, "Company", err)
		if !reflect.DeepEqual(got, newer) {
			t.Fatalf("after replace = %+v, want %+v", got, newer)
		}
		renamed := newer
		renamed.Name = "NVIDIA CORPORATION"
		must(t, "Upsert renamed", s.UpsertCompanies(ctx, []financials.Company{renamed}))
		for asked, want := range map[string][]string{"nvidia corporation": {nvda.CIK}, "nvidia corp": {}} {
			ciks, err := s.CIKsForName(ctx, asked)
			must(t, "CIKsForName", err)
			if !reflect.DeepEqual(ciks, want) {
				t.Fatalf("after the rename CIKsForName(%q) = %v, want %v", asked, ciks, want)
			}
		}
	})
	t.Run("latest statements are what the facts give from the latest filing on", func(t *testing.T) {
		s := newStore(t)
		_, _, err := s.LatestStatement(ctx, nvda.CIK, financials.Income, financials.Annual)
		wantErr(t, "LatestStatement of no company", err, ports.ErrNotFound)
		must(t, "Upsert", s.UpsertCompanies(ctx, []financials.Company{nvda}))
		wantLatest(t, s, nvda, "2025-02-26")
		older := nvda
		older.Facts = nvda.Facts[:1]
		must(t, "Upsert older facts", s.UpsertCompanies(ctx, []financials.Company{older}))
		wantLatest(t, s, older, "2024-02-21")
	})
	t.Run("statement histories give what the facts give at every filing date", func(t *testing.T) {
		s := newStore(t)
		_, _, err := s.StatementHistory(ctx, nvda.CIK, financials.Income, financials.Annual)
		wantErr(t, "StatementHistory of no company", err, ports.ErrNotFound)
		quarters := nvda
		quarters.Facts = append(slices.Clone(nvda.Facts),
			financials.Fact{Concept: "Revenues", Unit: "USD", Start: "2024-01-29", End: "2024-04-28", Value: 26044000000,
				Accession: "0001045810-24-000124", FiscalYear: 2025, FiscalPeriod: "Q1", Form: "10-Q", Filed: "2024-05-29"},
			financials.Fact{Concept: "Revenues", Unit: "USD", Start: "2024-01-29", End: "2025-01-26", Value: 130497000000,
				Accession: "0001045810-25-000023", FiscalYear: 2025, FiscalPeriod: "FY", Form: "10-K", Filed: "2025-02-26"})
		must(t, "Upsert", s.UpsertCompanies(ctx, []financials.Company{quarters}))
		wantHistories(t, s, quarters)
		older := nvda
		older.Facts = nvda.Facts[:1]
		must(t, "Upsert older facts", s.UpsertCompanies(ctx, []financials.Company{older}))
		wantHistories(t, s, older)
	})
	t.Run("search", func(t *testing.T) { runCompanySearch(t, newStore, nvda) })
}

// wantHistories checks every statement and period kind StatementHistory
// gives for c against the rows financials.Build gives before the first
// filing, at the end of each filing date, and a century on.
func wantHistories(t *testing.T, s ports.FinancialsStore, c financials.Company) {
	t.Helper()
	instants := []time.Time{t0.AddDate(-30, 0, 0), t0.AddDate(100, 0, 0)}
	for _, f := range c.Facts {
		known, err := financials.KnownFrom(f.Filed)
		must(t, "KnownFrom", err)
		instants = append(instants, known, known.Add(-time.Microsecond))
	}
	for _, st := range financials.Statements {
		for _, p := range financials.Periods {
			got, h, err := s.StatementHistory(context.Background(), c.CIK, st, p)
			must(t, "StatementHistory", err)
			wantFactless(t, "StatementHistory", got, c)
			if h.Statement != st || h.Period != p || h.Through != financials.LastFiled(c.Facts) {
				t.Fatalf("StatementHistory(%s, %s) = %+v, want through %s", st, p, h, financials.LastFiled(c.Facts))
			}
			for _, asOf := range instants {
				rows, at := financials.Build(c, st, p, asOf), h.At(asOf)
				if len(at) != len(rows) || (len(rows) > 0 && !reflect.DeepEqual(at, rows)) {
					t.Fatalf("StatementHistory(%s, %s) at %s = %+v, want %+v", st, p, asOf, at, rows)
				}
			}
		}
	}
}

// wantLatest checks every statement and period kind LatestStatement gives
// for c against the rows financials.Build gives a century on.
func wantLatest(t *testing.T, s ports.FinancialsStore, c financials.Company, through string) {
	t.Helper()
	later := t0.AddDate(100, 0, 0)
	for _, st := range financials.Statements {
		for _, p := range financials.Periods {
			got, l, err := s.LatestStatement(context.Background(), c.CIK, st, p)
			must(t, "LatestStatement", err)
			wantFactless(t, "LatestStatement", got, c)
			rows := financials.Build(c, st, p, later)
			if l.Statement != st || l.Period != p || l.Through != through || len(l.Rows) != len(rows) || (len(rows) > 0 && !reflect.DeepEqual(l.Rows, rows)) {
				t.Fatalf("LatestStatement(%s, %s) = %+v, want through %s and %+v", st, p, l, through, rows)
			}
		}
	}
}

// wantFactless checks that a statement was read with its company, c
// without its facts.
func wantFactless(t *testing.T, what string, got, c financials.Company) {
	t.Helper()
	c.Facts = nil
	if !reflect.DeepEqual(got, c) {
		t.Fatalf("%s's company = %+v, want %+v", what, got, c)
	}
}
