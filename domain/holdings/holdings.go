// Package holdings holds the rules of the funds-holding-a-security dataset:
// the securities master that resolves an identifier, the 13F positions
// funds report, the units their values are reported in, and how a lookup
// filters, orders and pages them.
package holdings

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/domain/edgar"
	"github.com/quarrydata/quarry/domain/source"
)

// Security is one entry of the securities master: an issuer's listed
// security with its ticker, the issuer's CIK and the security's CUSIP.
type Security struct {
	Ticker string
	CIK    string
	CUSIP  string
	Name   string
}

// Holding is one row of a 13F information table: a fund's position in one
// security as reported in one filing. Row numbers the row within its
// filing; (Accession, Row) is its natural key.
type Holding struct {
	Accession    string
	Row          int64
	FundCIK      string
	FundName     string
	ReportPeriod string // YYYY-MM-DD, the quarter end
	FilingDate   string // YYYY-MM-DD
	CUSIP        string
	Issuer       string
	Class        string
	Shares       int64 // shares, or principal amount when ShareType is PRN
	ShareType    string
	Value        int64 // whole US dollars
	PutCall      string
	Discretion   string
}

// Filing is one 13F filing with every row of its information table. A
// filing is loaded whole: loading it again replaces its rows.
type Filing struct {
	Accession    string
	FormType     string
	FundCIK      string
	FundName     string
	ReportPeriod string
	FilingDate   string
	// Amendment is empty for a 13F-HR, and Restatement or NewHoldings
	// for a 13F-HR/A.
	Amendment string
	Holdings  []Holding
}

// The two kinds of 13F-HR/A: a restatement replaces the fund's earlier
// reports for the period whole; new holdings add rows to them (positions
// released from confidential treatment, or left out by mistake).
const (
	Restatement = "RESTATEMENT"
	NewHoldings = "NEW HOLDINGS"
)

// ParseAmendment reads the amendment type of a filing of form: none for a
// 13F-HR, RESTATEMENT or NEW HOLDINGS (any case) for a 13F-HR/A.
func ParseAmendment(form, raw string) (string, error) {
	if form != "13F-HR/A" {
		return "", nil
	}
	a := strings.ToUpper(strings.Join(strings.Fields(raw), " "))
	if a != Restatement && a != NewHoldings {
		return "", fmt.Errorf("13F-HR/A amendment type %s is not RESTATEMENT or NEW HOLDINGS", source.Quote(raw))
	}
	return a, nil
}

// Report is a filing's place among its fund's reports for a period: what
// choosing the fund's current report at an instant needs.
type Report struct {
	Accession    string
	FundCIK      string
	ReportPeriod string
	FilingDate   string
	Amendment    string
}

// Report returns the filing's place among its fund's reports.
func (f Filing) Report() Report {
	return Report{Accession: f.Accession, FundCIK: f.FundCIK, ReportPeriod: f.ReportPeriod, FilingDate: f.FilingDate, Amendment: f.Amendment}
}

// fundPeriod names one fund's reports for one quarter.
type fundPeriod struct{ fund, period string }

// Current returns the accession numbers that make up each fund's report
// for each period as known at t: its latest complete report (a 13F-HR or
// a restatement) and the new-holdings amendments filed after it. Filings
// are ordered by filing date, then accession number.
func Current(reports []Report, t time.Time) map[string]bool {
	byFund := map[fundPeriod][]Report{}
	for _, r := range reports {
		if knownAt(r.FilingDate, t) {
			k := fundPeriod{r.FundCIK, r.ReportPeriod}
			byFund[k] = append(byFund[k], r)
		}
	}
	current := map[string]bool{}
	for _, rs := range byFund {
		slices.SortFunc(rs, func(a, b Report) int {
			return cmp.Or(cmp.Compare(a.FilingDate, b.FilingDate), cmp.Compare(a.Accession, b.Accession))
		})
		base := 0
		for i, r := range rs {
			if r.Amendment != NewHoldings {
				base = i
			}
		}
		for _, r := range rs[base:] {
			current[r.Accession] = true
		}
	}
	return current
}

