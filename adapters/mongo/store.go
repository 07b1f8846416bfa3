// Package mongo is the MongoDB adapter of the dataset ports. It works against
// MongoDB and against FerretDB, so it relies on neither transactions nor text
// indexes. Driver errors are translated into the ports sentinels and no
// driver type crosses a port. Each dataset has a store of its own (Securities,
// Financials, Filings, FundHoldings), declared in its own file with its
// collections, so a store missing a method of its port fails to compile.
package mongo

import (
	"context"
	"errors"
	"fmt"

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
