package mongo

import (
	"context"
	"fmt"

	"github.com/quarrydata/quarry/domain/financials"
	"github.com/quarrydata/quarry/ports"
)

// historyDoc is one statement of one period kind of a filer through its
// filing dates (financials.History). Its versions are packed (packJSON):
// Apple's nine histories hold about 1,700 rows.
type historyDoc struct {
	Head     statementHead `bson:",inline"`
	Versions []byte        `bson:"versions"`
}

// versionDoc mirrors financials.Version.
type versionDoc struct {
	Filed string    `json:"filed"`
	Rows  []rowDoc  `json:"rows,omitempty"`
	Gone  []spanDoc `json:"gone,omitempty"`
}

// spanDoc mirrors financials.Span.
type spanDoc struct {
	Start string `json:"start,omitempty"`
	End   string `json:"end"`
}

func toHistoryDoc(c financials.Company, h financials.History) (historyDoc, error) {
	versions := make([]versionDoc, len(h.Versions))
	for i, v := range h.Versions {
		versions[i] = versionDoc{Filed: v.Filed, Rows: make([]rowDoc, len(v.Rows)), Gone: make([]spanDoc, len(v.Gone))}
		for j, r := range v.Rows {
			versions[i].Rows[j] = rowDoc(r)
		}
		for j, s := range v.Gone {
			versions[i].Gone[j] = spanDoc(s)
		}
	}
	packed, err := packJSON(versions)
	if err != nil {
		return historyDoc{}, fmt.Errorf("mongo: pack the %s %s history of %s: %w", h.Period, h.Statement, c.CIK, err)
	}
	return historyDoc{Head: newStatementHead(c, h.Statement, h.Period, h.Through), Versions: packed}, nil
}

func (d historyDoc) history(st financials.Statement, p financials.Period) (financials.History, error) {
	var versions []versionDoc
	if err := unpackJSON(d.Versions, &versions); err != nil {
		return financials.History{}, fmt.Errorf("%w: statement history %s: %w", ports.ErrUnavailable, d.Head.ID, err)
	}
	h := financials.History{Statement: st, Period: p, Through: d.Head.Through}
	if len(versions) > 0 {
		h.Versions = make([]financials.Version, len(versions))
	}
	for i, v := range versions {
		h.Versions[i] = financials.Version{Filed: v.Filed}
		if len(v.Rows) > 0 {
			h.Versions[i].Rows = make([]financials.Row, len(v.Rows))
		}
		for j, r := range v.Rows {
			h.Versions[i].Rows[j] = financials.Row(r)
		}
		for _, s := range v.Gone {
			h.Versions[i].Gone = append(h.Versions[i].Gone, financials.Span(s))
		}
	}
	return h, nil
}

// upsertStatements writes the companies' statement histories and their
// statements as known from the latest filing, those that changed. They are
// written after the companies: until then a request reads the statements
// of the facts written before.
func (s *Financials) upsertStatements(ctx context.Context, companies []financials.Company) error {
	var ids []string
	var histories []historyDoc
	var latest []latestDoc
	for _, c := range companies {
		for _, h := range financials.HistoryOf(c) {
			hd, err := toHistoryDoc(c, h)
			if err != nil {
				return err
			}
			ld, err := toLatestDoc(c, h.Latest())
			if err != nil {
				return err
			}
			ids, histories, latest = append(ids, hd.Head.ID), append(histories, hd), append(latest, ld)
		}
	}
	if _, err := writeChanged(ctx, s.histories, "upsert statement histories", &s.historyIDs, ids, histories); err != nil {
		return err
	}
	_, err := writeChanged(ctx, s.latest, "upsert latest statements", &s.latestIDs, ids, latest)
	return err
}

// StatementHistory reads the history's document by _id. A company written
// before these documents existed has none: its history is computed from
// its facts, as the document would hold it.
func (s *Financials) StatementHistory(ctx context.Context, cik string, st financials.Statement, p financials.Period) (financials.Company, financials.History, error) {
	d, found, err := statementDoc[historyDoc](ctx, s.histories, "statement history", cik, st, p)
	if err != nil {
		return financials.Company{}, financials.History{}, err
	}
	if !found {
		return fromFacts(ctx, s, cik, func(c financials.Company) financials.History { return financials.HistoryStatement(c, st, p) })
	}
	h, err := d.history(st, p)
	if err != nil {
		return financials.Company{}, financials.History{}, err
	}
	return d.Head.company(cik), h, nil
}
