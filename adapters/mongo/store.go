// Package mongo is the MongoDB adapter of the dataset ports. It works against
// MongoDB and against FerretDB, so it relies on neither transactions nor text
// indexes. Driver errors are translated into the ports sentinels and no
// driver type crosses a port.
package mongo

import (
	"context"
	"errors"
	"fmt"

	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/quarrydata/quarry/ports"
)

// Store implements the dataset ports on one MongoDB database. Each dataset
// keeps its own collection, declared in its own file together with the
// indexes it needs, and New prepares every one of them.
type Store struct {
	securities *mongodrv.Collection
}

// New returns a Store on db after ensuring the indexes of every collection.
// Ensuring is idempotent, so New runs on every start.
func New(ctx context.Context, db *mongodrv.Database) (*Store, error) {
	s := &Store{securities: db.Collection(securitiesCollection)}
	if err := ensureIndexes(ctx, s.securities, securityIndexes); err != nil {
		return nil, err
	}
	return s, nil
}

// ensureIndexes creates the collection's indexes. Creating an index that
// already exists with the same specification is a no-op on MongoDB and
// FerretDB alike.
func ensureIndexes(ctx context.Context, c *mongodrv.Collection, models []mongodrv.IndexModel) error {
	if len(models) == 0 {
		return nil
	}
	_, err := c.Indexes().CreateMany(ctx, models)
	return translate("ensure indexes of "+c.Name(), err)
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
