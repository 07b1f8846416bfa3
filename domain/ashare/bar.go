package ashare

import (
	"errors"
	"fmt"
	"iter"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/domain/decimal"
	"github.com/quarrydata/quarry/domain/source"
)

// Bar is one trading day of one A-share listing as the exchange published
// it: unadjusted prices in CNY per share, volume in shares and turnover in
// CNY, both unscaled. A suspended day has no bar.
type Bar struct {
	// Code is the canonical code, for example "SSE.600519".
	Code string
	// TradeDate is the trading day, YYYY-MM-DD.
	TradeDate              string
	Open, High, Low, Close float64
	// PreClose is the exchange's reference previous close: the prior close,
	// except on an ex-date, where the exchange lowers it by the dividend
	// (and divides it by any bonus or rights ratio). Adjustment factors are
	// derived from it (see Steps).
	PreClose float64
	// Volume is in shares; Amount (turnover) in CNY.
	Volume int64
	Amount float64
	// Source names the file the bar was read from.
	Source string
	// KnownAt is when the bar became known: KnownAt gives the rule.
	KnownAt time.Time
}

// China is the time zone of the mainland exchanges (UTC+8, no daylight
// saving).
var China = time.FixedZone("CST", 8*60*60)

// CloseTime is the end of continuous trading and of the closing call on
// the mainland exchanges, 15:00 China time, when a day's bar exists.
func CloseTime(tradeDate string) (time.Time, error) {
	d, err := time.ParseInLocation(time.DateOnly, tradeDate, China)
	if err != nil {
		return time.Time{}, fmt.Errorf("trade date %s is not YYYY-MM-DD", source.Quote(tradeDate))
	}
	return d.Add(15 * time.Hour).UTC(), nil
}

// KnownAt is when a bar read from a file retrieved at retrieved became
// known: at the exchange's close on its trading day, or at the retrieval
// when that is later. A file of history retrieved today makes its bars
// known today: nothing is claimed to have been known before Quarry held
// it.
func KnownAt(tradeDate string, retrieved time.Time) (time.Time, error) {
	closing, err := CloseTime(tradeDate)
	if err != nil {
		return time.Time{}, err
	}
	if retrieved.After(closing) {
		// Stores keep instants to the millisecond (BSON dates); a later
		// instant is rounded up so nothing is claimed known early.
		if t := retrieved.Truncate(time.Millisecond); !t.Equal(retrieved) {
			retrieved = t.Add(time.Millisecond)
		}
		return retrieved.UTC(), nil
	}
	return closing, nil
}

// Visible yields, of one listing's versions ordered by trade date then
// KnownAt, the version in effect at asOf for each trade date in [from, to]
// (empty bounds are open): the one with the latest KnownAt not after asOf.
// A date none of whose versions was known at asOf is left out.
func Visible(versions []Bar, from, to string, asOf time.Time) iter.Seq[Bar] {
	return func(yield func(Bar) bool) {
		for i := 0; i < len(versions); {
			j, pick := i, -1
			for ; j < len(versions) && versions[j].TradeDate == versions[i].TradeDate; j++ {
				if !versions[j].KnownAt.After(asOf) {
					pick = j
				}
			}
			d := versions[i].TradeDate
			if pick >= 0 && (from == "" || d >= from) && (to == "" || d <= to) && !yield(versions[pick]) {
				return
			}
			i = j
		}
	}
}

// Page cuts one page from bars: it skips offset bars, keeps at most limit,
// and more says whether another bar follows. It stops pulling from bars
// once it knows, so a store reading bars lazily reads no further than one
// past the page.
func Page(bars iter.Seq[Bar], offset, limit int) (page []Bar, more bool) {
	for b := range bars {
		if offset > 0 {
			offset--
			continue
		}
		if len(page) == limit {
			return page, true
		}
		page = append(page, b)
	}
	return page, false
}

// Change is close minus the reference previous close, rounded to 1/10,000
// of a yuan to drop binary noise (prices tick in fen).
func (b Bar) Change() float64 { return Round4(b.Close - b.PreClose) }

