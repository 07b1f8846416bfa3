package mongo

import (
	"context"
	"errors"
	"time"

	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"
	"go.uber.org/fx"

	"github.com/quarrydata/quarry/ports"
)

// Config locates the MongoDB database the adapter uses.
type Config struct {
	// URI is the connection string, credentials included.
	URI string
	// Database is the name of the database holding every collection.
	Database string
}

// setupTimeout bounds index creation at start-up, which fx constructors have
// no context for.
const setupTimeout = time.Minute

// Module provides *mongodrv.Client, *mongodrv.Database, *Store and
// ports.SecurityStore from a Config supplied by the application. The client
// is disconnected when the application stops.
var Module = fx.Module("mongo",
	fx.Provide(
		provideClient,
		provideDatabase,
		fx.Annotate(provideStore, fx.As(fx.Self()), fx.As(new(ports.SecurityStore))),
	),
)

// provideClient checks the whole Config first, so a missing database name
// fails start-up before any network round trip.
func provideClient(lc fx.Lifecycle, cfg Config) (*mongodrv.Client, error) {
	if cfg.URI == "" || cfg.Database == "" {
		return nil, errors.New("mongo: Config needs both a URI and a Database")
	}
	client, err := Connect(context.Background(), cfg.URI)
	if err != nil {
		return nil, err
	}
	lc.Append(fx.Hook{OnStop: client.Disconnect})
	return client, nil
}

func provideDatabase(client *mongodrv.Client, cfg Config) *mongodrv.Database {
	return client.Database(cfg.Database)
}

func provideStore(db *mongodrv.Database) (*Store, error) {
	ctx, cancel := context.WithTimeout(context.Background(), setupTimeout)
	defer cancel()
	return New(ctx, db)
}
