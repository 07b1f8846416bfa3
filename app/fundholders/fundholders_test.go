package fundholders_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/fundholders"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/holdings"
	"github.com/quarrydata/quarry/ports"
)

func ptr(s string) *string { return &s }

func TestParseFundHoldersRequest(t *testing.T) {
	now := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		name string
		p    fundholders.Params
		want error
	}{
		{"identifier", fundholders.Params{Identifier: ptr("AAPL")}, nil},
		{"accession alone", fundholders.Params{Accession: ptr("000181661621000007")}, nil},
		{"neither", fundholders.Params{StartDate: ptr("2024-01-01")}, usecase.ErrInvalidRequest},
		{"start after end", fundholders.Params{Identifier: ptr("AAPL"), StartDate: ptr("2024-02-01"), EndDate: ptr("2024-01-01")}, usecase.ErrInvalidRequest},
		{"malformed before combination", fundholders.Params{StartDate: ptr("2024-02-30")}, usecase.ErrValidation},
		{"empty identifier", fundholders.Params{Identifier: ptr("")}, usecase.ErrValidation},
		{"bad accession", fundholders.Params{Identifier: ptr("AAPL"), Accession: ptr("1-2-3")}, usecase.ErrValidation},
		{"bad as_of", fundholders.Params{Identifier: ptr("AAPL"), AsOf: ptr("soon")}, usecase.ErrValidation},
	}
	for _, tc := range cases {
		_, err := fundholders.ParseRequest(tc.p, now)
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
	f := fundholders.New(store)
	query := func(identifier, acc string) error {
		p := fundholders.Params{Limit: 10}
		if identifier != "" {
			p.Identifier = &identifier
		}
		if acc != "" {
			p.Accession = &acc
		}
		req, err := fundholders.ParseRequest(p, time.Now())
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
		{"", several.Accession, usecase.ErrInvalidRequest},
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
