package mongo

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/quarrydata/quarry/domain/financials"
	"github.com/quarrydata/quarry/ports"
)

// Collections of the US financial statements dataset. FerretDB filters in
// SQL only on {_id: <string>}, so both are keyed by _id: one document per
// filer with _id its 10-digit CIK, holding every mapped fact (a few thousand
// at most, far below the 16 MiB document limit) packed into one string (see
// companyDoc), and one document per ticker
// with _id the ticker, naming the CIK. Neither needs a secondary index.
// A third holds one small document per filer, _id its CIK, with its name's
// key (financials.NameKey), so finding a company by name scans small
// documents rather than the facts. A fourth holds each filer's statements
// as known from its latest filing (financials.Latest), one document per
// statement and period kind with _id "CIK/statement/period", so a request
// for today's statements reads its answer, not the filer's facts. A fifth
// holds each filer's statements through its filing dates
// (financials.HistoryOf), one document per statement and period kind with
// the same _id, so a request for an earlier as_of reads its statements'
// versions, not the filer's facts.
const (
	financialsCollection = "us_financials"
	tickersCollection    = "us_tickers"
	namesCollection      = "us_company_names"
	statementsCollection = "us_statements"
	historiesCollection  = "us_statement_histories"
)

// Financials is the US financial statements store, on its two collections.
type Financials struct {
	companies *mongodrv.Collection
	tickers   *mongodrv.Collection
	names     *mongodrv.Collection
	latest    *mongodrv.Collection
	histories *mongodrv.Collection
	// Which companies, tickers, names, statements and histories are
	// stored, for UpsertCompanies.
	companyIDs, tickerIDs, nameIDs, latestIDs, historyIDs readOnce
	// reads holds a token for each company document being read: a real
	// filer's read allocates about 25 MB on FerretDB over SQLite, so
	// concurrent cold requests are bounded in memory by companyReads reads,
	// not by the number of clients (docs/capacity.md).
	reads chan struct{}
}

// companyReads is how many company documents are read at once, and
// companyReadTimeout how long one may take.
const (
	companyReads       = 4
	companyReadTimeout = 30 * time.Second
)

var _ ports.FinancialsStore = (*Financials)(nil)

// NewFinancials returns the financial statements store of db.
func NewFinancials(db *mongodrv.Database) *Financials {
	return &Financials{
		companies: db.Collection(financialsCollection), tickers: db.Collection(tickersCollection),
		names: db.Collection(namesCollection), latest: db.Collection(statementsCollection),
		histories: db.Collection(historiesCollection),
		reads:     make(chan struct{}, companyReads),
	}
}

// companyDoc is one filer. Its facts are packed: FactsJSON is the JSON
// array of its factDocs, one string value, because FerretDB's SQLite
// backend decodes every value of a document it reads, each with an
// encoding/json decoder of its own: Apple's 2,500-odd mapped facts as
// subdocuments cost a read about 180 MB of allocations and a second, as one
// string about 1% of that (docs/capacity.md). Facts is the layout written
// before, still read from a document that has no FactsJSON; writing the
// company again packs it.
type companyDoc struct {
	CIK         string    `bson:"_id"`
	Tickers     []string  `bson:"tickers"`
	Name        string    `bson:"name"`
	RetrievedAt time.Time `bson:"retrieved_at"`
	FactsJSON   string    `bson:"facts_json,omitempty"`
	Facts       []factDoc `bson:"facts,omitempty"`
}

// factDoc mirrors financials.Fact field for field, so the two convert
// directly and a new domain field fails to compile until it is stored.
type factDoc struct {
	Concept      string  `bson:"concept" json:"concept"`
	Unit         string  `bson:"unit" json:"unit"`
	Start        string  `bson:"start,omitempty" json:"start,omitempty"`
	End          string  `bson:"end" json:"end"`
	Value        float64 `bson:"val" json:"val"`
	Accession    string  `bson:"accn" json:"accn"`
	FiscalYear   int     `bson:"fy" json:"fy"`
	FiscalPeriod string  `bson:"fp" json:"fp"`
	Form         string  `bson:"form" json:"form"`
	Filed        string  `bson:"filed" json:"filed"`
}

type tickerDoc struct {
	Ticker string `bson:"_id"`
	CIK    string `bson:"cik"`
}

