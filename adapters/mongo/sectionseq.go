package mongo

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/quarrydata/quarry/ports"
)

// Writes of sections are numbered so that a reader can fetch only the
// sections written since it last looked. Each write inserts one document
// into writesCollection, its number zero-padded as the _id:
//
//	{_id: "00000000000000000042", renewed: <time>, done: false}
//
// The number is taken by inserting it: the unique _id is the one guarantee
// FerretDB gives without transactions (a conditional update is a read and
// a write there, which two writers can interleave), so two writers never
// share a number, and numbers are taken in order, one above the highest
// held. The writer stamps its sections with the number, renews the
// document while it writes, and marks it done at the end. A reader's mark
// is the number below the lowest write still under way, or the highest
// number when none is. A write not renewed for abandonedAfter is a writer
// that died: it no longer holds the mark back.
const (
	abandonedAfter = time.Hour
	// reserveTries bounds the retries of taking a number; each fails only
	// when another writer took the same one first.
	reserveTries = 100
	// keptWrites is how many finished write documents a writer leaves
	// behind it when it prunes; the highest one must stay.
	keptWrites = 16
)

type sectionWriteDoc struct {
	ID      string    `bson:"_id"`
	Renewed time.Time `bson:"renewed"`
	Done    bool      `bson:"done"`
}

func writeID(seq int64) string { return fmt.Sprintf("%020d", seq) }

func (d sectionWriteDoc) seq() (int64, error) { return strconv.ParseInt(d.ID, 10, 64) }

// beginWrite takes the next number by inserting it, under way.
func (s *Filings) beginWrite(ctx context.Context) (int64, error) {
	for range reserveTries {
		writes, err := s.readWrites(ctx)
		if err != nil {
			return 0, err
		}
		seq := highest(writes) + 1
		_, err = s.writes.InsertOne(ctx, sectionWriteDoc{ID: writeID(seq), Renewed: time.Now().UTC()})
		if err = translate("number a section write", err); !errors.Is(err, ports.ErrConflict) {
			return seq, err
		}
	}
	return 0, fmt.Errorf("mongo: number a section write: %w: %d writers raced", ports.ErrUnavailable, reserveTries)
}

// renewWrite tells readers the write is still under way.
func (s *Filings) renewWrite(ctx context.Context, seq int64) error {
	_, err := s.writes.UpdateOne(ctx, bson.D{{Key: "_id", Value: writeID(seq)}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "renewed", Value: time.Now().UTC()}}}})
	return translate("renew a section write", err)
}

// endWrite marks the write done and prunes finished writes well below it.
func (s *Filings) endWrite(ctx context.Context, seq int64) error {
	_, err := s.writes.UpdateOne(ctx, bson.D{{Key: "_id", Value: writeID(seq)}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "done", Value: true}}}})
	if err != nil || seq <= keptWrites {
		return translate("end a section write", err)
	}
	_, err = s.writes.DeleteMany(ctx, bson.D{
		{Key: "_id", Value: bson.D{{Key: "$lt", Value: writeID(seq - keptWrites)}}},
		{Key: "done", Value: true},
	})
	return translate("prune finished section writes", err)
}

// readWrites returns the write documents held, few once pruned.
func (s *Filings) readWrites(ctx context.Context) ([]sectionWriteDoc, error) {
	cur, err := s.writes.Find(ctx, bson.D{}, options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		return nil, translate("find section writes", err)
	}
	var docs []sectionWriteDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, translate("read section writes", err)
	}
	return docs, nil
}

// highest is the highest number taken, 0 before the first write. Write
// documents that do not hold a number are not ours and are passed over.
func highest(writes []sectionWriteDoc) int64 {
	var top int64
	for _, w := range writes {
		if seq, err := w.seq(); err == nil {
			top = max(top, seq)
		}
	}
	return top
}

// settledSeq is the highest number at or below which no write is under
// way, as of now.
func (s *Filings) settledSeq(ctx context.Context, now time.Time) (int64, error) {
	writes, err := s.readWrites(ctx)
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
