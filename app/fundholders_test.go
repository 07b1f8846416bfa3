package app_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app"
	"github.com/quarrydata/quarry/domain/holdings"
	"github.com/quarrydata/quarry/ports"
)

func ptr(s string) *string { return &s }

func TestParseFundHoldersRequest(t *testing.T) {
	now := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		name string
		p    app.FundHoldersParams
		want error
	}{
		{"identifier", app.FundHoldersParams{Identifier: ptr("AAPL")}, nil},
		{"accession alone", app.FundHoldersParams{Accession: ptr("000181661621000007")}, nil},
		{"neither", app.FundHoldersParams{StartDate: ptr("2024-01-01")}, app.ErrInvalidRequest},
		{"start after end", app.FundHoldersParams{Identifier: ptr("AAPL"), StartDate: ptr("2024-02-01"), EndDate: ptr("2024-01-01")}, app.ErrInvalidRequest},
		{"malformed before combination", app.FundHoldersParams{StartDate: ptr("2024-02-30")}, app.ErrValidation},
		{"empty identifier", app.FundHoldersParams{Identifier: ptr("")}, app.ErrValidation},
		{"bad accession", app.FundHoldersParams{Identifier: ptr("AAPL"), Accession: ptr("1-2-3")}, app.ErrValidation},
		{"bad as_of", app.FundHoldersParams{Identifier: ptr("AAPL"), AsOf: ptr("soon")}, app.ErrValidation},
	}
	for _, tc := range cases {
		_, err := app.ParseFundHoldersRequest(tc.p, now)
		if !errors.Is(err, tc.want) || (tc.want == nil && err != nil) {
			t.Errorf("%s: err = %v, want %v", tc.name, err, tc.want)
		}
	}
}

func TestFundHoldersResolve(t *testing.T) {
	ctx := context.Background()
	store := memory.NewFundHoldings()
	apple := holdings.Security{Ticker: "AAPL", CIK: "0000320193", CUSIP: "037833100", Name: "Apple Inc."}
	if err := store.UpsertMasterSecurities(ctx, []holdings.Security{apple}); err != nil {
		t.Fatal(err)
	}
	row := func(acc, cusip string) holdings.Holding {
		return holdings.Holding{Accession: acc, Row: 1, FundCIK: "0000000001", ReportPeriod: "2023-12-31", FilingDate: "2024-02-14", CUSIP: cusip, Value: 1}
	}
	single := holdings.Filing{Accession: "0000000001-24-000001", Holdings: []holdings.Holding{row("0000000001-24-000001", "037833100")}}
	several := holdings.Filing{Accession: "0000000001-24-000002", Holdings: []holdings.Holding{
		row("0000000001-24-000002", "037833100"), row("0000000001-24-000002", "594918104")}}
	if err := store.ReplaceThirteenFFilings(ctx, []holdings.Filing{single, several}); err != nil {
		t.Fatal(err)
	}
	f := app.NewFundHolders(store)
	query := func(identifier, acc string) error {
		p := app.FundHoldersParams{Limit: 10}
		if identifier != "" {
			p.Identifier = &identifier
		}
		if acc != "" {
			p.Accession = &acc
		}
		req, err := app.ParseFundHoldersRequest(p, time.Now())
		if err != nil {
			return err
		}
		page, err := f.Holders(ctx, req)
		if err == nil && page.Security != apple {
			t.Errorf("%s/%s resolved %+v", identifier, acc, page.Security)
		}
		return err
	}
	cases := []struct {
		identifier, acc string
		want            error
	}{
		{"AAPL", "", nil},
		{"037833100", "", nil},
		{"320193", "", nil},
		{"", single.Accession, nil},
		{"", several.Accession, app.ErrInvalidRequest},
		{"AAPL", several.Accession, nil},
		{"MSFT", "", ports.ErrNotFound},
		{"AAPL", "0000000009-24-000001", ports.ErrNotFound},
		{"", "0000000009-24-000001", ports.ErrNotFound},
	}
	for _, tc := range cases {
		if err := query(tc.identifier, tc.acc); !errors.Is(err, tc.want) || (tc.want == nil && err != nil) {
			t.Errorf("%q/%q: err = %v, want %v", tc.identifier, tc.acc, err, tc.want)
		}
	}
}
