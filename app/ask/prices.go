package ask

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/quarrydata/quarry/app/chinaprices"
	"github.com/quarrydata/quarry/app/indiaprices"

	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/question"
	"github.com/quarrydata/quarry/ports"
)

// WithPrices makes a answer price questions from the China daily bars
// and the India bhavcopy rows; either may be nil.
func (a *Service) WithPrices(china *chinaprices.Service, india *indiaprices.Service) *Service {
	a.chinaPrices, a.indiaPrices = china, india
	if china != nil {
		a.sources = append(a.sources, china.Probe())
	}
	if india != nil {
		a.sources = append(a.sources, india.Probe())
	}
	return a
}

// bar is one day's prices of a listing as Ask cites them: the record's
// fields by the names its route writes them with.
type bar struct {
	fields   map[string]string
	currency string
	cite     Citation
}

// priceAnswer answers a price question (p) about the one listing the
// question names, China's or India's, from the bars of the days it names
// known at q.AsOf: each field asked for, one sentence a day, and for a
// change the arithmetic. A day with no bar, or a listing named twice
// over, is no answer.
func (a *Service) priceAnswer(ctx context.Context, q Query, p question.Price, searched []dataset.ID) ([]sentence, error) {
	var china []ashare.Code
	if a.chinaPrices != nil && slices.Contains(searched, dataset.ChinaPrices) {
		var err error
		if china, err = a.priceCodes(ctx, q.Question, q.AsOf); err != nil {
			return nil, err
		}
	}
	var symbols []string
	if a.indiaPrices != nil && slices.Contains(searched, dataset.IndiaPrices) {
		var err error
		if symbols, err = a.indiaSymbols(ctx, q, p.Days[len(p.Days)-1]); err != nil {
			return nil, err
		}
	}
	if len(china)+len(symbols) != 1 {
		return nil, nil
	}
	bars := make([]bar, len(p.Days))
	for i, day := range p.Days {
		var b *bar
		var err error
		if len(china) == 1 {
			b, err = a.chinaBar(ctx, china[0], day, q.AsOf, ashare.Adjust(cmp.Or(p.Adjust, string(ashare.NoAdjust))))
		} else if p.Adjust == "" {
			b, err = a.indiaBar(ctx, symbols[0], day, q.AsOf)
		}
		if err != nil || b == nil {
			return nil, err
		}
		bars[i] = *b
	}
	for _, f := range p.Fields {
		if _, ok := bars[0].fields[f]; !ok {
			// "last price" of a China bar, which has none.
			return nil, nil
		}
	}
	return priceSentences(p, bars), nil
}

// priceSentences writes the sentences of a price answer from its bars,
// one per day and field, then the change asked for.
func priceSentences(p question.Price, bars []bar) []sentence {
	var out []sentence
	for _, b := range bars {
		for _, f := range p.Fields {
			out = append(out, sentence{text: fieldSentence(b, f), cite: b.cite})
		}
	}
	if !p.Change {
		return out
	}
	f := p.Fields[0]
	unit := unitOf(bars[0], f)
	if len(bars) == 2 {
		later, earlier := bars[1].fields[f], bars[0].fields[f]
		text := fmt.Sprintf("From %s to %s the %s changed by later - earlier = %s - %s = %s%s, or %s.",
			bars[0].fields["date"], bars[1].fields["date"], f, later, earlier, subtracted(later, earlier), unit, percentChange(later, earlier))
		return append(out, sentence{text: text, cite: bars[0].cite, more: []Citation{bars[1].cite}})
	}
	prev := bars[0].fields["prev_close"]
	if f != "close" || prev == "" {
		return out
	}
	text := fmt.Sprintf("Against the previous close of %s, the close changed by close - previous close = %s - %s = %s%s, or %s.",
		prev, bars[0].fields["close"], prev, subtracted(bars[0].fields["close"], prev), unit, percentChange(bars[0].fields["close"], prev))
	return append(out, sentence{text: text, cite: bars[0].cite})
}

// percentChange shows the change from earlier to later in percent, as
// ArithmeticResults checks it: (later - earlier) / earlier = ±r%.
func percentChange(later, earlier string) string {
	l, _ := strconv.ParseFloat(later, 64)
	e, _ := strconv.ParseFloat(earlier, 64)
	if e == 0 {
		return "no percentage (the earlier figure is 0)"
	}
	return fmt.Sprintf("(%s - %s) / %s = %s", later, earlier, earlier, percent(100*(l-e)/abs(e), true))
}

// unitOf is the unit a field of b is in, with its leading space.
func unitOf(b bar, field string) string {
	if field == "volume" {
		return " shares"
	}
	return " " + b.currency
}

