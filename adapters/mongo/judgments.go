package mongo

import (
	"context"
	"errors"
	"iter"
	"regexp"
	"slices"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/ports"
)

// judgmentsCollection holds one document per judgment, _id its judgment
// id, tokenized like everything Quarry stores of a judgment, with the
// digest writeChanged keeps.
//
// Writes of judgments are numbered (writeLog, in judgmentWritesCollection)
// and each judgment carries the number of the write that last changed it
// (seqField), so the serving process's periodic look for changed judgments
// (JudgmentVersions) reads nothing while nothing was written, and after a
// write reads what was written since its mark.
//
// Indexes: besides _id, {_id, digest} covers the reading of every
// judgment's version, and {seq, _id, digest} the reading of those written
// since a mark, so on MongoDB neither reads the documents and their texts
// (FerretDB 1.x ignores both and scans, as it does for every filter but _id
// equality: there a look after a write reads every judgment once), and
// {parties.token} finds the judgments of one party, so following a token
// across judgments is an index seek, and {decision_date, _id} orders an
// export's listing (JudgmentList).
const (
	judgmentsCollection      = "india_judgments"
	judgmentWritesCollection = "india_judgment_writes"
)

type judgmentPartyDoc struct {
	Token string `bson:"token"`
	Role  string `bson:"role"`
}

// judgmentDoc mirrors judgment.Judgment, so a new domain field fails to
// compile until it is stored.
type judgmentDoc struct {
	ID           string             `bson:"_id"`
	Court        string             `bson:"court"`
	Bench        string             `bson:"bench"`
	CaseNumber   string             `bson:"case_number"`
	Title        string             `bson:"title"`
	Parties      []judgmentPartyDoc `bson:"parties"`
	Judges       []string           `bson:"judges"`
	DecisionDate string             `bson:"decision_date"`
	Citations    []string           `bson:"citations"`
	Language     string             `bson:"language"`
	PageCount    int                `bson:"page_count"`
	Text         string             `bson:"text"`
	RetrievedAt  time.Time          `bson:"retrieved_at"`
}

// Judgments is the store of India court judgments.
type Judgments struct {
	c       *mongodrv.Collection
	writes  writeLog
	indexed sync.Once
	err     error
	// stored holds which judgments are stored, with their digests, read
	// at the first UpsertJudgments (see readOnce): an ingestion run
	// writes its judgments a batch at a time, and reading every stored
	// digest at each, which on FerretDB reads every judgment's text, made
	// the run quadratic in its size.
	stored readOnce
}

var _ ports.JudgmentStore = (*Judgments)(nil)

// NewJudgments returns the judgment store of db.
func NewJudgments(db *mongodrv.Database) *Judgments {
	return &Judgments{
		c:      db.Collection(judgmentsCollection),
		writes: writeLog{c: db.Collection(judgmentWritesCollection), what: "judgment"},
	}
}

// judgmentIndexes are the collection's indexes besides _id's, by name.
var judgmentIndexes = map[string]bson.D{
	"versions":     {{Key: "_id", Value: 1}, {Key: digestField, Value: 1}},
	"written":      {{Key: seqField, Value: 1}, {Key: "_id", Value: 1}, {Key: digestField, Value: 1}},
	"party_tokens": {{Key: "parties.token", Value: 1}},
	"decided":      {{Key: "decision_date", Value: 1}, {Key: "_id", Value: 1}},
}

// ensureIndexes creates the indexes the collection lacks, once per store,
// before its first write. Those present are left alone: FerretDB 1.24
// dropped the connection when an index that existed was created again
// while another process read the collection.
func (s *Judgments) ensureIndexes(ctx context.Context) error {
	s.indexed.Do(func() {
		specs, err := s.c.Indexes().ListSpecifications(ctx)
		if err != nil {
			s.err = translate("list judgment indexes", err)
			return
		}
		var missing []mongodrv.IndexModel
		for name, keys := range judgmentIndexes {
			if !slices.ContainsFunc(specs, func(sp mongodrv.IndexSpecification) bool { return sp.Name == name }) {
				missing = append(missing, mongodrv.IndexModel{Keys: keys, Options: options.Index().SetName(name)})
			}
		}
		if len(missing) > 0 {
			_, err = s.c.Indexes().CreateMany(ctx, missing)
		}
		s.err = translate("create judgment indexes", err)
	})
	return s.err
}

