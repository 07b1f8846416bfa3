package mongo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/quarrydata/quarry/domain/financials"
	"github.com/quarrydata/quarry/ports"
)

// latestDoc is one statement of one period kind of a filer as known from
// its latest filing (financials.Latest). Its rows are packed into one JSON
// string, as a company's facts are (see companyDoc).
type latestDoc struct {
	Head     statementHead `bson:",inline"`
	RowsJSON string        `bson:"rows_json"`
}

// statementHead is what a statement document (latestDoc, historyDoc)
// holds of its filer, its tickers, name and retrieval time, so that a
// request needs no other document, and the filer's latest filing date.
type statementHead struct {
	ID          string    `bson:"_id"`
	Tickers     []string  `bson:"tickers"`
	Name        string    `bson:"name"`
	RetrievedAt time.Time `bson:"retrieved_at"`
	Through     string    `bson:"through"`
}

func newStatementHead(c financials.Company, st financials.Statement, p financials.Period, through string) statementHead {
	return statementHead{ID: latestID(c.CIK, st, p), Tickers: c.Tickers, Name: c.Name, RetrievedAt: c.RetrievedAt.UTC(), Through: through}
}

// company is the filer of cik as the document names it, without facts.
func (h statementHead) company(cik string) financials.Company {
	return financials.Company{CIK: cik, Tickers: h.Tickers, Name: h.Name, RetrievedAt: h.RetrievedAt.UTC()}
}

// rowDoc mirrors financials.Row field for field, so the two convert
// directly and a new domain field fails to compile until it is stored.
type rowDoc struct {
	Start        string             `json:"start,omitempty"`
	End          string             `json:"end"`
	FiscalYear   int                `json:"fy"`
	FiscalPeriod string             `json:"fp"`
	Currency     string             `json:"cur"`
	Accession    string             `json:"accn"`
	Filed        string             `json:"filed"`
	Values       map[string]float64 `json:"values"`
}

func latestID(cik string, st financials.Statement, p financials.Period) string {
	return cik + "/" + string(st) + "/" + string(p)
}

func toLatestDoc(c financials.Company, l financials.Latest) (latestDoc, error) {
	rows := make([]rowDoc, len(l.Rows))
	for i, r := range l.Rows {
		rows[i] = rowDoc(r)
	}
	packed, err := json.Marshal(rows)
	if err != nil {
		return latestDoc{}, fmt.Errorf("mongo: pack the %s %s of %s: %w", l.Period, l.Statement, c.CIK, err)
	}
	return latestDoc{Head: newStatementHead(c, l.Statement, l.Period, l.Through), RowsJSON: string(packed)}, nil
}

// LatestStatement reads the statement's document by _id. A company written
// before these documents existed has none: its statement is computed from
// its facts, as the document would hold it.
func (s *Financials) LatestStatement(ctx context.Context, cik string, st financials.Statement, p financials.Period) (financials.Company, financials.Latest, error) {
	d, found, err := statementDoc[latestDoc](ctx, s.latest, "latest statement", cik, st, p)
	if err != nil {
		return financials.Company{}, financials.Latest{}, err
	}
	if !found {
		return fromFacts(ctx, s, cik, func(c financials.Company) financials.Latest { return financials.LatestStatement(c, st, p) })
	}
	var rows []rowDoc
	if err := json.Unmarshal([]byte(d.RowsJSON), &rows); err != nil {
		return financials.Company{}, financials.Latest{}, fmt.Errorf("%w: statement %s: packed rows: %w", ports.ErrUnavailable, d.Head.ID, err)
	}
	l := financials.Latest{Statement: st, Period: p, Through: d.Head.Through, Rows: make([]financials.Row, len(rows))}
	for i, r := range rows {
		l.Rows[i] = financials.Row(r)
	}
	return d.Head.company(cik), l, nil
}

// statementDoc reads the document of one statement of a filer from c by
// _id; found is false when there is none.
func statementDoc[D any](ctx context.Context, c *mongodrv.Collection, what, cik string, st financials.Statement, p financials.Period) (d D, found bool, err error) {
	err = c.FindOne(ctx, bson.D{{Key: "_id", Value: latestID(cik, st, p)}}).Decode(&d)
	if err == nil {
		return d, true, nil
	}
	if err = translate("find "+what+" of "+cik, err); errors.Is(err, ports.ErrNotFound) {
		return d, false, nil
	}
	return d, false, err
}

// fromFacts computes from a company's facts what a statement document
// would hold, for a company written before such documents existed.
func fromFacts[T any](ctx context.Context, s *Financials, cik string, compute func(financials.Company) T) (financials.Company, T, error) {
	var none T
	c, err := s.Company(ctx, cik)
	if err != nil {
		return financials.Company{}, none, err
	}
	v := compute(c)
	c.Facts = nil
	return c, v, nil
}
