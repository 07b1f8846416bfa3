package e2e

import (
	"context"
	"io"
	"sync"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/cmd/quarry/cli"
)

// mongoTemplate is a database holding every bundled sample, ingested once
// by `quarry ingest all` as an operator would; each app on MongoDB gets a
// copy of it, as PostgreSQL's databases are cloned from templateDB. Under
// the race detector an ingestion of every sample took about 15 s, and the
// suite starts some thirty apps on MongoDB.
var mongoTemplate struct {
	once sync.Once
	name string
	err  error
}

// copyMongoTemplate copies the template's collections, documents and
// indexes into the database named.
func copyMongoTemplate(t *testing.T, name string) {
	t.Helper()
	mongoTemplate.once.Do(func() {
		mongoTemplate.name = mongoDBName()
		env := map[string]string{bootstrap.EnvMongoURI: servers.mongoURI, bootstrap.EnvMongoDB: mongoTemplate.name}
		cfg, err := bootstrap.LoadConfig(func(k string) string { return env[k] })
		if err == nil {
			err = cli.Ingest(context.Background(), cfg, "all", nil, io.Discard, nil)
		}
		mongoTemplate.err = err
	})
	if mongoTemplate.err != nil {
		t.Fatalf("ingest the MongoDB template: %v", mongoTemplate.err)
	}
	ctx := context.Background()
	src, dst := servers.mongo.Database(mongoTemplate.name), servers.mongo.Database(name)
	colls, err := src.ListCollectionNames(ctx, bson.D{})
	if err != nil {
		t.Fatalf("list the template's collections: %v", err)
	}
	for _, c := range colls {
		if err := copyCollection(ctx, src.Collection(c), dst.Collection(c)); err != nil {
			t.Fatalf("copy the template's %s: %v", c, err)
		}
	}
}

// copyCollection copies a collection's indexes, then its documents.
func copyCollection(ctx context.Context, from, to *mongodrv.Collection) error {
	if err := copyIndexes(ctx, from, to); err != nil {
		return err
	}
	cur, err := from.Find(ctx, bson.D{})
	if err != nil {
		return err
	}
	var docs []bson.Raw
	if err := cur.All(ctx, &docs); err != nil {
		return err
	}
	if len(docs) == 0 {
		return to.Database().CreateCollection(ctx, to.Name())
	}
	_, err = to.InsertMany(ctx, docs)
	return err
}

// copyIndexes creates the indexes of from, besides _id's, on to.
func copyIndexes(ctx context.Context, from, to *mongodrv.Collection) error {
	specs, err := from.Indexes().ListSpecifications(ctx)
	if err != nil {
		return err
	}
	var models []mongodrv.IndexModel
	for _, s := range specs {
		if s.Name == "_id_" {
			continue
		}
		opts := options.Index().SetName(s.Name)
		if s.Unique != nil {
			opts.SetUnique(*s.Unique)
		}
		if s.Sparse != nil {
			opts.SetSparse(*s.Sparse)
		}
		models = append(models, mongodrv.IndexModel{Keys: s.KeysDocument, Options: opts})
	}
	if len(models) == 0 {
		return nil
	}
	_, err = to.Indexes().CreateMany(ctx, models)
	return err
}
