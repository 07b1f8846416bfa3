package mongo

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/quarrydata/quarry/ports"
)

// Writes of sections, and of judgments, are numbered so that a reader can
// fetch only the documents written since it last looked. Each write
// inserts one document into the dataset's collection of writes (writeLog),
// its number zero-padded as the _id:
//
//	{_id: "00000000000000000042", renewed: <time>, done: false}
//
// The number is taken by inserting it: the unique _id is the one guarantee
// FerretDB gives without transactions (a conditional update is a read and
// a write there, which two writers can interleave), so two writers never
// share a number, and numbers are taken in order, one above the highest
// held. The writer stamps its documents with the number, renews the
// write's document while it writes, and marks it done at the end. A
// reader's mark is the number below the lowest write still under way, or
// the highest number when none is. A write not renewed for abandonedAfter
// is a writer that died: it no longer holds the mark back.
const (
	abandonedAfter = time.Hour
	// reserveTries bounds the retries of taking a number; each fails only
	// when another writer took the same one first.
	reserveTries = 100
	// keptWrites is how many finished write documents a writer leaves
	// behind it when it prunes; the highest one must stay.
	keptWrites = 16
)

// writeLog numbers the writes of one dataset's documents in its collection
// c; what names the documents in errors ("section", "judgment").
type writeLog struct {
	c    *mongodrv.Collection
	what string
}

type writeDoc struct {
	ID      string    `bson:"_id"`
	Renewed time.Time `bson:"renewed"`
	Done    bool      `bson:"done"`
}

func writeID(seq int64) string { return fmt.Sprintf("%020d", seq) }

func (d writeDoc) seq() (int64, error) { return strconv.ParseInt(d.ID, 10, 64) }

// begin takes the next number by inserting it, under way.
func (l writeLog) begin(ctx context.Context) (int64, error) {
	for range reserveTries {
		writes, err := l.read(ctx)
		if err != nil {
			return 0, err
		}
		seq := highest(writes) + 1
		_, err = l.c.InsertOne(ctx, writeDoc{ID: writeID(seq), Renewed: time.Now().UTC()})
		if err = translate("number a "+l.what+" write", err); !errors.Is(err, ports.ErrConflict) {
			return seq, err
		}
	}
	return 0, fmt.Errorf("mongo: number a %s write: %w: %d writers raced", l.what, ports.ErrUnavailable, reserveTries)
}

// renew tells readers the write is still under way.
func (l writeLog) renew(ctx context.Context, seq int64) error {
	_, err := l.c.UpdateOne(ctx, bson.D{{Key: "_id", Value: writeID(seq)}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "renewed", Value: time.Now().UTC()}}}})
	return translate("renew a "+l.what+" write", err)
}

// end marks the write done and prunes finished writes well below it.
func (l writeLog) end(ctx context.Context, seq int64) error {
	_, err := l.c.UpdateOne(ctx, bson.D{{Key: "_id", Value: writeID(seq)}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "done", Value: true}}}})
	if err != nil || seq <= keptWrites {
		return translate("end a "+l.what+" write", err)
	}
	_, err = l.c.DeleteMany(ctx, bson.D{
		{Key: "_id", Value: bson.D{{Key: "$lt", Value: writeID(seq - keptWrites)}}},
		{Key: "done", Value: true},
	})
	return translate("prune finished "+l.what+" writes", err)
}

// read returns the write documents held, few once pruned.
func (l writeLog) read(ctx context.Context) ([]writeDoc, error) {
	cur, err := l.c.Find(ctx, bson.D{}, options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		return nil, translate("find "+l.what+" writes", err)
	}
	var docs []writeDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, translate("read "+l.what+" writes", err)
	}
	return docs, nil
}

// highest is the highest number taken, 0 before the first write. Write
// documents that do not hold a number are not ours and are passed over.
func highest(writes []writeDoc) int64 {
	var top int64
	for _, w := range writes {
		if seq, err := w.seq(); err == nil {
			top = max(top, seq)
		}
	}
	return top
}

// settled is the highest number at or below which no write is under way,
// as of now.
func (l writeLog) settled(ctx context.Context, now time.Time) (int64, error) {
	writes, err := l.read(ctx)
	if err != nil {
		return 0, err
	}
	settled := highest(writes)
	for _, w := range writes {
		seq, err := w.seq()
		if err != nil || w.Done || now.Sub(w.Renewed) > abandonedAfter {
			continue
		}
		settled = min(settled, seq-1)
	}
	return settled, nil
}

// numberedWrite is one write of a writer that takes its number only once
// it writes a document (the numberer it passes writeNumbered), so a write
// that changes nothing takes none, and renews and ends nothing.
type numberedWrite struct {
	log writeLog
	seq int64
}

func (w *numberedWrite) number(ctx context.Context) (int64, error) {
	if w.seq != 0 {
		return w.seq, nil
	}
	seq, err := w.log.begin(ctx)
	if err == nil {
		w.seq = seq
	}
	return seq, err
}

func (w *numberedWrite) renew(ctx context.Context) error {
	if w.seq == 0 {
		return nil
	}
	return w.log.renew(ctx, w.seq)
}

func (w *numberedWrite) end(ctx context.Context) error {
	if w.seq == 0 {
		return nil
	}
	return w.log.end(ctx, w.seq)
}