// Judgment returns the judgment with that id, or ports.ErrNotFound.
func (s *Judgments) Judgment(ctx context.Context, id string) (judgment.Judgment, error) {
	var d judgmentDoc
	if err := s.c.FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&d); err != nil {
		return judgment.Judgment{}, translate("find judgment "+id, err)
	}
	return fromJudgmentDoc(d), nil
}

// JudgmentsByID returns the judgments held under ids, ordered by id: the
// judgments of one page of search hits, each read by its _id (findByIDs).
func (s *Judgments) JudgmentsByID(ctx context.Context, ids []string) ([]judgment.Judgment, error) {
	docs, err := findByIDs[judgmentDoc](ctx, s.c, "find judgment", ids)
	if err != nil {
		return nil, err
	}
	out := make([]judgment.Judgment, len(docs))
	for i, d := range docs {
		out[i] = fromJudgmentDoc(d)
	}
	return out, nil
}

// UpsertJudgments writes the judgments that are new or changed, and only
// those (writeChanged), and says how many: they are compared with the
// digests read at the store's first write, kept current by its own
// writes (readOnce). Those it writes carry the
// number of this write, taken when the first of them is written: writing
// the same judgments again takes none. The write is registered as under
// way until it ends, renewed after every batch, so readers keep its
// judgments coming until they are all written (JudgmentVersions); a write
// that fails ends too, so it does not hold readers back.
func (s *Judgments) UpsertJudgments(ctx context.Context, js []judgment.Judgment) (int, error) {
	if len(js) == 0 {
		return 0, nil
	}
	if err := s.ensureIndexes(ctx); err != nil {
		return 0, err
	}
	w := &numberedWrite{log: s.writes}
	n, err := s.writeBatches(ctx, w, js)
	return n, errors.Join(err, w.end(context.WithoutCancel(ctx)))
}

// writeBatches writes js judgmentsBatch at a time, renewing w after each.
// The stored digests are read at the store's first write, then kept
// current by its own.
func (s *Judgments) writeBatches(ctx context.Context, w *numberedWrite, js []judgment.Judgment) (int, error) {
	n := 0
	for start := 0; start < len(js); start += judgmentsBatch {
		batch := js[start:min(start+judgmentsBatch, len(js))]
		ids := make([]string, len(batch))
		docs := make([]judgmentDoc, len(batch))
		for i, j := range batch {
			ids[i], docs[i] = j.ID, toJudgmentDoc(j)
		}
		wrote, err := writeNumbered(ctx, s.c, "upsert judgments", &s.stored, ids, docs, w.number)
		if n += wrote; err != nil {
			return n, err
		}
		if err := w.renew(ctx); err != nil {
			return n, err
		}
	}
	return n, nil
}

// judgmentsBatch is how many judgments are written between renewals of
// the write's registration.
const judgmentsBatch = 256

// JudgmentVersions returns the digest of every judgment written after
// mark (every judgment held for mark 0), and the mark to pass next time:
// one above the highest write number below which no write is under way,
// read before the judgments are. When no write has settled since mark,
// no judgment is read: one written since comes from a write still under
// way, and comes again once it has settled, and the filter on seq reads
// every judgment, text included, on FerretDB, which the serving process's
// look every QUARRY_MONGO_REFRESH must not do while nothing was written.
// Judgments written before writes were numbered carry no number; they
// come with mark 0.
func (s *Judgments) JudgmentVersions(ctx context.Context, mark int64) (map[string]string, int64, error) {
	settled, err := s.writes.settled(ctx, time.Now())
	if err != nil {
		return nil, 0, err
	}
	next := settled + 1
	out := map[string]string{}
	if mark > 0 && next <= mark {
		return out, mark, nil
	}
	filter := bson.D{}
	if mark > 0 {
		filter = bson.D{{Key: seqField, Value: bson.D{{Key: "$gte", Value: mark}}}}
	}
	err = eachDigest(ctx, s.c, filter, func(id, digest string) { out[id] = digest })
	if err != nil {
		return nil, 0, translate("judgment versions", err)
	}
	return out, next, nil
}