// SupersededOn returns, for each report a later complete report (a 13F-HR
// or a restatement) of its fund and period supersedes, the filing date of
// the first such report. It is Current laid out in time: a report is
// current at t exactly when it is known at t (KnownOn its filing date) and
// not KnownOn the date given here, so a store can keep each row's
// interval and answer any instant without the reports.
func SupersededOn(reports []Report) map[string]string {
	byFund := map[fundPeriod][]Report{}
	for _, r := range reports {
		k := fundPeriod{r.FundCIK, r.ReportPeriod}
		byFund[k] = append(byFund[k], r)
	}
	out := map[string]string{}
	for _, rs := range byFund {
		slices.SortFunc(rs, func(a, b Report) int {
			return cmp.Or(cmp.Compare(a.FilingDate, b.FilingDate), cmp.Compare(a.Accession, b.Accession))
		})
		next := ""
		for i := len(rs) - 1; i >= 0; i-- {
			if next != "" {
				out[rs[i].Accession] = next
			}
			if rs[i].Amendment != NewHoldings {
				next = rs[i].FilingDate
			}
		}
	}
	return out
}

// KnownOn reports whether a filing of the given filing date was known at t
// (see Holding.KnownAt).
func KnownOn(filingDate string, t time.Time) bool { return knownAt(filingDate, t) }

// KnownThrough returns the latest filing date (YYYY-MM-DD) known at t: a
// filing is KnownOn t exactly when its date is not after it, so every
// instant with the same KnownThrough sees the same filings.
func KnownThrough(t time.Time) string {
	return t.UTC().Add(-24*time.Hour + time.Microsecond).Format(time.DateOnly)
}

