package mongo

import (
	"context"
	"regexp"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/ports"
)

// securitiesCollection holds one document per China A-share listing.
const securitiesCollection = "china_securities"

// Securities is the China A-share securities store. It needs no secondary
// index: a listing's _id is its canonical code, and the unique _id index
// every collection has is the code index. Keying by _id rather than by a
// uniquely indexed code field matters on FerretDB, whose SQLite backend
// filters only {_id: <string>} in SQL and decodes the whole collection in Go
// for any other filter (neither uses an index there; docs/benchmarks.md,
// "Figures behind the design").
type Securities struct {
	c *mongodrv.Collection
}

var _ ports.SecurityStore = (*Securities)(nil)

// NewSecurities returns the securities store of db.
func NewSecurities(db *mongodrv.Database) *Securities {
	return &Securities{c: db.Collection(securitiesCollection)}
}

// securityDoc is the stored form of ashare.Security. Its fields mirror the
// domain type one for one so the two convert directly; a field added to the
// domain type breaks the conversion at compile time until it is stored here.
type securityDoc struct {
	Code          string `bson:"_id"`
	Exchange      string `bson:"exchange"`
	Board         string `bson:"board"`
	CompanyName   string `bson:"company_name"`
	EnglishName   string `bson:"english_name,omitempty"`
	ListingDate   string `bson:"listing_date"`
	DelistingDate string `bson:"delisting_date,omitempty"`
	Listed        bool   `bson:"listed"`
	// RetrievedAt is absent from a listing stored before listings carried
	// it, and reads as zero.
	RetrievedAt time.Time `bson:"retrieved_at,omitempty"`
}

// Security returns the listing with that canonical code, or ports.ErrNotFound.
func (s *Securities) Security(ctx context.Context, code string) (ashare.Security, error) {
	var d securityDoc
	err := s.c.FindOne(ctx, bson.D{{Key: "_id", Value: code}}).Decode(&d)
	if err != nil {
		return ashare.Security{}, translate("find security "+code, err)
	}
	return ashare.Security(d), nil
}

// UpsertSecurities inserts or replaces the listings by code, writing only
// the listings that are new or differ from the stored ones (see
// writeChanged): a repeated batch writes nothing. One listings file is one
// batch, covering most of the collection, so the stored digests are read in
// one query. There is no transaction (FerretDB has none): a failed batch
// may be partly applied, and applying it again completes it.
func (s *Securities) UpsertSecurities(ctx context.Context, batch []ashare.Security) error {
	ids := make([]string, len(batch))
	docs := make([]securityDoc, len(batch))
	for i, sec := range batch {
		ids[i], docs[i] = sec.Code, securityDoc(sec)
	}
	_, err := writeChanged(ctx, s.c, "upsert securities", wholeCollection{}, ids, docs)
	return err
}

// SecuritiesByName returns the listings named name, by code. No index
// serves the filter (FerretDB would not use one, see Securities), so it
// reads the collection; Ask asks it once per question that names a
// listing in Chinese.
func (s *Securities) SecuritiesByName(ctx context.Context, name string) ([]ashare.Security, error) {
	cur, err := s.c.Find(ctx, bson.D{{Key: "company_name", Value: name}}, options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		return nil, translate("find securities by name", err)
	}
	var docs []securityDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, translate("read securities by name", err)
	}
	out := make([]ashare.Security, len(docs))
	for i, d := range docs {
		out[i] = ashare.Security(d)
	}
	return out, nil
}

// SearchSecurities returns one page of the listings q matches, by code.
// The exchange, board, listed state and digits are filtered by the server;
// the name is matched here, by ashare.NameKey, which no query expresses,
// so the page is cut here too. A search by name alone reads every listing,
// as SecuritiesByName does: a few thousand small documents.
func (s *Securities) SearchSecurities(ctx context.Context, q ashare.Search, offset, limit int) ([]ashare.Security, bool, error) {
	cur, err := s.c.Find(ctx, searchFilter(q), options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		return nil, false, translate("search securities", err)
	}
	var docs []securityDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, false, translate("read searched securities", err)
	}
	secs := make([]ashare.Security, len(docs))
	for i, d := range docs {
		secs[i] = ashare.Security(d)
	}
	page, more := q.Page(secs, offset, limit)
	return page, more, nil
}

// searchFilter is the part of q the server filters on.
func searchFilter(q ashare.Search) bson.D {
	filter := bson.D{}
	if q.Digits != "" {
		filter = append(filter, bson.E{Key: "_id", Value: bson.Regex{Pattern: `^[A-Z]+\.` + regexp.QuoteMeta(q.Digits)}})
	}
	if q.Exchange != "" {
		filter = append(filter, bson.E{Key: "exchange", Value: string(q.Exchange)})
	}
	if q.Board != "" {
		filter = append(filter, bson.E{Key: "board", Value: string(q.Board)})
	}
	if q.Listed != nil {
		filter = append(filter, bson.E{Key: "listed", Value: *q.Listed})
	}
	return filter
}

// CountSecurities returns how many listings are held.
func (s *Securities) CountSecurities(ctx context.Context) (int64, error) {
	n, err := s.c.CountDocuments(ctx, bson.D{})
	if err != nil {
		return 0, translate("count securities", err)
	}
	return n, nil
}
