// Package mongo is the MongoDB adapter of the dataset ports. It works against
// MongoDB and against FerretDB, so it relies on neither transactions nor text
// indexes. Driver errors are translated into the ports sentinels and no
// driver type crosses a port. Each dataset has a store of its own (Securities,
// Financials, Filings, FundHoldings), declared in its own file with its
// collections, so a store missing a method of its port fails to compile.
package mongo

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"sync"

	"go.mongodb.org/mongo-driver/v2/bson"
	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/quarrydata/quarry/ports"
)

// bulkChunk caps the statements sent in one bulk write. FerretDB 1.x keeps
// the SQLite cursor of every statement in an update command open until the
// whole command ends, and holds at most 100 SQLite connections per database,
// so one command replacing 100 or more existing documents waits forever for a
// connection and wedges that database. Chunks of 32 leave room for concurrent
// writers and readers; MongoDB only pays a round trip per chunk.
const bulkChunk = 32

// bulkWrite applies models in order, chunk by chunk, stopping at the first
// failure. Like a single ordered bulk write it is not atomic: the chunks
// before a failure stay applied.
func bulkWrite(ctx context.Context, c *mongodrv.Collection, op string, models []mongodrv.WriteModel) error {
	for start := 0; start < len(models); start += bulkChunk {
		chunk := models[start:min(start+bulkChunk, len(models))]
		if _, err := c.BulkWrite(ctx, chunk, options.BulkWrite().SetOrdered(true)); err != nil {
			return translate(op, err)
		}
	}
	return nil
}

// digestField holds, in every document written by writeChanged, a digest of
// the document's other fields, so a write can tell an unchanged document
// from a changed one by reading this field alone.
const digestField = "digest"

// seqField holds, in a document written by a numbered write (writeLog),
// the number of the write that last changed it.
const seqField = "seq"

// versioned is a document to store under its _id, with the digest of its
// contents and, when its writes are numbered, the number of the write. It
// is stored as Doc's fields plus digestField and seqField; the digest is of
// Doc alone, so a document written again unchanged is still unchanged.
type versioned[T any] struct {
	Doc    T      `bson:",inline"`
	Digest string `bson:"digest"`
	Seq    int64  `bson:"seq,omitempty"`
}

// withDigest computes doc's digest: SHA-256 of its BSON, 128 bits kept.
func withDigest[T any](doc T) (versioned[T], error) {
	raw, err := bson.Marshal(doc)
	if err != nil {
		return versioned[T]{}, err
	}
	sum := sha256.Sum256(raw)
	return versioned[T]{Doc: doc, Digest: base64.RawStdEncoding.EncodeToString(sum[:16])}, nil
}

// digestLookup says, for the _ids asked about, the digest each stored
// document carries ("" for one stored without a digest); an _id not
// stored is absent. It is told what writeChanged wrote.
type digestLookup interface {
	digests(ctx context.Context, c *mongodrv.Collection, ids []string) (map[string]string, error)
	wrote(id, digest string)
}

// wholeCollection reads the _id and digest of every document of the
// collection in one query at each write. It suits a write that covers most
// of a collection, such as a listings file: FerretDB filters in SQL on
// {_id: <string>} only, so a query for a list of _ids reads the whole
// collection anyway.
type wholeCollection struct{}

func (wholeCollection) digests(ctx context.Context, c *mongodrv.Collection, _ []string) (map[string]string, error) {
	out := map[string]string{}
	err := eachDigest(ctx, c, bson.D{}, func(id, digest string) { out[id] = digest })
	return out, err
}

func (wholeCollection) wrote(string, string) {}

// eachDigest reads the _id and digest of every document of c that filter
// matches.
func eachDigest(ctx context.Context, c *mongodrv.Collection, filter bson.D, fn func(id, digest string)) error {
	cur, err := c.Find(ctx, filter, options.Find().SetProjection(bson.D{{Key: digestField, Value: 1}}))
	if err != nil {
		return err
	}
	for cur.Next(ctx) {
		var d struct {
			ID     string `bson:"_id"`
			Digest string `bson:"digest"`
		}
		if err := cur.Decode(&d); err != nil {
			_ = cur.Close(ctx)
			return err
		}
		fn(d.ID, d.Digest)
	}
	return errors.Join(cur.Err(), cur.Close(ctx))
}

