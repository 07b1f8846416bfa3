package holdings

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

// MaxMedianPrice is the highest median value per share, in dollars, that a
// 13F filing is taken to report. No stock that 13F filers hold in number
// trades near it: a filing above it has its VALUE column in the wrong unit,
// most often a filer that wrote whole dollars before 2023-01-03, when the
// column was in thousands (Apple at $141.50 a share, multiplied by 1,000,
// reads $141,500). Berkshire Hathaway's class A shares, above it on their
// own, are one row among many in the filings that hold them, and the
// median is not moved by a few rows.
const MaxMedianPrice = 20_000

// ErrImplausibleValues reports a filing whose values, divided by its
// shares, are no plausible prices.
var ErrImplausibleValues = errors.New("values per share are implausible")

// CheckPriceBand checks a filing's VALUE unit against the prices it implies.
// It takes the rows counted in shares (SH; options too, whose value is the
// underlying's) with shares and value above zero, divides each value in
// dollars by its shares, and refuses the filing when the median of those
// prices (the lower middle one for an even number) is above MaxMedianPrice.
// Rows in principal amount (PRN) imply no price and are left out; a filing
// without a row to count passes. The median, not each row, is checked, so
// that one odd row (a mistyped share count, a class A share) does not
// refuse a filing whose other rows are right, while a filing in the wrong
// unit, whose every row is off by the same factor, is refused whole.
func CheckPriceBand(f Filing) error {
	var prices []float64
	for _, h := range f.Holdings {
		if p, ok := SharePrice(h); ok {
			prices = append(prices, p)
		}
	}
	return CheckPrices(f, prices)
}

// SharePrice is the price per share a row implies, for CheckPriceBand: its
// value in dollars divided by its shares, for a row counted in shares with
// shares and value above zero; other rows imply none.
func SharePrice(h Holding) (float64, bool) {
	if h.ShareType == "SH" && h.Shares > 0 && h.Value > 0 {
		return float64(h.Value) / float64(h.Shares), true
	}
	return 0, false
}

// CheckPrices is CheckPriceBand for a reader that keeps only the prices
// (SharePrice) of filing f's rows, not the rows: f's accession number and
// filing date name it in the refusal. It sorts prices.
func CheckPrices(f Filing, prices []float64) error {
	if len(prices) == 0 {
		return nil
	}
	slices.Sort(prices)
	median := prices[(len(prices)-1)/2]
	if median <= MaxMedianPrice {
		return nil
	}
	why := "no share trades near that, so VALUE or the share counts are in the wrong unit"
	if filed, err := time.Parse(time.DateOnly, f.FilingDate); err == nil && filed.Before(DollarsCutover) {
		why = fmt.Sprintf("VALUE looks written in dollars, but a filing dated %s (before %s) reports thousands of dollars, so it was multiplied by 1,000",
			f.FilingDate, DollarsCutover.Format(time.DateOnly))
	}
	return fmt.Errorf("%w: filing %s: the median value per share of its %d share rows is $%.2f, above $%d: %s",
		ErrImplausibleValues, f.Accession, len(prices), median, MaxMedianPrice, why)
}