// nameDoc is a filer's entry in the directory of companies: its name's
// key (financials.NameKey), matched by CIKsForName and SearchCompanies,
// and what SearchCompanies answers with. An entry written before the
// directory carried Name, Tickers and RetrievedAt holds only the key until
// its company is written again (see SearchCompanies).
type nameDoc struct {
	CIK         string    `bson:"_id"`
	Key         string    `bson:"key"`
	Name        string    `bson:"name,omitempty"`
	Tickers     []string  `bson:"tickers,omitempty"`
	RetrievedAt time.Time `bson:"retrieved_at"`
}

func toCompanyDoc(c financials.Company) (companyDoc, error) {
	facts := make([]factDoc, len(c.Facts))
	for i, f := range c.Facts {
		facts[i] = factDoc(f)
	}
	packed, err := json.Marshal(facts)
	if err != nil {
		return companyDoc{}, fmt.Errorf("mongo: pack the facts of %s: %w", c.CIK, err)
	}
	return companyDoc{CIK: c.CIK, Tickers: c.Tickers, Name: c.Name, RetrievedAt: c.RetrievedAt.UTC(), FactsJSON: string(packed)}, nil
}

func (d companyDoc) company() (financials.Company, error) {
	stored := d.Facts
	if d.FactsJSON != "" {
		stored = nil
		if err := json.Unmarshal([]byte(d.FactsJSON), &stored); err != nil {
			return financials.Company{}, fmt.Errorf("%w: company %s: packed facts: %w", ports.ErrUnavailable, d.CIK, err)
		}
	}
	var facts []financials.Fact
	if len(stored) > 0 {
		facts = make([]financials.Fact, len(stored))
	}
	for i, f := range stored {
		facts[i] = financials.Fact(f)
	}
	return financials.Company{CIK: d.CIK, Tickers: d.Tickers, Name: d.Name, RetrievedAt: d.RetrievedAt.UTC(), Facts: facts}, nil
}

// UpsertCompanies replaces each company document by CIK, then points its
// tickers at it, writing only the documents that are new or differ from the
// stored ones (see writeChanged): a repeated batch writes nothing. An
// ingestion run writes a large collection a small batch at a time, so each
// batch is compared with the digests read at the first (see readOnce). Companies are written before tickers, so a
// ticker never names a company the store lacks. There is no transaction
// (FerretDB has none): a failed batch may be partly applied, and applying
// it again completes it.
func (s *Financials) UpsertCompanies(ctx context.Context, companies []financials.Company) error {
	var ciks, tickers []string
	var docs []companyDoc
	var tickerDocs []tickerDoc
	var nameDocs []nameDoc
	for _, c := range companies {
		doc, err := toCompanyDoc(c)
		if err != nil {
			return err
		}
		ciks, docs = append(ciks, c.CIK), append(docs, doc)
		nameDocs = append(nameDocs, nameDoc{CIK: c.CIK, Key: financials.NameKey(c.Name), Name: c.Name, Tickers: c.Tickers, RetrievedAt: c.RetrievedAt.UTC()})
		for _, t := range c.Tickers {
			tickers, tickerDocs = append(tickers, t), append(tickerDocs, tickerDoc{Ticker: t, CIK: c.CIK})
		}
	}
	if len(docs) == 0 {
		return nil
	}
	if _, err := writeChanged(ctx, s.companies, "upsert companies", &s.companyIDs, ciks, docs); err != nil {
		return err
	}
	if err := s.upsertStatements(ctx, companies); err != nil {
		return err
	}
	if _, err := writeChanged(ctx, s.names, "upsert company names", &s.nameIDs, ciks, nameDocs); err != nil {
		return err
	}
	_, err := writeChanged(ctx, s.tickers, "upsert tickers", &s.tickerIDs, tickers, tickerDocs)
	return err
}

// CIKsForName returns the CIKs of the companies the name names, by an
// anchored regular expression on the name keys, checked again with
// financials.NameMatches.
func (s *Financials) CIKsForName(ctx context.Context, name string) ([]string, error) {
	asked := financials.NameKey(name)
	ciks := []string{}
	if asked == "" {
		return ciks, nil
	}
	filter := bson.D{{Key: "key", Value: bson.Regex{Pattern: "^" + regexp.QuoteMeta(asked)}}}
	cur, err := s.names.Find(ctx, filter, options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		return nil, translate("find company names", err)
	}
	var docs []nameDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, translate("read company names", err)
	}
	for _, d := range docs {
		if financials.NameMatches(d.Key, asked) {
			ciks = append(ciks, d.CIK)
		}
	}
	return ciks, nil
}