// readOnce reads the _id and digest of every document of the collection in
// one query, at the first write, and keeps them up to date with its own
// writes. It suits many small batches written into a large collection, as
// an ingestion run writes 64 companies at a time among thousands: on
// FerretDB 1.x a lookup by _id reads the whole collection when the
// document does not exist, and takes milliseconds when it does, so looking
// up each batch's _ids would cost a run time quadratic in its size.
//
// What it holds is as of its first write. A document another writer
// inserts since is found by writeChanged's insert failing as a duplicate,
// and replaced; one another writer deletes is recreated by the upsert that
// replaces it. One another writer changes since, to contents that differ
// from this store's, is left as that writer wrote it when this store
// writes the contents it read at first: writers of one dataset are meant
// to run one at a time, and running the ingestion again settles it.
type readOnce struct {
	mu     sync.Mutex
	loaded bool
	stored map[string]string
}

func (l *readOnce) digests(ctx context.Context, c *mongodrv.Collection, ids []string) (map[string]string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.loaded {
		l.stored = map[string]string{}
		if err := eachDigest(ctx, c, bson.D{}, func(id, digest string) { l.stored[id] = digest }); err != nil {
			return nil, err
		}
		l.loaded = true
	}
	out := make(map[string]string, len(ids))
	for _, id := range ids {
		if d, ok := l.stored[id]; ok {
			out[id] = d
		}
	}
	return out, nil
}

func (l *readOnce) wrote(id, digest string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.loaded {
		l.stored[id] = digest
	}
}

// writeChanged stores docs by _id (ids[i] is the _id of docs[i]) and
// writes only what differs from the store: documents not stored are
// inserted in one unordered InsertMany, which FerretDB runs about a hundred
// times faster than upserts, documents stored with another digest are
// replaced, and the rest are left alone, so writing the same documents
// again sends no write at all. When an _id is given twice, the last wins.
// A document another writer inserts in the meantime is replaced instead.
// Like bulkWrite it is not atomic: a failure leaves what came before it
// applied. It returns how many documents it inserted or replaced.
func writeChanged[T any](ctx context.Context, c *mongodrv.Collection, op string, lookup digestLookup, ids []string, docs []T) (int, error) {
	return writeNumbered(ctx, c, op, lookup, ids, docs, nil)
}

// numberer returns the number of the write under way (writeLog), taking
// it on its first call.
type numberer func(ctx context.Context) (int64, error)

// writeNumbered is writeChanged stamping what it writes with the number
// number returns, asked only when something differs: writing the same
// documents again takes no number, so readers of what was written since
// their mark (seqField) find nothing new and read nothing. A nil number
// stamps nothing.
func writeNumbered[T any](ctx context.Context, c *mongodrv.Collection, op string, lookup digestLookup, ids []string, docs []T, number numberer) (int, error) {
	changedIDs, changed, stored, err := changedDocs(ctx, c, op, lookup, ids, docs)
	if err != nil || len(changed) == 0 {
		return 0, err
	}
	if number != nil {
		seq, err := number(ctx)
		if err != nil {
			return 0, err
		}
		for i := range changed {
			changed[i].Seq = seq
		}
	}
	var inserts []any
	var insertIDs []string
	var replaces []mongodrv.WriteModel
	for i, id := range changedIDs {
		if _, ok := stored[id]; ok {
			replaces = append(replaces, replaceModel(id, changed[i]))
		} else {
			inserts, insertIDs = append(inserts, changed[i]), append(insertIDs, id)
		}
	}
	if err := insertOrReplace(ctx, c, op, inserts, insertIDs, replaces); err != nil {
		return 0, err
	}
	for i, id := range changedIDs {
		lookup.wrote(id, changed[i].Digest)
	}
	return len(changed), nil
}