// CUSIPs returns the distinct CUSIPs the filing reports, sorted.
func (f Filing) CUSIPs() []string {
	out := make([]string, 0, len(f.Holdings))
	for _, h := range f.Holdings {
		out = append(out, h.CUSIP)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// DollarsCutover is the first filing date on which 13F values are reported
// in whole dollars; filings before it report thousands of dollars.
var DollarsCutover = time.Date(2023, time.January, 3, 0, 0, 0, 0, time.UTC)

// ValueInDollars converts a reported VALUE to whole dollars according to
// the filing date, refusing an amount that would overflow.
func ValueInDollars(reported int64, filed time.Time) (int64, error) {
	if reported < 0 {
		return 0, fmt.Errorf("value %d is negative", reported)
	}
	if !filed.Before(DollarsCutover) {
		return reported, nil
	}
	const most = int64(^uint64(0)>>1) / 1000
	if reported > most {
		return 0, fmt.Errorf("value %d thousand overflows", reported)
	}
	return reported * 1000, nil
}

// Investment discretion and option kinds as 13F reports them.
var (
	discretions = []string{"SOLE", "DFND", "OTR"}
	putCalls    = []string{"PUT", "CALL"}
)

// ParseDiscretion normalises SOLE, DFND or OTR.
func ParseDiscretion(s string) (string, error) {
	d := strings.ToUpper(strings.TrimSpace(s))
	if !slices.Contains(discretions, d) {
		return "", fmt.Errorf("investment discretion %s is not SOLE, DFND or OTR", source.Quote(s))
	}
	return d, nil
}

// ParsePutCall normalises Put or Call; empty means a plain position.
func ParsePutCall(s string) (string, error) {
	p := strings.ToUpper(strings.TrimSpace(s))
	if p != "" && !slices.Contains(putCalls, p) {
		return "", fmt.Errorf("put/call %s is not PUT or CALL", source.Quote(s))
	}
	return p, nil
}

// ErrIdentifier reports an identifier that is neither a ticker, a CUSIP
// nor a CIK.
var ErrIdentifier = errors.New("malformed identifier")

// Key kinds of the securities master.
const (
	KeyTicker = "ticker"
	KeyCUSIP  = "cusip"
	KeyCIK    = "cik"
)

// Key names one way of finding a security in the master.
type Key struct {
	Kind  string
	Value string
}

// String is the key's stored form, such as "cusip:037833100".
func (k Key) String() string { return k.Kind + ":" + k.Value }

// Keys returns the master keys a security is found under.
func (s Security) Keys() []Key {
	return []Key{{KeyTicker, s.Ticker}, {KeyCUSIP, s.CUSIP}, {KeyCIK, s.CIK}}
}

// ParseIdentifier reads a ticker, CUSIP or CIK and returns the master keys
// to try, in order. A 9-character value with a valid check digit is tried
// as a CUSIP first; digits are then tried as a CIK; anything else that
// looks like a ticker is a ticker.
func ParseIdentifier(raw string) ([]Key, error) {
	s := strings.TrimSpace(raw)
	var keys []Key
	if c, err := edgar.ParseCUSIP(s); err == nil {
		keys = append(keys, Key{KeyCUSIP, c})
	}
	if c, err := edgar.ParseCIK(s); err == nil {
		keys = append(keys, Key{KeyCIK, c})
		return keys, nil
	}
	if t, err := edgar.ParseTicker(s); err == nil {
		keys = append(keys, Key{KeyTicker, t})
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("%w: %s is neither a ticker (AAPL), a 9-character CUSIP (037833100) nor a CIK (320193)", ErrIdentifier, source.Quote(raw))
	}
	return keys, nil
}

// Query selects the holders of one security.
type Query struct {
	// Accession, when set, keeps only rows of that filing.
	Accession string
	// From and To bound the report period (YYYY-MM-DD, inclusive); empty
	// means unbounded.
	From, To string
	// AsOf keeps only filings known by then.
	AsOf   time.Time
	Limit  int
	Offset int
}

// KnownAt reports whether a row's filing was known at t. EDGAR data sets
// give the filing date, not the time, so a filing counts as known from the
// end of its filing day (UTC): a point-in-time answer never sees a filing
// that could have been accepted after the instant asked for.
func (h Holding) KnownAt(t time.Time) bool { return knownAt(h.FilingDate, t) }

func knownAt(filingDate string, t time.Time) bool {
	d, err := time.Parse(time.DateOnly, filingDate)
	if err != nil {
		return false
	}
	return !d.Add(24*time.Hour - time.Microsecond).After(t)
}

// Select filters rows by the query, keeps only the rows of each fund's
// current report for the period as of q.AsOf (see Current; reports lists
// the funds' filings, and a fund-period without reports keeps its rows),
// combines the rows of one position (see Combine), orders the positions
// largest value first (then by fund CIK, accession and row, so pages are
// stable) and returns one page with the number of positions matched. A
// query for one filing (q.Accession) serves that filing's rows as filed,
// whether or not a later amendment superseded them.
func Select(rows []Holding, reports []Report, q Query) ([]Holding, int) {
	current := Current(reports, q.AsOf)
	reported := map[fundPeriod]bool{}
	for _, r := range reports {
		reported[fundPeriod{r.FundCIK, r.ReportPeriod}] = true
	}
	kept := make([]Holding, 0, len(rows))
	for _, h := range rows {
		superseded := q.Accession == "" && reported[fundPeriod{h.FundCIK, h.ReportPeriod}] && !current[h.Accession]
		if q.matches(h) && !superseded {
			kept = append(kept, h)
		}
	}
	kept = Combine(kept)
	slices.SortFunc(kept, ComparePositions)
	total := len(kept)
	start := min(q.Offset, total)
	end := min(start+q.Limit, total)
	return kept[start:end], total
}

// ComparePositions orders positions as a lookup pages them: largest value
// first, then by fund CIK, accession number and row.
func ComparePositions(a, b Holding) int {
	return cmp.Or(cmp.Compare(b.Value, a.Value), cmp.Compare(a.FundCIK, b.FundCIK),
		cmp.Compare(a.Accession, b.Accession), cmp.Compare(a.Row, b.Row))
}

func (q Query) matches(h Holding) bool {
	switch {
	case q.Accession != "" && h.Accession != q.Accession:
		return false
	case q.From != "" && h.ReportPeriod < q.From:
		return false
	case q.To != "" && h.ReportPeriod > q.To:
		return false
	}
	return h.KnownAt(q.AsOf)
}

// position names what rows of one filing combine into one holder: the same
// security, held the same way.
type position struct {
	accession, cusip, shareType, putCall, discretion string
}

// Combine merges the rows a filer reports for one position into one
// holding with their shares and values summed. Filers split a position
// across rows by the other managers sharing discretion over it (Berkshire
// Hathaway reports its Apple stake in twelve rows); a lookup of holders
// wants the position. Rows that differ in put/call, investment discretion
// or share type stay apart, and so does a row whose sum would overflow.
// The merged holding keeps its first row's number and order.
func Combine(rows []Holding) []Holding {
	out := make([]Holding, 0, len(rows))
	at := make(map[position]int, len(rows))
	for _, h := range rows {
		k := position{h.Accession, h.CUSIP, h.ShareType, h.PutCall, h.Discretion}
		i, seen := at[k]
		if seen && addable(out[i], h) {
			out[i].Shares += h.Shares
			out[i].Value += h.Value
			out[i].Row = min(out[i].Row, h.Row)
			continue
		}
		at[k] = len(out)
		out = append(out, h)
	}
	return out
}

func addable(a, b Holding) bool {
	const most = int64(^uint64(0) >> 1)
	return a.Shares <= most-b.Shares && a.Value <= most-b.Value
}
