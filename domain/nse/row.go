// Package nse holds the rules of NSE capital-market daily rows (the
// bhavcopy): what a row is, when it became known, which version of it is
// in effect at a moment, how an ISIN is checked, and the exact unit
// conversions of the exchange's files. It does no I/O.
package nse

import (
	"errors"
	"fmt"
	"iter"
	"math"
	"strconv"
	"time"

	"github.com/quarrydata/quarry/domain/decimal"
	"github.com/quarrydata/quarry/domain/source"
)

// Row is one trading day of one NSE security in one series, as the
// exchange published it: prices in INR per share, volume in shares,
// turnover in INR (unscaled) and the number of trades.
type Row struct {
	// Symbol is the exchange's trading symbol on Date; a renamed security
	// keeps its ISIN and changes its symbol.
	Symbol string
	// Series is the NSE series, such as EQ, BE or SM.
	Series string
	// ISIN is the stable identifier rows are stored by.
	ISIN string
	// Date is the trading day, YYYY-MM-DD.
	Date                   string
	Open, High, Low, Close float64
	// Last is the last traded price; 0 when the file gives none, as NSE's
	// files do for some debt series.
	Last float64
	// PrevClose is the exchange's previous close.
	PrevClose float64
	Volume    int64
	// Turnover is in INR.
	Turnover float64
	// TurnoverInLakhs is set by readers of files that state turnover in
	// lakhs to two decimals (NSE's full bhavcopy), so exact only to ±500
	// INR. It is not stored: ingestion uses it (Agrees) to keep an exact
	// figure already held.
	TurnoverInLakhs bool
	Trades          int64
	// Source names the file the row was read from.
	Source string
	// KnownAt is when the row became known: KnownAt gives the rule.
	KnownAt time.Time
}

// India is Indian Standard Time (UTC+5:30, no daylight saving).
var India = time.FixedZone("IST", 5*60*60+30*60)

// CloseTime is the end of NSE's normal market, 15:30 India time, on a
// trading day.
func CloseTime(date string) (time.Time, error) {
	d, err := time.ParseInLocation(time.DateOnly, date, India)
	if err != nil {
		return time.Time{}, fmt.Errorf("date %s is not YYYY-MM-DD", source.Quote(date))
	}
	return d.Add(15*time.Hour + 30*time.Minute).UTC(), nil
}

// KnownAt is when a row of date read from a file retrieved at retrieved
// became known: at the close of its trading day, or at the retrieval when
// that is later, rounded up to the millisecond stores keep. Nothing is
// claimed to have been known before Quarry held it.
func KnownAt(date string, retrieved time.Time) (time.Time, error) {
	closing, err := CloseTime(date)
	if err != nil {
		return time.Time{}, err
	}
	if !retrieved.After(closing) {
		return closing, nil
	}
	if t := retrieved.Truncate(time.Millisecond); !t.Equal(retrieved) {
		retrieved = t.Add(time.Millisecond)
	}
	return retrieved.UTC(), nil
}

// Visible yields, of one security's versions in one series ordered by
// date then KnownAt, the version in effect at asOf for each date: the one
// with the latest KnownAt not after asOf. A date none of whose versions
// was known at asOf is left out. It holds one version at a time, so a
// stream of any length is read in constant memory; an error of versions
// is passed on and ends the sequence.
func Visible(versions iter.Seq2[Row, error], asOf time.Time) iter.Seq2[Row, error] {
	return func(yield func(Row, error) bool) {
		var pick Row
		held := false
		for v, err := range versions {
			if err != nil {
				yield(Row{}, err)
				return
			}
			if held && v.Date != pick.Date {
				if !yield(pick, nil) {
					return
				}
				held = false
			}
			if !v.KnownAt.After(asOf) {
				pick, held = v, true
			}
		}
		if held {
			yield(pick, nil)
		}
	}
}

// SameValues reports whether two rows publish the same figures under the
// same symbol, whatever their source and time.
func (r Row) SameValues(o Row) bool {
	return r.Symbol == o.Symbol && r.Series == o.Series && r.ISIN == o.ISIN && r.Date == o.Date &&
		r.Open == o.Open && r.High == o.High && r.Low == o.Low && r.Close == o.Close && r.Last == o.Last &&
		r.PrevClose == o.PrevClose && r.Volume == o.Volume && r.Turnover == o.Turnover && r.Trades == o.Trades
}

