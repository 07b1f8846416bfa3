package mongo

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/quarrydata/quarry/ports"
)

// Section writes are numbered by one document, keyed sectionsSeqID, so that
// a reader can fetch only the sections written since it last looked:
//
//	{_id: "section-writes", next: 7, under_way: {"w6": <renewed at>}}
//
// A writer reserves next+1 and registers it as under way in one
// conditional update, stamps its sections with that number, and removes
// the registration when it ends. A reader's mark is the number below which
// no write is under way. A registration not renewed for abandonedAfter is
// a writer that died: it no longer holds the mark back.
const (
	sectionsSeqID  = "section-writes"
	abandonedAfter = time.Hour
	// reserveTries bounds the optimistic retries of a reservation; each
	// fails only when another writer reserved in between.
	reserveTries = 100
)

type sectionSeqDoc struct {
	Next     int64                `bson:"next"`
	UnderWay map[string]time.Time `bson:"under_way"`
}

func underWayKey(seq int64) string { return "w" + strconv.FormatInt(seq, 10) }

// beginWrite reserves the next sequence number and registers it as under
// way, atomically: a reader never sees the number handed out but not yet
// under way.
func (s *Filings) beginWrite(ctx context.Context) (int64, error) {
	for range reserveTries {
		d, err := s.readSeq(ctx)
		if err != nil {
			return 0, err
		}
		seq := d.Next + 1
		update := bson.D{{Key: "$set", Value: bson.D{
			{Key: "next", Value: seq},
			{Key: "under_way." + underWayKey(seq), Value: time.Now().UTC()},
		}}}
		res, err := s.versions.UpdateOne(ctx, bson.D{{Key: "_id", Value: sectionsSeqID}, {Key: "next", Value: d.Next}}, update)
		switch {
		case err != nil:
			return 0, translate("reserve a section write", err)
		case res.MatchedCount == 1:
			return seq, nil
		case d.Next == 0:
			if err := s.createSeq(ctx); err != nil {
				return 0, err
			}
		}
	}
	return 0, fmt.Errorf("mongo: reserve a section write: %w: %d writers raced", ports.ErrUnavailable, reserveTries)
}

// createSeq creates the numbering document; a writer that lost the race to
// create it finds it there.
func (s *Filings) createSeq(ctx context.Context) error {
	_, err := s.versions.InsertOne(ctx, bson.D{{Key: "_id", Value: sectionsSeqID}, {Key: "next", Value: int64(0)}, {Key: "under_way", Value: bson.D{}}})
	if err = translate("create the section write numbers", err); errors.Is(err, ports.ErrConflict) {
		return nil
	}
	return err
}

// renewWrite tells readers the write is still under way.
func (s *Filings) renewWrite(ctx context.Context, seq int64) error {
	_, err := s.versions.UpdateOne(ctx, bson.D{{Key: "_id", Value: sectionsSeqID}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "under_way." + underWayKey(seq), Value: time.Now().UTC()}}}})
	return translate("renew a section write", err)
}

// endWrite removes the write's registration.
func (s *Filings) endWrite(ctx context.Context, seq int64) error {
	_, err := s.versions.UpdateOne(ctx, bson.D{{Key: "_id", Value: sectionsSeqID}},
		bson.D{{Key: "$unset", Value: bson.D{{Key: "under_way." + underWayKey(seq), Value: ""}}}})
	return translate("end a section write", err)
}

func (s *Filings) readSeq(ctx context.Context) (sectionSeqDoc, error) {
	var d sectionSeqDoc
	err := s.versions.FindOne(ctx, bson.D{{Key: "_id", Value: sectionsSeqID}}).Decode(&d)
	if errors.Is(err, mongodrv.ErrNoDocuments) {
		return sectionSeqDoc{}, nil
	}
	return d, translate("read the section write numbers", err)
}

// settledSeq is the highest sequence number at or below which no write is
// under way, as of now.
func (s *Filings) settledSeq(ctx context.Context, now time.Time) (int64, error) {
	d, err := s.readSeq(ctx)
	if err != nil {
		return 0, err
	}
	settled := d.Next
	for key, renewed := range d.UnderWay {
		seq, err := strconv.ParseInt(strings.TrimPrefix(key, "w"), 10, 64)
		if err != nil || now.Sub(renewed) > abandonedAfter {
			continue
		}
		settled = min(settled, seq-1)
	}
	return settled, nil
}
