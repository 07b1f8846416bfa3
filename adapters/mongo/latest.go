package mongo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/quarrydata/quarry/domain/financials"
	"github.com/quarrydata/quarry/ports"
)

// latestDoc is one statement of one period kind of a filer as known from
// its latest filing (financials.Latest), with the filer's tickers, name and
// retrieval time so that a request needs no other document. Its rows are
// packed into one JSON string, as a company's facts are (see companyDoc).
type latestDoc struct {
	ID          string    `bson:"_id"`
	Tickers     []string  `bson:"tickers"`
	Name        string    `bson:"name"`
	RetrievedAt time.Time `bson:"retrieved_at"`
	Through     string    `bson:"through"`
	RowsJSON    string    `bson:"rows_json"`
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
	return latestDoc{ID: latestID(c.CIK, l.Statement, l.Period), Tickers: c.Tickers, Name: c.Name,
		RetrievedAt: c.RetrievedAt.UTC(), Through: l.Through, RowsJSON: string(packed)}, nil
}

// LatestStatement reads the statement's document by _id. A company written
// before these documents existed has none: its statement is computed from
// its facts, as the document would hold it.
func (s *Financials) LatestStatement(ctx context.Context, cik string, st financials.Statement, p financials.Period) (financials.Company, financials.Latest, error) {
	var d latestDoc
	err := s.latest.FindOne(ctx, bson.D{{Key: "_id", Value: latestID(cik, st, p)}}).Decode(&d)
	if err != nil {
		if err = translate("find latest statement of "+cik, err); !errors.Is(err, ports.ErrNotFound) {
			return financials.Company{}, financials.Latest{}, err
		}
		return s.latestFromFacts(ctx, cik, st, p)
	}
	var rows []rowDoc
	if err := json.Unmarshal([]byte(d.RowsJSON), &rows); err != nil {
		return financials.Company{}, financials.Latest{}, fmt.Errorf("%w: statement %s: packed rows: %w", ports.ErrUnavailable, d.ID, err)
	}
	l := financials.Latest{Statement: st, Period: p, Through: d.Through, Rows: make([]financials.Row, len(rows))}
	for i, r := range rows {
		l.Rows[i] = financials.Row(r)
	}
	return financials.Company{CIK: cik, Tickers: d.Tickers, Name: d.Name, RetrievedAt: d.RetrievedAt.UTC()}, l, nil
}

// latestFromFacts computes one statement from the company's facts.
func (s *Financials) latestFromFacts(ctx context.Context, cik string, st financials.Statement, p financials.Period) (financials.Company, financials.Latest, error) {
	c, err := s.Company(ctx, cik)
	if err != nil {
		return financials.Company{}, financials.Latest{}, err
	}
	l := financials.LatestStatement(c, st, p)
	c.Facts = nil
	return c, l, nil
}