// fieldSentence says one field of a day's bar.
func fieldSentence(b bar, field string) string {
	name, day := b.cite.Title, b.fields["date"]
	switch field {
	case "open":
		return fmt.Sprintf("%s opened at %s %s on %s.", name, b.fields["open"], b.currency, day)
	case "high":
		return fmt.Sprintf("%s traded as high as %s %s on %s.", name, b.fields["high"], b.currency, day)
	case "low":
		return fmt.Sprintf("%s traded as low as %s %s on %s.", name, b.fields["low"], b.currency, day)
	case "volume":
		return fmt.Sprintf("%s traded a volume of %s shares on %s.", name, b.fields["volume"], day)
	case "prev_close":
		return fmt.Sprintf("%s had a previous close of %s %s for %s.", name, b.fields["prev_close"], b.currency, day)
	case "last":
		return fmt.Sprintf("%s last traded at %s %s on %s.", name, b.fields["last"], b.currency, day)
	}
	if adj := b.fields["adjust"]; adj != "" {
		return fmt.Sprintf("%s closed at %s %s on %s, %s-adjusted (factor %s).", name, b.fields["close"], b.currency, day, adj, b.fields["adjust_factor"])
	}
	return fmt.Sprintf("%s closed at %s %s on %s.", name, b.fields["close"], b.currency, day)
}

// subtracted writes a - b, both as written, to the decimals of the more
// precise of them: 2029.05 - 2045 is -15.95, not float64's
// -15.950000000000045.
func subtracted(a, b string) string {
	x, _ := strconv.ParseFloat(a, 64)
	y, _ := strconv.ParseFloat(b, 64)
	return strconv.FormatFloat(roundTo(x-y, max(decimals(a), decimals(b))), 'f', -1, 64)
}

// decimals counts the digits after a number's point.
func decimals(n string) int {
	if i := strings.IndexByte(n, '.'); i >= 0 {
		return len(n) - i - 1
	}
	return 0
}

// roundTo rounds v to n decimals.
func roundTo(v float64, n int) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', n, 64), 64)
	return r
}