// SearchCompanies returns one page of the companies q matches, by CIK,
// filtered and cut by the server on the directory's small documents. An
// entry written before the directory carried names and tickers is matched
// by CIK and name, not by ticker, and answered with the name and tickers
// of its company document, until the company is written again.
func (s *Financials) SearchCompanies(ctx context.Context, q financials.CompanySearch, offset, limit int) ([]financials.Company, bool, error) {
	opts := options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}).SetSkip(int64(offset)).SetLimit(int64(limit) + 1)
	cur, err := s.names.Find(ctx, companyFilter(q), opts)
	if err != nil {
		return nil, false, translate("search companies", err)
	}
	var docs []nameDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, false, translate("read searched companies", err)
	}
	more := len(docs) > limit
	out := make([]financials.Company, 0, min(len(docs), limit))
	for _, d := range docs[:min(len(docs), limit)] {
		c := financials.Company{CIK: d.CIK, Name: d.Name, Tickers: d.Tickers, RetrievedAt: d.RetrievedAt.UTC()}
		if d.Name == "" {
			if c, err = s.directoryEntry(ctx, d.CIK); err != nil {
				return nil, false, err
			}
		}
		out = append(out, c)
	}
	return out, more, nil
}

// companyFilter is q as a filter on the directory.
func companyFilter(q financials.CompanySearch) bson.D {
	filter := bson.D{}
	if q.CIK != "" {
		// financials.MatchesCIK: a prefix with a leading zero is one of the
		// 10-digit form, any other one of the number.
		pattern := "^" + regexp.QuoteMeta(q.CIK)
		if q.CIK[0] != '0' {
			pattern = "^0*" + regexp.QuoteMeta(q.CIK)
		}
		filter = append(filter, bson.E{Key: "_id", Value: bson.Regex{Pattern: pattern}})
	}
	if q.Name != "" {
		filter = append(filter, bson.E{Key: "key", Value: bson.Regex{Pattern: regexp.QuoteMeta(q.Name)}})
	}
	if q.Ticker != "" {
		filter = append(filter, bson.E{Key: "tickers", Value: bson.Regex{Pattern: "^" + regexp.QuoteMeta(q.Ticker)}})
	}
	return filter
}

// directoryEntry reads the name, tickers and retrieval time of the company
// with that CIK from its company document, leaving its facts unread.
func (s *Financials) directoryEntry(ctx context.Context, cik string) (financials.Company, error) {
	var d companyDoc
	opts := options.FindOne().SetProjection(bson.D{{Key: "tickers", Value: 1}, {Key: "name", Value: 1}, {Key: "retrieved_at", Value: 1}})
	if err := s.companies.FindOne(ctx, bson.D{{Key: "_id", Value: cik}}, opts).Decode(&d); err != nil {
		return financials.Company{}, translate("find company "+cik, err)
	}
	return financials.Company{CIK: d.CIK, Name: d.Name, Tickers: d.Tickers, RetrievedAt: d.RetrievedAt.UTC()}, nil
}

// Company returns the company with that CIK, or ports.ErrNotFound.
func (s *Financials) Company(ctx context.Context, cik string) (financials.Company, error) {
	select {
	case s.reads <- struct{}{}:
		defer func() { <-s.reads }()
	case <-ctx.Done():
		return financials.Company{}, translate("find company "+cik, ctx.Err())
	}
	// A read its caller gives up on still runs to its end in FerretDB, so it
	// keeps its token until then: cancelling ctx would free the token at
	// once and let abandoned reads pile up past the bound.
	readCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), companyReadTimeout)
	defer cancel()
	var d companyDoc
	if err := s.companies.FindOne(readCtx, bson.D{{Key: "_id", Value: cik}}).Decode(&d); err != nil {
		return financials.Company{}, translate("find company "+cik, err)
	}
	return d.company()
}

// CIKForTicker returns the CIK the ticker names, or ports.ErrNotFound.
func (s *Financials) CIKForTicker(ctx context.Context, ticker string) (string, error) {
	var d tickerDoc
	if err := s.tickers.FindOne(ctx, bson.D{{Key: "_id", Value: ticker}}).Decode(&d); err != nil {
		return "", translate("find ticker "+ticker, err)
	}
	return d.CIK, nil
}

// CountCompanies returns how many companies are held, by counting their
// small name documents: FerretDB counts by reading every document of a
// collection, and the companies' are large (at 1,800 real-size filers,
// 1 GB: a minute for the readiness probe). Every company written has its
// name document written in the same call, after it.
func (s *Financials) CountCompanies(ctx context.Context) (int64, error) {
	n, err := s.names.CountDocuments(ctx, bson.D{})
	if err != nil {
		return 0, translate("count companies", err)
	}
	return n, nil
}
