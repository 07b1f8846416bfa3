package mongo

import (
	"context"
	"errors"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"
	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"
	"golang.org/x/sync/errgroup"
)

// idReads bounds the reads by _id one findByIDs call has in flight, so a
// page of hits does not take every connection of the client's pool.
const idReads = 4

// findByIDs returns the documents of c held under ids, ordered by id, an id
// not held left out: one _id equality each, idReads at a time. That filter
// is the one FerretDB 1.x pushes down to SQL (served there by the index
// the data directory adds, ferretdb.IndexIDs) and MongoDB serves from its
// _id index; an `_id: {$in: ids}` is filtered after reading the whole
// collection on FerretDB, even for one id.
func findByIDs[D any](ctx context.Context, c *mongodrv.Collection, op string, ids []string) ([]D, error) {
	sorted := slices.Compact(slices.Sorted(slices.Values(ids)))
	found := make([]*D, len(sorted))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(idReads)
	for i, id := range sorted {
		g.Go(func() error {
			var d D
			err := c.FindOne(gctx, bson.D{{Key: "_id", Value: id}}).Decode(&d)
			switch {
			case errors.Is(err, mongodrv.ErrNoDocuments):
				return nil
			case err != nil:
				return translate(op+" "+id, err)
			}
			found[i] = &d
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	out := make([]D, 0, len(sorted))
	for _, d := range found {
		if d != nil {
			out = append(out, *d)
		}
	}
	return out, nil
}
