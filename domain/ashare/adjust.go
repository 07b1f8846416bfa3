package ashare

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/quarrydata/quarry/domain/source"
)

// Adjust says how prices are adjusted for dividends, bonus shares and
// rights issues.
type Adjust string

// The adjustments a request can ask for.
const (
	// NoAdjust serves prices as traded.
	NoAdjust Adjust = "none"
	// Forward (前复权) keeps the latest prices as traded and scales earlier
	// ones down at every ex-date, so forward-adjusted history changes at
	// each ex-date.
	Forward Adjust = "forward"
	// Backward (后复权) keeps the earliest prices held as traded and scales
	// later ones up; past values never change when an ex-date arrives.
	Backward Adjust = "backward"
)

// ParseAdjust reads an adjustment; empty means NoAdjust.
func ParseAdjust(s string) (Adjust, error) {
	switch a := Adjust(s); a {
	case "":
		return NoAdjust, nil
	case NoAdjust, Forward, Backward:
		return a, nil
	}
	return "", fmt.Errorf("adjust %s must be none, forward or backward", source.Quote(s))
}

// Step is the adjustment a listing's ex-date makes: on its trading day
// Date, Ratio = pre_close(Date) / close(previous bar), below 1 for a cash
// dividend and near 1/(1+bonus ratio) for bonus shares. A Step is known
// once both bars it is computed from are: KnownAt is the later of their
// KnownAt. A later correction of either bar gives a new Step for the date
// with a later KnownAt (Ratio 1 when the correction removes the step), so
// the steps of a listing are versions, like its bars.
type Step struct {
	Date    string
	Ratio   float64
	KnownAt time.Time
}

// Steps derives the adjustment steps of one listing from every version of
// its bars (any order): for each moment a version became known, the bars
// known then are taken in date order, and every bar whose reference
// previous close differs from the close of the bar before it is a step.
// Suspended days have no bar, so the bar before a resumption is the last
// one traded, whose close the exchange's reference price refers to. Only
// changes are emitted: a ratio of 1 appears only to withdraw an earlier
// step. The result is ordered by date, then KnownAt.
func Steps(versions []Bar) []Step {
	byTime := map[time.Time][]Bar{}
	for _, v := range versions {
		byTime[v.KnownAt] = append(byTime[v.KnownAt], v)
	}
	moments := slices.SortedFunc(func(yield func(time.Time) bool) {
		for t := range byTime {
			if !yield(t) {
				return
			}
		}
	}, func(a, b time.Time) int { return a.Compare(b) })
	current := map[string]Bar{}
	var dates []string
	ratio := map[string]float64{}
	var out []Step
	for _, at := range moments {
		touched := map[string]bool{}
		for _, v := range byTime[at] {
			if _, held := current[v.TradeDate]; !held {
				i, _ := slices.BinarySearch(dates, v.TradeDate)
				dates = slices.Insert(dates, i, v.TradeDate)
			}
			current[v.TradeDate] = v
			touched[v.TradeDate] = true
		}
		affected := map[string]bool{}
		for d := range touched {
			affected[d] = true
			if i, _ := slices.BinarySearch(dates, d); i+1 < len(dates) {
				affected[dates[i+1]] = true
			}
		}
		for _, d := range slices.Sorted(func(yield func(string) bool) {
			for d := range affected {
				if !yield(d) {
					return
				}
			}
		}) {
			r := 1.0
			if i, _ := slices.BinarySearch(dates, d); i > 0 {
				if prev := current[dates[i-1]]; prev.Close > 0 {
					r = current[d].PreClose / prev.Close
				}
			}
			old, had := ratio[d]
			if !had {
				old = 1
			}
			if r != old {
				ratio[d] = r
				out = append(out, Step{Date: d, Ratio: r, KnownAt: at})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Step) int {
		if c := strings.Compare(a.Date, b.Date); c != 0 {
			return c
		}
		return a.KnownAt.Compare(b.KnownAt)
	})
	return out
}

// Factors are the adjustment steps in effect at one moment, in date order,
// from which each bar's factor follows.
type Factors struct {
	steps []Step
}

// FactorsAt keeps, of each date's step versions, the latest known at asOf,
// and drops ratios of 1.
func FactorsAt(steps []Step, asOf time.Time) Factors {
	latest := map[string]Step{}
	for _, s := range steps {
		if s.KnownAt.After(asOf) {
			continue
		}
		if cur, ok := latest[s.Date]; !ok || s.KnownAt.After(cur.KnownAt) {
			latest[s.Date] = s
		}
	}
	var f Factors
	for _, s := range latest {
		if s.Ratio != 1 {
			f.steps = append(f.steps, s)
		}
	}
	sort.Slice(f.steps, func(i, j int) bool { return f.steps[i].Date < f.steps[j].Date })
	return f
}

// Factor is the factor the adjustment multiplies a bar's prices by on
// tradeDate, where r_e = pre_close(e) / close(bar before e) is the ratio of
// each ex-date e in effect:
//
//	backward B(d) = Π_{e ≤ d} 1/r_e      (1 before the first ex-date held)
//	forward  F(d) = B(d) / B(latest) = Π_{e > d} r_e
//
// B(latest) is the backward factor of the newest bar known at the moment
// the Factors are for, so forward-adjusted prices are those a user saw
// then: the newest bar is as traded and every ex-date known by then scales
// the bars before it. The adjusted reference previous close of an ex-date
// equals the adjusted close of the bar before, so adjusted series have no
// gap at ex-dates. NoAdjust is 1.
func (f Factors) Factor(a Adjust, tradeDate string) float64 {
	factor := 1.0
	switch a {
	case Backward:
		for _, s := range f.steps {
			if s.Date > tradeDate {
				break
			}
			factor /= s.Ratio
		}
	case Forward:
		for i := len(f.steps) - 1; i >= 0 && f.steps[i].Date > tradeDate; i-- {
			factor *= f.steps[i].Ratio
		}
	}
	return factor
}