// PctChange is the change in percent of the reference previous close,
// rounded to four decimals, as the exchanges compute it: an ex-date's move
// is measured from the ex-rights reference, not from the prior close.
func (b Bar) PctChange() float64 {
	if b.PreClose == 0 {
		return 0
	}
	return Round4((b.Close - b.PreClose) / b.PreClose * 100)
}

// SameValues reports whether two bars publish the same figures, whatever
// their source and time.
func (b Bar) SameValues(o Bar) bool {
	return b.Code == o.Code && b.TradeDate == o.TradeDate && b.Open == o.Open && b.High == o.High &&
		b.Low == o.Low && b.Close == o.Close && b.PreClose == o.PreClose && b.Volume == o.Volume && b.Amount == o.Amount
}

// Check reports the first figure of the bar that cannot be right: a price
// that is not positive, a high below another price or a low above one, or
// a negative volume or turnover.
func (b Bar) Check() error {
	for _, p := range []struct {
		name string
		v    float64
	}{{"open", b.Open}, {"high", b.High}, {"low", b.Low}, {"close", b.Close}, {"pre_close", b.PreClose}} {
		if !(p.v > 0) || math.IsInf(p.v, 0) {
			return fmt.Errorf("%s %v is not a positive price", p.name, p.v)
		}
	}
	if b.High < max(b.Open, b.Close, b.Low) {
		return fmt.Errorf("high %v is below the open, close or low", b.High)
	}
	if b.Low > min(b.Open, b.Close) {
		return fmt.Errorf("low %v is above the open or close", b.Low)
	}
	if b.Volume < 0 || !(b.Amount >= 0) || math.IsInf(b.Amount, 0) {
		return errors.New("volume and amount must not be negative")
	}
	return b.checkAverage()
}

// averageSlack is how far, as a share of the price, the average price a
// bar's amount and volume imply may fall outside the day's range: vendors
// round the amount to a thousand yuan's thousandth and the volume to a
// share, and a price tick is a fen; a figure cut short, losing a digit,
// moves the average tenfold.
const averageSlack = 0.01

// checkAverage refuses a bar whose amount / volume, the day's average
// price, falls outside its low–high range beyond rounding: the mark of a
// figure cut or shifted, such as a file cut inside its last number.
func (b Bar) checkAverage() error {
	if b.Volume == 0 {
		return nil
	}
	avg := b.Amount / float64(b.Volume)
	if avg < b.Low*(1-averageSlack)-0.01 || avg > b.High*(1+averageSlack)+0.01 {
		return fmt.Errorf("amount %v / volume %d implies an average price of %.4f, outside the day's low–high range %v–%v",
			b.Amount, b.Volume, avg, b.Low, b.High)
	}
	return nil
}

// Round4 rounds to four decimal places.
func Round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }

// SharesFromLots converts a vendor's volume in lots (手) of 100 shares, a
// decimal such as "38982.43", into shares, exactly: the decimal point moves
// two places in the text, so no binary rounding enters. Odd-lot sales make
// fractions of a lot, but never of a share, so a third decimal that is not
// zero is refused.
func SharesFromLots(s string) (int64, error) {
	shifted, err := decimal.Shift(s, 2)
	if err != nil {
		return 0, fmt.Errorf("volume %s: %w", source.Quote(s), err)
	}
	whole, frac, _ := strings.Cut(shifted, ".")
	if strings.Trim(frac, "0") != "" {
		return 0, fmt.Errorf("volume %s lots is not a whole number of shares", source.Quote(s))
	}
	n, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("volume %s is out of range", source.Quote(s))
	}
	return n, nil
}

// YuanFromThousands converts a vendor's turnover in thousands of CNY, a
// decimal such as "7984019.438", into CNY (7984019438), moving the decimal
// point in the text so the result is the double nearest the exact value.
func YuanFromThousands(s string) (float64, error) {
	shifted, err := decimal.Shift(s, 3)
	if err != nil {
		return 0, fmt.Errorf("amount %s: %w", source.Quote(s), err)
	}
	return strconv.ParseFloat(shifted, 64)
}

// ParseDecimal reads a plain decimal price or amount ("2045.0", "12.78"):
// no sign, exponent, NaN or infinity.
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
