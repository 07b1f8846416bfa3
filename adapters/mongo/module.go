package mongo

import (
	"context"
	"errors"
	"time"

	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"
	"go.uber.org/fx"
)

// Config locates the MongoDB database the adapter uses.
type Config struct {
	// URI is the connection string, credentials included.
	URI string
	// Database is the name of the database holding every collection.
	Database string
	// Timeout bounds an operation's wait for a server that does not
	// answer (ConnectWithin); zero keeps the driver's defaults.
	Timeout time.Duration
}

// Module provides *mongodrv.Client and *mongodrv.Database from a Config
// supplied by the application; each dataset's wiring builds its own store
// on the database. The client is disconnected when the application stops.
var Module = fx.Module("mongo", fx.Provide(provideClient, provideDatabase))

// provideClient checks the whole Config first, so a missing database name
// fails start-up before any network round trip.
func provideClient(lc fx.Lifecycle, cfg Config) (*mongodrv.Client, error) {
	if cfg.URI == "" || cfg.Database == "" {
		return nil, errors.New("mongo: Config needs both a URI and a Database")
	}
	client, err := ConnectWithin(context.Background(), cfg.URI, cfg.Timeout)
	if err != nil {
		return nil, err
	}
	lc.Append(fx.Hook{OnStop: client.Disconnect})
	return client, nil
}

func provideDatabase(client *mongodrv.Client, cfg Config) *mongodrv.Database {
	return client.Database(cfg.Database)
}