// changedDocs returns the _ids and the documents, with their digests, of
// the documents of docs whose digest differs from the one stored under
// their _id (ids[i] is the _id of docs[i]; when an _id is given twice, the
// last wins), and the digests stored.
func changedDocs[T any](ctx context.Context, c *mongodrv.Collection, op string, lookup digestLookup, ids []string, docs []T) ([]string, []versioned[T], map[string]string, error) {
	last := map[string]int{}
	for i, id := range ids {
		last[id] = i
	}
	unique := make([]string, 0, len(last))
	for i, id := range ids {
		if last[id] == i {
			unique = append(unique, id)
		}
	}
	stored, err := lookup.digests(ctx, c, unique)
	if err != nil {
		return nil, nil, nil, translate(op, err)
	}
	var changedIDs []string
	var changed []versioned[T]
	for _, id := range unique {
		v, err := withDigest(docs[last[id]])
		if err != nil {
			return nil, nil, nil, fmt.Errorf("mongo: %s: %s: %w", op, id, err)
		}
		if digest, ok := stored[id]; !ok || digest != v.Digest {
			changedIDs, changed = append(changedIDs, id), append(changed, v)
		}
	}
	return changedIDs, changed, stored, nil
}

// insertOrReplace inserts inserts (insertIDs their _ids) in one unordered
// InsertMany, replacing those another writer inserted meanwhile, then
// applies replaces.
func insertOrReplace(ctx context.Context, c *mongodrv.Collection, op string, inserts []any, insertIDs []string, replaces []mongodrv.WriteModel) error {
	if len(inserts) > 0 {
		_, err := c.InsertMany(ctx, inserts, options.InsertMany().SetOrdered(false))
		var bwe mongodrv.BulkWriteException
		switch {
		case err == nil:
		case errors.As(err, &bwe) && bwe.WriteConcernError == nil && allDuplicates(bwe):
			for _, we := range bwe.WriteErrors {
				replaces = append(replaces, replaceModel(insertIDs[we.Index], inserts[we.Index]))
			}
		default:
			return translate(op, err)
		}
	}
	return bulkWrite(ctx, c, op, replaces)
}

func replaceModel(id string, doc any) mongodrv.WriteModel {
	return mongodrv.NewReplaceOneModel().SetFilter(bson.D{{Key: "_id", Value: id}}).SetReplacement(doc).SetUpsert(true)
}

// allDuplicates reports whether every write error of e is a duplicate key.
func allDuplicates(e mongodrv.BulkWriteException) bool {
	if len(e.WriteErrors) == 0 {
		return false
	}
	for _, we := range e.WriteErrors {
		if !mongodrv.IsDuplicateKeyError(we) {
			return false
		}
	}
	return true
}

// translate maps a driver error onto the ports sentinels, naming the
// operation that failed. Anything but a missing document or a duplicate key
// means the store failed, hence ErrUnavailable.
func translate(op string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, mongodrv.ErrNoDocuments):
		return fmt.Errorf("mongo: %s: %w", op, ports.ErrNotFound)
	case mongodrv.IsDuplicateKeyError(err):
		return fmt.Errorf("mongo: %s: %w: %v", op, ports.ErrConflict, err)
	default:
		return unavailable(op, err)
	}
}

// unavailable wraps err as ErrUnavailable. The driver error is kept as text
// only, so callers cannot reach driver types through errors.As, but the
// caller's own cancellation or deadline stays visible to errors.Is: a
// request whose client went away is not an outage.
func unavailable(op string, err error) error {
	for _, ctxErr := range []error{context.Canceled, context.DeadlineExceeded} {
		if errors.Is(err, ctxErr) {
			return fmt.Errorf("mongo: %s: %w: %v (%w)", op, ports.ErrUnavailable, err, ctxErr)
		}
	}
	return fmt.Errorf("mongo: %s: %w: %v", op, ports.ErrUnavailable, err)
}
