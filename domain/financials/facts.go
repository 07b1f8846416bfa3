package financials

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/domain/source"
)

// Fact is one value a filing reported for a concept, as SEC companyfacts
// lists it. Start is empty for an instant (a balance-sheet date). FiscalYear
// and FiscalPeriod describe the filing, not necessarily the fact: a 10-K's
// comparative prior-year figures carry the 10-K's own year.
type Fact struct {
	Concept      string
	Unit         string
	Start        string
	End          string
	Value        float64
	Accession    string
	FiscalYear   int
	FiscalPeriod string
	Form         string
	Filed        string
}

// Company is one filer and every mapped fact it reported, restatements
// included: a later filing's value for the same period is a separate fact.
// Tickers lists every ticker of the filer, primary first. RetrievedAt is
// when the companyfacts document was downloaded from the SEC.
type Company struct {
	CIK         string
	Tickers     []string
	Name        string
	Facts       []Fact
	RetrievedAt time.Time
}

// ErrFact reports a fact that cannot be used.
var ErrFact = errors.New("invalid fact")

// Validate checks a fact's dates, unit and order of dates.
func (f Fact) Validate() error {
	end, err := time.Parse(time.DateOnly, f.End)
	if err != nil {
		return fmt.Errorf("%w: end %s is not a date", ErrFact, source.Quote(f.End))
	}
	if _, err := time.Parse(time.DateOnly, f.Filed); err != nil {
		return fmt.Errorf("%w: filed %s is not a date", ErrFact, source.Quote(f.Filed))
	}
	if f.Start != "" {
		start, err := time.Parse(time.DateOnly, f.Start)
		if err != nil {
			return fmt.Errorf("%w: start %s is not a date", ErrFact, source.Quote(f.Start))
		}
		if start.After(end) {
			return fmt.Errorf("%w: start %s is after end %s", ErrFact, f.Start, f.End)
		}
	}
	if f.Unit == "" || f.Accession == "" {
		return fmt.Errorf("%w: unit and accession are required", ErrFact)
	}
	return nil
}

// KnownFrom is the instant from which a filing counts as known: the last
// microsecond of its filing date in UTC. companyfacts gives the filing date
// only, and EDGAR's acceptance time never falls after the end of the filing
// date (later acceptances take the next business day's date), so this
// instant never shows a value before it was public. It is also the instant
// an as_of given as a bare date stands for.
func KnownFrom(filed string) (time.Time, error) {
	d, err := time.Parse(time.DateOnly, filed)
	if err != nil {
		return time.Time{}, fmt.Errorf("%w: filed %s is not a date", ErrFact, source.Quote(filed))
	}
	return d.Add(24*time.Hour - time.Microsecond), nil
}

// Currency returns the ISO 4217 code a unit is measured in: "USD" for both
// "USD" and "USD/shares". ok is false for any other unit (shares, pure).
func Currency(unit string) (string, bool) {
	cur, rest, _ := strings.Cut(unit, "/")
	if len(cur) != 3 || strings.ToUpper(cur) != cur || (rest != "" && rest != "shares") {
		return "", false
	}
	return cur, true
}

// factKey identifies what a fact is about; the filings that report the same
// key are versions of one value.
type factKey struct {
	concept, unit, start, end string
}

// KnownAt returns, for each concept, unit and period, the fact from the
// latest filing known at asOf: a restatement replaces the original from its
// own filing date on, and not a moment before. Filings of the same day are
// ordered by accession number.
func KnownAt(facts []Fact, asOf time.Time) []Fact {
	last := LastKnownDay(asOf)
	best := make(map[factKey]Fact, len(facts))
	for _, f := range facts {
		// Filing dates are validated at ingestion (Validate), so a
		// YYYY-MM-DD string compares as the date it names.
		if len(f.Filed) != len(time.DateOnly) || f.Filed > last {
			continue
		}
		k := factKey{f.Concept, f.Unit, f.Start, f.End}
		if cur, ok := best[k]; !ok || later(f, cur) {
			best[k] = f
		}
	}
	out := make([]Fact, 0, len(best))
	for _, f := range best {
		out = append(out, f)
	}
	slices.SortFunc(out, func(a, b Fact) int {
		return cmp.Or(cmp.Compare(a.Concept, b.Concept), cmp.Compare(a.Unit, b.Unit),
			cmp.Compare(a.End, b.End), cmp.Compare(a.Start, b.Start))
	})
	return out
}

// LastKnownDay is the latest filing date known at t, as YYYY-MM-DD: the day
// D with KnownFrom(D) <= t, that is D <= t - 24h + 1µs. KnownAt, and so
// Know, depend on asOf through this day alone: two instants with the same
// last known day know the same facts.
func LastKnownDay(t time.Time) string {
	return t.Add(time.Microsecond - 24*time.Hour).UTC().Format(time.DateOnly)
}

func later(a, b Fact) bool {
	if a.Filed != b.Filed {
		return a.Filed > b.Filed
	}
	return a.Accession > b.Accession
}

// FilingURL is the EDGAR folder of a filing: the accession number without
// dashes under the filer's unpadded CIK. The folder lists every document of
// the filing; companyfacts does not name the primary document.
func FilingURL(cik, accession string) string {
	return "https://www.sec.gov/Archives/edgar/data/" + strings.TrimLeft(cik, "0") + "/" +
		strings.ReplaceAll(accession, "-", "") + "/"
}
