package ask

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/app/fundholders"

	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/holdings"
	"github.com/quarrydata/quarry/domain/question"
	"github.com/quarrydata/quarry/ports"
)

// maxHolderPositions bounds the positions a holder question reads.
const maxHolderPositions = 1000

// WithHolders makes a answer 13F holder questions from h.
func (a *Service) WithHolders(h *fundholders.Service) *Service {
	a.holders = h
	a.sources = append(a.sources, h.Probe())
	return a
}

// holdersAnswer answers a 13F question about the one security the
// question names (a ticker, or a filer's name): its largest position by
// value (in the report period named, if one is), or the position of the fund named (in the report period of the
// day named, else its latest), among the positions known at asOf, as GET
// /us/security-fund-holders serves them.
func (a *Service) holdersAnswer(ctx context.Context, q Query, h question.Holders) ([]sentence, error) {
	sec, ok, err := a.heldSecurity(ctx, q.Question)
	if err != nil || !ok {
		return nil, err
	}
	page, err := a.holders.Holders(ctx, fundholders.Request{
		Keys:  []holdings.Key{{Kind: holdings.KeyCUSIP, Value: sec.CUSIP}},
		Query: holdings.Query{AsOf: q.AsOf, Limit: maxHolderPositions},
	})
	if errors.Is(err, ports.ErrNotFound) || err == nil && len(page.Holders) == 0 {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if h.Top {
		positions := page.Holders
		if h.Period != "" {
			// The largest of the quarter named: positions come largest
			// value first.
			positions = slices.DeleteFunc(slices.Clone(positions), func(r holdings.Holding) bool { return r.ReportPeriod != h.Period })
			if len(positions) == 0 {
				return nil, nil
			}
			page.Total = len(positions)
		}
		top := positions[0]
		s := holdingSentence(page.Security, top, q.AsOf)
		s.text = strings.TrimSuffix(s.text, ".") + ", " + rankSaid(page.Total, page.Security.Ticker, h.Period) + "."
		s.cite.Fields["positions"] = strconv.Itoa(page.Total)
		s.cite.Snippet = recordSnippet(s.cite.Fields)
		return []sentence{s}, nil
	}
	rows := fundRows(page.Holders, h.Fund, h.Period)
	out := make([]sentence, len(rows))
	for i, r := range rows {
		out[i] = holdingSentence(page.Security, r, q.AsOf)
	}
	return out, nil
}

// fundRows are the positions of the one fund whose name starts with the
// words of fund, in the report period named or else the latest one; none
// when no fund or two funds have that name.
func fundRows(all []holdings.Holding, fund, named string) []holdings.Holding {
	want := strings.Fields(question.NameKey(question.BareName(fund)))
	if len(want) == 0 {
		return nil
	}
	var rows []holdings.Holding
	ciks := map[string]bool{}
	for _, r := range all {
		have := strings.Fields(question.NameKey(r.FundName))
		if len(have) >= len(want) && slices.Equal(have[:len(want)], want) {
			rows = append(rows, r)
			ciks[r.FundCIK] = true
		}
	}
	if len(ciks) != 1 {
		return nil
	}
	period := ""
	for _, r := range rows {
		period = max(period, r.ReportPeriod)
	}
	if named != "" {
		period = named
	}
	return slices.DeleteFunc(rows, func(r holdings.Holding) bool { return r.ReportPeriod != period })
}

// holdingSentence says one position and cites its 13F filing.
func holdingSentence(sec holdings.Security, r holdings.Holding, asOf time.Time) sentence {
	fields := map[string]string{
		"fund_name": r.FundName, "fund_cik": r.FundCIK, "accession_number": r.Accession, "row": strconv.FormatInt(r.Row, 10),
		"report_period": r.ReportPeriod, "filing_date": r.FilingDate, "cusip": r.CUSIP, "issuer": r.Issuer, "ticker": sec.Ticker,
		"shares": strconv.FormatInt(r.Shares, 10), "share_type": r.ShareType, "value": strconv.FormatInt(r.Value, 10), "put_call": r.PutCall,
	}
	what := "shares"
	if r.ShareType == "PRN" {
		what = "in principal amount"
	}
	option := ""
	if r.PutCall != "" {
		option = " through " + strings.ToLower(r.PutCall) + " options"
	}
	text := fmt.Sprintf("%s reported %s %s of %s (%s)%s worth %s USD at %s, in its filing %s of %s.",
		r.FundName, fields["shares"], what, r.Issuer, sec.Ticker, option, fields["value"], r.ReportPeriod, r.Accession, r.FilingDate)
	return sentence{text: text, cite: Citation{
		Dataset: dataset.USFundHolders, DocumentID: r.Accession, Title: fmt.Sprintf("%s 13F %s, %s", r.FundName, r.Accession, r.ReportPeriod),
		Snippet: recordSnippet(fields), Fields: fields,
		Route: "GET /us/security-fund-holders?identifier=" + sec.Ticker + "&as_of=" + asOf.Format(time.RFC3339),
	}}
}

// heldSecurity is the one security of the master the question names by
// an upper-case ticker, a CUSIP or a CIK, or by a held filer's name.
func (a *Service) heldSecurity(ctx context.Context, q string) (holdings.Security, bool, error) {
	var found []holdings.Security
	try := func(keys []holdings.Key) error {
		sec, err := a.holders.Security(ctx, keys)
		if err == nil && !slices.Contains(found, sec) {
			found = append(found, sec)
		}
		if errors.Is(err, ports.ErrNotFound) {
			return nil
		}
		return err
	}
	for _, tok := range questionWords(q) {
		if strings.ToUpper(tok) != tok || len(tok) < 1 || tok == "13F" {
			continue
		}
		if keys, err := holdings.ParseIdentifier(tok); err == nil {
			if err := try(keys); err != nil {
				return holdings.Security{}, false, err
			}
		}
	}
	if len(found) == 0 {
		for _, run := range titleRuns(q) {
			p, err := a.company(ctx, run)
			if err != nil {
				return holdings.Security{}, false, err
			}
			if p != nil && p.Ticker != "" {
				err = try([]holdings.Key{{Kind: holdings.KeyTicker, Value: p.Ticker}})
			} else if p != nil {
				err = try([]holdings.Key{{Kind: holdings.KeyCIK, Value: p.CIK}})
			}
			if err != nil {
				return holdings.Security{}, false, err
			}
		}
	}
	if len(found) != 1 {
		return holdings.Security{}, false, nil
	}
	return found[0], true, nil
}

// rankSaid says where the largest position stands among the n the funds'
// filings known report in ticker (for the report period named).
func rankSaid(n int, ticker, period string) string {
	of := "the funds' filings known report"
	if period != "" {
		of = "reported for " + period
	}
	if n == 1 {
		return fmt.Sprintf("the only position in %s %s", ticker, of)
	}
	return fmt.Sprintf("the largest by value of the %d positions in %s %s", n, ticker, of)
}
