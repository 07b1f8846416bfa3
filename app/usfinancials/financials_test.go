package usfinancials_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/companyfacts"
	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/app/usfinancials"
	"github.com/quarrydata/quarry/domain/financials"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/sampledata"
)

// sampleCompanies reads the bundled companyfacts sample.
func sampleCompanies(t testing.TB) []financials.Company {
	t.Helper()
	entries, err := fs.ReadDir(sampledata.USFinancials, sampledata.USFinancialsDir)
	if err != nil {
		t.Fatal(err)
	}
	var files []companyfacts.File
	for _, e := range entries {
		raw, err := fs.ReadFile(sampledata.USFinancials, path.Join(sampledata.USFinancialsDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, companyfacts.File{Name: e.Name(), Body: bytes.NewReader(raw)})
	}
	companies, err := companyfacts.Read(files)
	if err != nil {
		t.Fatal(err)
	}
	return companies
}

func newFinancials(t testing.TB) (*usfinancials.Service, ports.FinancialsStore) {
	t.Helper()
	store := memory.NewFinancials()
	now := func() time.Time { return time.Date(2026, 7, 20, 0, 0, 0, 0, time.UTC) }
	shared, err := readcache.New(64<<20, time.Hour, now)
	if err != nil {
		t.Fatal(err)
	}
	fin := usfinancials.New(store, now, shared)
	if _, err := fin.Ingest(context.Background(), sampleCompanies(t)); err != nil {
		t.Fatal(err)
	}
	return fin, store
}

func TestStatementsAsOfARestatement(t *testing.T) {
	fin, _ := newFinancials(t)
	for asOf, want := range map[string]float64{"2025-02-25": 11.93, "2025-02-26": 1.19, "": 1.19} {
		q, err := fin.Query(usfinancials.Params{Ticker: "nvda", AsOf: asOf, ReportLte: "2024-01-28", Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		st, err := fin.Statements(context.Background(), q, financials.Income)
		if err != nil {
			t.Fatal(err)
		}
		rows := st.Pages[financials.Income].Rows
		if len(rows) != 1 || rows[0].Values["earnings_per_share_diluted"] != want {
			t.Fatalf("as_of %q: %+v, want diluted EPS %v", asOf, rows, want)
		}
	}
}

func TestStatementsQueryErrors(t *testing.T) {
	fin, _ := newFinancials(t)
	cases := map[string]struct {
		p    usfinancials.Params
		want error
	}{
		"neither":        {usfinancials.Params{}, usecase.ErrInvalidRequest},
		"both":           {usfinancials.Params{Ticker: "AAPL", CIK: "320193"}, usecase.ErrInvalidRequest},
		"bad ticker":     {usfinancials.Params{Ticker: "AA PL"}, usecase.ErrValidation},
		"bad cik":        {usfinancials.Params{CIK: "12x"}, usecase.ErrValidation},
		"bad period":     {usfinancials.Params{Ticker: "AAPL", Period: "monthly"}, usecase.ErrValidation},
		"period case":    {usfinancials.Params{Ticker: "AAPL", Period: "TTM"}, usecase.ErrValidation},
		"bad as_of":      {usfinancials.Params{Ticker: "AAPL", AsOf: "yesterday"}, usecase.ErrValidation},
		"bad date bound": {usfinancials.Params{Ticker: "AAPL", ReportGt: "2024-02-30"}, usecase.ErrValidation},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := fin.Query(c.p); !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
		})
	}
	for _, p := range []usfinancials.Params{{Ticker: "ZZZZ", Limit: 4}, {CIK: "1", Limit: 4}} {
		q, err := fin.Query(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fin.Statements(context.Background(), q, financials.Income); !errors.Is(err, ports.ErrNotFound) {
			t.Fatalf("%+v: err = %v, want not found", p, err)
		}
	}
}

func TestStatementsPagesAndBounds(t *testing.T) {
	fin, _ := newFinancials(t)
	q, err := fin.Query(usfinancials.Params{CIK: "320193", Limit: 2, Offset: 1, ReportGt: "2022-09-24"})
	if err != nil {
		t.Fatal(err)
	}
	st, err := fin.Statements(context.Background(), q, financials.Income, financials.Balance)
	if err != nil {
		t.Fatal(err)
	}
	inc := st.Pages[financials.Income]
	if inc.Total != 2 || len(inc.Rows) != 1 || inc.Rows[0].End != "2023-09-30" {
		t.Fatalf("income page = %+v", inc)
	}
	if st.Ticker != "AAPL" || st.CIK != "0000320193" {
		t.Fatalf("company = %s %s", st.Ticker, st.CIK)
	}
}

func TestStatementsTTMOfTheSample(t *testing.T) {
	fin, _ := newFinancials(t)
	// NVIDIA: FY2024 + Q1 FY2025 - Q1 FY2024. The FY2025 10-K repeats the
	// FY2024 figures, so from its filing date on it is the newest filing
	// contributing to the Q1 FY2025 ttm row.
	cases := []struct {
		asOf      string
		total     int
		accession string
	}{
		{"2024-06-01", 3, "0001045810-24-000124"},
		{"", 4, "0001045810-25-000023"},
	}
	for _, c := range cases {
		q, err := fin.Query(usfinancials.Params{Ticker: "NVDA", Period: "ttm", AsOf: c.asOf, ReportLte: "2024-04-28", ReportGte: "2024-04-28", Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		st, err := fin.Statements(context.Background(), q, financials.Income)
		if err != nil {
			t.Fatal(err)
		}
		rows := st.Pages[financials.Income].Rows
		if len(rows) != 1 {
			t.Fatalf("as of %q: rows = %+v", c.asOf, rows)
		}
		r := rows[0]
		want := map[string]float64{"revenue": 79774e6, "cost_of_revenue": 19715e6, "gross_profit": 60059e6, "operating_income": 47741e6}
		if len(r.Values) != len(want) || r.FiscalPeriod != "TTM" || r.FiscalYear != 2025 || r.Accession != c.accession {
			t.Fatalf("as of %q: %+v", c.asOf, r)
		}
		for field, v := range want {
			if r.Values[field] != v {
				t.Errorf("as of %q: %s = %v, want %v", c.asOf, field, r.Values[field], v)
			}
		}
		q.Gte, q.Lte = "", ""
		if st, _ = fin.Statements(context.Background(), q, financials.Income); st.Pages[financials.Income].Total != c.total {
			t.Errorf("as of %q: %d ttm rows, want %d", c.asOf, st.Pages[financials.Income].Total, c.total)
		}
	}
}

func TestIngestIsIdempotent(t *testing.T) {
	fin, store := newFinancials(t)
	before, _ := store.Company(context.Background(), "0001045810")
	if _, err := fin.Ingest(context.Background(), sampleCompanies(t)); err != nil {
		t.Fatal(err)
	}
	after, _ := store.Company(context.Background(), "0001045810")
	if len(before.Facts) != len(after.Facts) {
		t.Fatalf("facts %d then %d", len(before.Facts), len(after.Facts))
	}
	if n, _ := store.CountCompanies(context.Background()); n != 3 {
		t.Fatalf("count = %d, want 3", n)
	}
}

// BenchmarkStatements builds the three annual statements of Apple from the
// bundled sample, as GET /us/financials?ticker=AAPL does.
func BenchmarkStatements(b *testing.B) {
	fin, _ := newFinancials(b)
	q, err := fin.Query(usfinancials.Params{Ticker: "AAPL"})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for b.Loop() {
		if _, err := fin.Statements(ctx, q, financials.Income, financials.Balance, financials.CashFlow); err != nil {
			b.Fatal(err)
		}
	}
}

// batchStore records the size of every write.
type batchStore struct {
	*memory.Financials
	batches []int
}

func (s *batchStore) UpsertCompanies(ctx context.Context, cs []financials.Company) error {
	s.batches = append(s.batches, len(cs))
	return s.Financials.UpsertCompanies(ctx, cs)
}

// TestIngestEachWritesInBatchesAndStopsAtTheFirstError: companies are
// written IngestBatch at a time, and an error ends the run after the
// companies before it are written.
func TestIngestEachWritesInBatchesAndStopsAtTheFirstError(t *testing.T) {
	sample := sampleCompanies(t)
	companies := func(n int, failAt int) func(func(financials.Company, error) bool) {
		return func(yield func(financials.Company, error) bool) {
			for i := range n {
				if i == failAt {
					yield(financials.Company{}, errors.New("bad file"))
					return
				}
				c := sample[i%len(sample)]
				c.CIK = fmt.Sprintf("%010d", 9_000_000_001+i)
				if !yield(c, nil) {
					return
				}
			}
		}
	}
	s := &batchStore{Financials: memory.NewFinancials()}
	fin := usfinancials.New(s, time.Now, nil)
	n, err := fin.IngestEach(context.Background(), companies(150, -1))
	if err != nil || n != 150 || !slices.Equal(s.batches, []int{64, 64, 22}) {
		t.Fatalf("%d written, batches %v, %v", n, s.batches, err)
	}
	s = &batchStore{Financials: memory.NewFinancials()}
	fin = usfinancials.New(s, time.Now, nil)
	n, err = fin.IngestEach(context.Background(), companies(150, 70))
	if err == nil || n != 70 || !slices.Equal(s.batches, []int{64, 6}) {
		t.Fatalf("%d written, batches %v, %v", n, s.batches, err)
	}
	if count, _ := s.CountCompanies(context.Background()); count != 70 {
		t.Fatalf("%d stored, want the 70 before the error", count)
	}
}

// TestIngestEachBoundsABatchByBytes: companies as heavy as real filers
// are written a few at a time, not IngestBatch at a time.
func TestIngestEachBoundsABatchByBytes(t *testing.T) {
	heavy := sampleCompanies(t)[0]
	for len(heavy.Facts) < 30_000 {
		heavy.Facts = append(heavy.Facts, heavy.Facts...)
	}
	s := &batchStore{Financials: memory.NewFinancials()}
	fin := usfinancials.New(s, time.Now, nil)
	n, err := fin.IngestEach(context.Background(), func(yield func(financials.Company, error) bool) {
		for i := range 10 {
			c := heavy
			c.CIK = fmt.Sprintf("%010d", 9_000_000_001+i)
			if !yield(c, nil) {
				return
			}
		}
	})
	if err != nil || n != 10 || len(s.batches) < 3 || slices.Max(s.batches) >= usfinancials.IngestBatch {
		t.Fatalf("%d written, batches %v, %v", n, s.batches, err)
	}
	t.Logf("batches of companies with %d facts: %v", len(heavy.Facts), s.batches)
}

// TestStatementsFollowAReingestedCompany asks twice on one day, with the
// company ingested again in between with one figure changed: the second
// answer is built from the new facts, not kept from the first.
func TestStatementsFollowAReingestedCompany(t *testing.T) {
	fin, store := newFinancials(t)
	ctx := context.Background()
	q, err := fin.Query(usfinancials.Params{Ticker: "aapl", Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	revenue := func() float64 {
		st, err := fin.Statements(ctx, q, financials.Income)
		if err != nil {
			t.Fatal(err)
		}
		return st.Pages[financials.Income].Rows[0].Values["revenue"]
	}
	before := revenue()
	if again := revenue(); again != before {
		t.Fatalf("the same question answered %v, then %v", before, again)
	}
	cik, err := store.CIKForTicker(ctx, "AAPL")
	if err != nil {
		t.Fatal(err)
	}
	c, err := store.Company(ctx, cik)
	if err != nil {
		t.Fatal(err)
	}
	changed := 0
	for i, f := range c.Facts {
		if f.Value == before {
			c.Facts[i].Value = before + 1
			changed++
		}
	}
	if changed == 0 {
		t.Fatalf("no fact of %v among AAPL's facts", before)
	}
	if _, err := fin.Ingest(ctx, []financials.Company{c}); err != nil {
		t.Fatal(err)
	}
	if after := revenue(); after != before+1 {
		t.Errorf("revenue after the company was ingested again: %v, want %v", after, before+1)
	}
}

// factless is a store whose Company fails, to show which requests read no
// company facts.
type factless struct{ ports.FinancialsStore }

func (factless) Company(context.Context, string) (financials.Company, error) {
	return financials.Company{}, errors.New("the company's facts were read")
}

// A request reads the statements stored as known from the latest filing
// date, or, for an earlier as_of, their histories, never the company's
// facts, and gets the same pages as from the facts.
func TestStatementsReadNoFacts(t *testing.T) {
	fin, store := newFinancials(t)
	now := func() time.Time { return time.Date(2026, 7, 20, 0, 0, 0, 0, time.UTC) }
	noFacts := usfinancials.New(factless{store}, now, nil)
	kinds := []financials.Statement{financials.Income, financials.Balance, financials.CashFlow}
	for _, asOf := range []string{"", "2024-11-01", "2020-01-01", "2012-06-30"} {
		for _, period := range []string{"annual", "quarterly", "ttm"} {
			q, err := fin.Query(usfinancials.Params{Ticker: "AAPL", Period: period, Limit: 5, Offset: 1, ReportGte: "2010-01-01", AsOf: asOf})
			if err != nil {
				t.Fatal(err)
			}
			got, err := noFacts.Statements(context.Background(), q, kinds...)
			if err != nil {
				t.Fatalf("as of %q: %v", asOf, err)
			}
			c, err := store.Company(context.Background(), got.CIK)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range kinds {
				rows := financials.Build(c, k, q.Period, q.AsOf)
				rows = slices.DeleteFunc(rows, func(r financials.Row) bool { return r.End < "2010-01-01" })
				want := rows[min(1, len(rows)):min(6, len(rows))]
				if page := got.Pages[k]; page.Total != len(rows) || len(page.Rows) != len(want) || (len(want) > 0 && !slices.EqualFunc(page.Rows, want, sameRow)) {
					t.Fatalf("as of %q, %s %s: %d of %d rows, want %d of %d", asOf, period, k, len(page.Rows), page.Total, len(want), len(rows))
				}
			}
		}
	}
}

func sameRow(a, b financials.Row) bool {
	return a.Start == b.Start && a.End == b.End && a.Accession == b.Accession && a.FiscalYear == b.FiscalYear &&
		a.FiscalPeriod == b.FiscalPeriod && a.Currency == b.Currency && a.Filed == b.Filed && maps.Equal(a.Values, b.Values)
}