// chinaBar is the listing's bar of day known at asOf, adjusted as asked,
// nil when none is.
func (a *Service) chinaBar(ctx context.Context, code ashare.Code, day string, asOf time.Time, adjust ashare.Adjust) (*bar, error) {
	page, err := a.chinaPrices.Prices(ctx, chinaprices.Query{Code: code, From: day, To: day, AsOf: asOf, Adjust: adjust, Limit: 1})
	if errors.Is(err, ports.ErrNotFound) || err == nil && len(page.Bars) == 0 {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	b := page.Bars[0]
	sec, err := a.china.Security(ctx, code)
	if err != nil && !errors.Is(err, ports.ErrNotFound) {
		return nil, err
	}
	title := b.Code
	if sec.CompanyName != "" {
		title = sec.CompanyName + " (" + b.Code + ")"
	}
	fields := map[string]string{"company_name": sec.CompanyName,
		"code": b.Code, "date": b.TradeDate, "open": number(b.Open), "high": number(b.High), "low": number(b.Low),
		"close": number(b.Close), "prev_close": number(b.PreClose), "volume": strconv.FormatInt(b.Volume, 10),
		"amount": number(b.Amount), "currency": "CNY",
	}
	v := url.Values{"code": {b.Code}, "start_date": {day}, "end_date": {day}, "as_of": {asOf.Format(time.RFC3339)}}
	if adjust != ashare.NoAdjust {
		fields["adjust"], fields["adjust_factor"] = string(adjust), number(b.Factor)
		v.Set("adjust", string(adjust))
	}
	return &bar{fields: fields, currency: "CNY", cite: Citation{
		Dataset: dataset.ChinaPrices, DocumentID: b.Code + ":" + b.TradeDate, Title: title,
		Snippet: recordSnippet(fields), Fields: fields, Route: "GET /china/prices?" + v.Encode(),
	}}, nil
}

// indiaBar is the symbol's EQ row of day known at asOf, nil when none is.
func (a *Service) indiaBar(ctx context.Context, symbol, day string, asOf time.Time) (*bar, error) {
	page, err := a.indiaPrices.Prices(ctx, indiaprices.Query{Symbol: symbol, Series: "EQ", From: day, To: day, AsOf: asOf, Limit: 1})
	if errors.Is(err, ports.ErrNotFound) || err == nil && len(page.Rows) == 0 {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	r := page.Rows[0]
	fields := map[string]string{
		"symbol": r.Symbol, "series": r.Series, "isin": r.ISIN, "date": r.Date, "open": number(r.Open), "high": number(r.High),
		"low": number(r.Low), "close": number(r.Close), "prev_close": number(r.PrevClose),
		"volume": strconv.FormatInt(r.Volume, 10), "currency": "INR",
	}
	if r.Last != 0 {
		fields["last"] = number(r.Last)
	}
	v := url.Values{"symbol": {r.Symbol}, "start_date": {day}, "end_date": {day}, "as_of": {asOf.Format(time.RFC3339)}}
	return &bar{fields: fields, currency: "INR", cite: Citation{
		Dataset: dataset.IndiaPrices, DocumentID: r.Symbol + ":" + r.Date, Title: r.Symbol + " (NSE)",
		Snippet: recordSnippet(fields), Fields: fields, Route: "GET /india/prices?" + v.Encode(),
	}}, nil
}

// priceCodes are the China listings a question names with bars held: a
// code in any vendor form, a bare code one listing has, an English name
// the exchange lists or an exact Chinese short name, each listing once.
func (a *Service) priceCodes(ctx context.Context, q string, asOf time.Time) ([]ashare.Code, error) {
	var names []string
	for _, tok := range questionWords(q) {
		if code, err := ashare.ParseAlias(tok); err == nil {
			names = append(names, code.String())
		} else if errors.Is(err, ashare.ErrBareCode) {
			names = append(names, ashare.Candidates(tok)...)
		}
	}
	for _, run := range titleRuns(q) {
		names = append(names, question.EnglishListings(run)...)
	}
	for _, name := range question.HanNames(q) {
		for _, form := range nameForms(name) {
			secs, err := a.china.SecuritiesByName(ctx, form)
			if err != nil {
				return nil, err
			}
			for _, sec := range secs {
				names = append(names, sec.Code)
			}
		}
	}
	slices.Sort(names)
	var out []ashare.Code
	for _, n := range slices.Compact(names) {
		code, err := ashare.ParseCode(n)
		if err != nil {
			continue
		}
		if _, err := a.chinaPrices.Prices(ctx, chinaprices.Query{Code: code, AsOf: asOf, Adjust: ashare.NoAdjust, Limit: 1}); err == nil {
			out = append(out, code)
		} else if !errors.Is(err, ports.ErrNotFound) {
			return nil, err
		}
	}
	return out, nil
}

// notSymbols are upper-case words a question holds that name no NSE
// security here: exchanges, currencies and series.
var notSymbols = map[string]bool{"NSE": true, "BSE": true, "SSE": true, "SZSE": true, "BSE.": true, "INR": true, "CNY": true, "EQ": true, "ISIN": true, "OHLC": true, "IST": true}

// indiaSymbols are the NSE symbols the question names: its upper-case
// words (RELIANCE, M&M) that carried an EQ row by day.
func (a *Service) indiaSymbols(ctx context.Context, q Query, day string) ([]string, error) {
	var out []string
	for _, tok := range questionWords(q.Question) {
		tok = strings.TrimPrefix(tok, "NSE:")
		if len(tok) < 2 || notSymbols[tok] || strings.ToUpper(tok) != tok || strings.IndexFunc(tok, unicode.IsLetter) < 0 ||
			strings.ContainsRune(tok, '.') || slices.Contains(out, tok) {
			continue
		}
		_, err := a.indiaPrices.Resolve(ctx, indiaprices.Query{Symbol: tok, Series: "EQ", To: day, AsOf: q.AsOf})
		switch {
		case err == nil:
			out = append(out, tok)
		case !errors.Is(err, ports.ErrNotFound):
			return nil, err
		}
	}
	return out, nil
}

// questionWords are q's words as written (NFKC), with the punctuation
// around them and a possessive 's left off.
func questionWords(q string) []string {
	var out []string
	for _, f := range strings.Fields(question.NormalizeWidth(q)) {
		f = strings.Trim(f, ",;:?!()\"“”")
		f = strings.TrimSuffix(strings.TrimSuffix(f, "'s"), "’s")
		if f = strings.TrimRight(f, "."); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// titleRuns are the runs of capitalised words of q ("Kweichow Moutai",
// "Ping An Bank"), a question word leading one left off.
func titleRuns(q string) []string {
	var runs []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			runs = append(runs, strings.Join(cur, " "))
		}
		cur = nil
	}
	for _, w := range questionWords(q) {
		if rs := []rune(w); unicode.IsUpper(rs[0]) {
			if len(cur) == 0 && stopWords[strings.ToLower(w)] {
				continue
			}
			cur = append(cur, w)
			continue
		}
		flush()
	}
	flush()
	return runs
}
