package mongo

import (
	"context"
	"errors"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/quarrydata/quarry/domain/feed"
	"github.com/quarrydata/quarry/ports"
)

// syncStatesCollection holds one document per source, _id its name: the
// checkpoint sits beside the documents the source's runs write, so a data
// directory or a MongoDB database carries both.
const syncStatesCollection = "sync_states"

// SyncStates is the sources' checkpoint store in MongoDB.
type SyncStates struct{ c *mongodrv.Collection }

var _ ports.SyncStates = (*SyncStates)(nil)

// NewSyncStates returns the checkpoint store of db.
func NewSyncStates(db *mongodrv.Database) *SyncStates {
	return &SyncStates{c: db.Collection(syncStatesCollection)}
}

// stateDoc mirrors feed.State field for field.
type stateDoc struct {
	Source       string         `bson:"_id"`
	Version      int            `bson:"version,omitempty"`
	First        string         `bson:"first"`
	Last         string         `bson:"last"`
	Gaps         []feed.Span    `bson:"gaps,omitempty"`
	Missing      []feed.Missing `bson:"missing,omitempty"`
	Files        int64          `bson:"files"`
	Rows         int64          `bson:"rows"`
	Holidays     int64          `bson:"holidays"`
	Refused      int64          `bson:"refused"`
	LastSuccess  time.Time      `bson:"last_success"`
	LastError    string         `bson:"last_error"`
	LastErrorAt  time.Time      `bson:"last_error_at"`
	ETag         string         `bson:"etag,omitempty"`
	LastModified string         `bson:"last_modified,omitempty"`
}

// State returns the source's checkpoint, empty when it has none.
func (s *SyncStates) State(ctx context.Context, source string) (feed.State, error) {
	var d stateDoc
	err := s.c.FindOne(ctx, bson.D{{Key: "_id", Value: source}}).Decode(&d)
	if errors.Is(err, mongodrv.ErrNoDocuments) {
		return feed.State{Source: source}, nil
	}
	if err != nil {
		return feed.State{}, translate("read sync state", err)
	}
	for i := range d.Missing {
		d.Missing[i].NextTry = utcOrZero(d.Missing[i].NextTry)
	}
	return feed.State{Source: d.Source, Version: d.Version, First: d.First, Last: d.Last, Gaps: d.Gaps, Missing: d.Missing,
		Files: d.Files, Rows: d.Rows, Holidays: d.Holidays, Refused: d.Refused, LastSuccess: utcOrZero(d.LastSuccess),
		LastError: d.LastError, LastErrorAt: utcOrZero(d.LastErrorAt), ETag: d.ETag, LastModified: d.LastModified}, nil
}

// SaveState replaces the source's checkpoint.
func (s *SyncStates) SaveState(ctx context.Context, st feed.State) error {
	d := stateDoc(st)
	_, err := s.c.ReplaceOne(ctx, bson.D{{Key: "_id", Value: st.Source}}, d, options.Replace().SetUpsert(true))
	return translate("save sync state", err)
}

// utcOrZero returns t in UTC, or the zero time for a zero time read back.
func utcOrZero(t time.Time) time.Time {
	if t.IsZero() || t.Unix() <= 0 {
		return time.Time{}
	}
	return t.UTC()
}