func toJudgmentDoc(j judgment.Judgment) judgmentDoc {
	parties := make([]judgmentPartyDoc, len(j.Parties))
	for i, p := range j.Parties {
		parties[i] = judgmentPartyDoc{Token: p.Token, Role: string(p.Role)}
	}
	return judgmentDoc{
		ID: j.ID, Court: j.Court, Bench: j.Bench, CaseNumber: j.CaseNumber, Title: j.Title, Parties: parties,
		Judges: nonNil(j.Judges), DecisionDate: j.DecisionDate, Citations: nonNil(j.Citations), Language: j.Language,
		PageCount: j.PageCount, Text: j.Text, RetrievedAt: j.RetrievedAt.UTC(),
	}
}

func fromJudgmentDoc(d judgmentDoc) judgment.Judgment {
	parties := make([]judgment.Party, len(d.Parties))
	for i, p := range d.Parties {
		parties[i] = judgment.Party{Token: p.Token, Role: judgment.Role(p.Role)}
	}
	return judgment.Judgment{
		ID: d.ID, Court: d.Court, Bench: d.Bench, CaseNumber: d.CaseNumber, Title: d.Title, Parties: parties,
		Judges: nonNil(d.Judges), DecisionDate: d.DecisionDate, Citations: nonNil(d.Citations), Language: d.Language,
		PageCount: d.PageCount, Text: d.Text, RetrievedAt: d.RetrievedAt.UTC(),
	}
}

// nonNil keeps an empty list a list: BSON would store nil as null.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// listBatch is how many judgments' metadata a listing's cursor fetches at
// a time.
const listBatch = 500

// JudgmentList yields the matching judgments' metadata by decision date
// then id, read through a cursor that leaves the text out on the server:
// FerretDB filters every field but _id after reading the documents, but
// the texts never reach this process, and a batch of metadata at a time
// is held. The court is matched case-insensitively by an anchored,
// escaped regular expression; on MongoDB the "decided" index serves the
// order.
func (s *Judgments) JudgmentList(ctx context.Context, q ports.JudgmentListQuery) iter.Seq2[judgment.Judgment, error] {
	return func(yield func(judgment.Judgment, error) bool) {
		opts := options.Find().
			SetProjection(bson.D{{Key: "text", Value: 0}, {Key: digestField, Value: 0}}).
			SetSort(bson.D{{Key: "decision_date", Value: 1}, {Key: "_id", Value: 1}}).
			SetBatchSize(listBatch)
		cur, err := s.c.Find(ctx, judgmentListFilter(q), opts)
		if err != nil {
			yield(judgment.Judgment{}, translate("list judgments", err))
			return
		}
		defer func() { _ = cur.Close(context.WithoutCancel(ctx)) }()
		for cur.Next(ctx) {
			var d judgmentDoc
			if err := cur.Decode(&d); err != nil {
				yield(judgment.Judgment{}, translate("decode judgment", err))
				return
			}
			if !yield(fromJudgmentDoc(d), nil) {
				return
			}
		}
		if err := cur.Err(); err != nil {
			yield(judgment.Judgment{}, translate("list judgments", err))
		}
	}
}

func judgmentListFilter(q ports.JudgmentListQuery) bson.D {
	var f bson.D
	if q.Court != "" {
		f = append(f, bson.E{Key: "court", Value: bson.D{{Key: "$regex", Value: "^" + regexp.QuoteMeta(q.Court) + "$"}, {Key: "$options", Value: "i"}}})
	}
	date := bson.D{}
	if q.DecidedFrom != "" {
		date = append(date, bson.E{Key: "$gte", Value: q.DecidedFrom})
	}
	if q.DecidedTo != "" {
		date = append(date, bson.E{Key: "$lte", Value: q.DecidedTo})
	}
	if len(date) > 0 {
		f = append(f, bson.E{Key: "decision_date", Value: date})
	}
	if f == nil {
		return bson.D{}
	}
	return f
}
