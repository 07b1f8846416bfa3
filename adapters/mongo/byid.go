package mongo

import (
	"context"
	"errors"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"
	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
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

// holdsAny reports whether c holds a document, reading one _id: a count
// reads every document on FerretDB 1.24 (an aggregation it runs by
// decoding them all), seconds for a collection of real size.
func holdsAny(ctx context.Context, c *mongodrv.Collection, what string) (bool, error) {
	err := c.FindOne(ctx, bson.D{}, options.FindOne().SetProjection(bson.D{{Key: "_id", Value: 1}})).Err()
	if errors.Is(err, mongodrv.ErrNoDocuments) {
		return false, nil
	}
	if err != nil {
		return false, translate("find any of the "+what, err)
	}
	return true, nil
}