// lakhRounding is half the last unit of a turnover stated in lakhs to two
// decimals, in INR.
const lakhRounding = 500

// Agrees reports whether r, read from a file, adds nothing to held, the
// version in effect: the same figures, or, for a row whose turnover is
// stated in lakhs, the same figures but a turnover that rounds to it. So
// the full bhavcopy of a day already held from the legacy or UDiFF
// bhavcopy, which state turnover in INR, never replaces the exact figure.
func (r Row) Agrees(held Row) bool {
	if r.SameValues(held) {
		return true
	}
	if !r.TurnoverInLakhs {
		return false
	}
	near := math.Abs(r.Turnover-held.Turnover) <= lakhRounding
	r.Turnover = held.Turnover
	return near && r.SameValues(held)
}

// Check reports the first figure of the row that cannot be right: an
// open, high, low, close or previous close that is not positive, an open
// or last price outside the day's low and high, or a negative volume,
// turnover or trade count. The close is not held to the day's range: NSE
// closes some series (T0, settled the same day) at the normal market's
// close, which their own few trades need not reach.
func (r Row) Check() error {
	for _, p := range []struct {
		name string
		v    float64
	}{{"open", r.Open}, {"high", r.High}, {"low", r.Low}, {"close", r.Close}, {"prev_close", r.PrevClose}} {
		if !(p.v > 0) || math.IsInf(p.v, 0) {
			return fmt.Errorf("%s %v is not a positive price", p.name, p.v)
		}
	}
	if r.Low > r.High {
		return fmt.Errorf("low %v is above high %v", r.Low, r.High)
	}
	if r.Open < r.Low || r.Open > r.High {
		return fmt.Errorf("open %v is outside the low %v and high %v", r.Open, r.Low, r.High)
	}
	if r.Last != 0 && (r.Last < r.Low || r.Last > r.High || math.IsNaN(r.Last)) {
		return fmt.Errorf("last %v is outside the low %v and high %v", r.Last, r.Low, r.High)
	}
	if r.Volume < 0 || r.Trades < 0 || !(r.Turnover >= 0) || math.IsInf(r.Turnover, 0) {
		return errors.New("volume, turnover and trades must not be negative")
	}
	return nil
}

// ParseDecimal reads a plain non-negative decimal ("2045.05", "12"): no
// sign, exponent, NaN or infinity.
func ParseDecimal(name, s string) (float64, error) {
	if _, err := decimal.Shift(s, 0); err != nil {
		return 0, fmt.Errorf("%s %s: %w", name, source.Quote(s), err)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("%s %s is out of range", name, source.Quote(s))
	}
	return v, nil
}

// ParseCount reads a whole non-negative number, such as a volume.
func ParseCount(name, s string) (int64, error) {
	if s == "" || !decimal.Digits(s) || len(s) > 18 {
		return 0, fmt.Errorf("%s %s is not a whole number", name, source.Quote(s))
	}
	n, _ := strconv.ParseInt(s, 10, 64)
	return n, nil
}

// RupeesFromLakhs converts a turnover in lakhs (1 lakh = 100,000 INR), a
// decimal such as "4685.65", into INR (468565000), moving the decimal
// point five places in the text so no binary rounding enters before the
// one conversion to the nearest double.
func RupeesFromLakhs(s string) (float64, error) {
	shifted, err := decimal.Shift(s, 5)
	if err != nil {
		return 0, fmt.Errorf("turnover %s lakhs: %w", source.Quote(s), err)
	}
	return strconv.ParseFloat(shifted, 64)
}

// SymbolMatch finds the ISIN a symbol named on or before a day, as known at
// an instant: of the rows offered, it keeps the symbol's row with the latest
// date not after OnOrBefore and known by AsOf, the smaller ISIN on a tie.
type SymbolMatch struct {
	Symbol     string
	OnOrBefore string
	AsOf       time.Time
	// Best is the row kept so far; its ISIN is empty until one is.
	Best Row
}

// Offer keeps r if it is a better match than the one kept.
func (m *SymbolMatch) Offer(r Row) {
	if r.Symbol != m.Symbol || r.Date > m.OnOrBefore || r.KnownAt.After(m.AsOf) {
		return
	}
	if !m.Found() || r.Date > m.Best.Date || (r.Date == m.Best.Date && r.ISIN < m.Best.ISIN) {
		m.Best = r
	}
}

// Found reports whether a row was kept.
func (m *SymbolMatch) Found() bool { return m.Best.ISIN != "" }
