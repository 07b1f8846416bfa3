// Package e2e drives Quarry end to end: real PostgreSQL and MongoDB-wire
// servers in containers, the fx-wired application on them, and HTTP
// requests whose every response is validated against the OpenAPI document.
package e2e

import (
	"context"
	"fmt"
	"log"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/wait"
	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/adapters/postgres"
)

// Images default to the official ones; `go tool task images` builds local
// equivalents for machines without a registry and the test task points
// these variables at them.
var (
	postgresImage = envOr("QUARRY_TEST_POSTGRES_IMAGE", "postgres:15")
	mongoImage    = envOr("QUARRY_TEST_MONGO_IMAGE", "mongo:7")
)

const (
	pgUser     = "quarry"
	pgPassword = "quarry-e2e-password"
	templateDB = "quarry_template"
)

// servers are started once for the whole package.
var servers struct {
	pgAdminURL string // the maintenance database, for CREATE DATABASE
	pgHostPort string
	mongoURI   string
	mongo      *mongodrv.Client
	// pgIP and mongoIP are the servers' addresses on the engine's network,
	// for a container under test to reach them.
	pgIP, mongoIP string
}

var dbSeq atomic.Int64

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func TestMain(m *testing.M) {
	// Ryuk's image cannot be pulled without a registry; containers are
	// terminated below instead.
	os.Setenv("TESTCONTAINERS_RYUK_DISABLED", "true")
	// Inside a container testcontainers guesses the host is the default
	// gateway; where the engine is local its published ports are on loopback.
	if os.Getenv("TESTCONTAINERS_HOST_OVERRIDE") == "" && os.Getenv("DOCKER_HOST") == "" {
		os.Setenv("TESTCONTAINERS_HOST_OVERRIDE", "localhost")
	}
	os.Exit(runWithServers(m))
}

func runWithServers(m *testing.M) int {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var containers []testcontainers.Container
	defer func() {
		for _, c := range containers {
			if err := testcontainers.TerminateContainer(c); err != nil {
				log.Printf("terminate container: %v", err)
			}
		}
	}()
	pg, err := startPostgres(ctx)
	if pg != nil {
		containers = append(containers, pg)
	}
	if err != nil {
		log.Printf("start PostgreSQL (%s): %v", postgresImage, err)
		return 1
	}
	mg, err := startMongo(ctx)
	if mg != nil {
		containers = append(containers, mg)
	}
	if err != nil {
		log.Printf("start MongoDB-wire server (%s): %v", mongoImage, err)
		return 1
	}
	defer func() { _ = servers.mongo.Disconnect(context.Background()) }()
	defer removeEmbeddedTemplate()
	return m.Run()
}

func startPostgres(ctx context.Context) (testcontainers.Container, error) {
	c, err := testcontainers.GenericContainer(ctx, testcontainers.GenericContainerRequest{
		ContainerRequest: testcontainers.ContainerRequest{
			Image:        postgresImage,
			ExposedPorts: []string{"5432/tcp"},
			Env:          map[string]string{"POSTGRES_USER": pgUser, "POSTGRES_PASSWORD": pgPassword, "POSTGRES_DB": "postgres"},
			Cmd:          []string{"postgres", "-c", "max_connections=300", "-c", "fsync=off"},
			WaitingFor:   wait.ForListeningPort("5432/tcp").SkipInternalCheck().WithStartupTimeout(2 * time.Minute),
		},
		Started: true,
	})
	if err != nil {
		return c, err
	}
	endpoint, err := c.PortEndpoint(ctx, "5432/tcp", "")
	if err != nil {
		return c, err
	}
	servers.pgHostPort = endpoint
	servers.pgAdminURL = pgURL("postgres")
	if servers.pgIP, err = c.ContainerIP(ctx); err != nil {
		return c, err
	}
	return c, prepareTemplate(ctx)
}

func pgURL(db string) string {
	return fmt.Sprintf("postgres://%s:%s@%s/%s?sslmode=disable", pgUser, pgPassword, servers.pgHostPort, db)
}

// prepareTemplate migrates one template database; every test clones it,
// which is much faster than migrating per test.
func prepareTemplate(ctx context.Context) error {
	admin, err := connectRetry(ctx, servers.pgAdminURL)
	if err != nil {
		return err
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+templateDB); err != nil {
		return err
	}
	pool, err := postgres.Connect(ctx, pgURL(templateDB))
	if err != nil {
		return err
	}
	defer pool.Close()
	return postgres.Migrate(ctx, pool)
}

// connectRetry waits out the server's start-up: the port can open before
// the server accepts sessions.
func connectRetry(ctx context.Context, url string) (*pgx.Conn, error) {
	for {
		conn, err := pgx.Connect(ctx, url)
		if err == nil {
			return conn, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("%w (last: %v)", ctx.Err(), err)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// postgresDB creates a fresh, migrated database for one test and returns
// its URL; the database is dropped when the test ends.
func postgresDB(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	name := fmt.Sprintf("t_%d_%d", os.Getpid(), dbSeq.Add(1))
	admin, err := pgx.Connect(ctx, servers.pgAdminURL)
	if err != nil {
		t.Fatalf("connect admin: %v", err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name+" TEMPLATE "+templateDB); err != nil {
		t.Fatalf("create database: %v", err)
	}
	t.Cleanup(func() {
		conn, err := pgx.Connect(ctx, servers.pgAdminURL)
		if err != nil {
			return
		}
		defer conn.Close(ctx)
		_, _ = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	})
	return pgURL(name)
}

// postgresPool returns a pool on a fresh database for one test.
func postgresPool(t *testing.T) *pgxpool.Pool {
	t.Helper()
	pool, err := postgres.Connect(context.Background(), postgresDB(t))
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(pool.Close)
	return pool
}

func startMongo(ctx context.Context) (testcontainers.Container, error) {
	c, err := testcontainers.GenericContainer(ctx, testcontainers.GenericContainerRequest{
		ContainerRequest: testcontainers.ContainerRequest{
			Image:        mongoImage,
			ExposedPorts: []string{"27017/tcp"},
			// The FerretDB image is FROM scratch: no shell for the
			// in-container port check.
			WaitingFor: wait.ForListeningPort("27017/tcp").SkipInternalCheck().WithStartupTimeout(2 * time.Minute),
		},
		Started: true,
	})
	if err != nil {
		return c, err
	}
	endpoint, err := c.PortEndpoint(ctx, "27017/tcp", "mongodb")
	if err != nil {
		return c, err
	}
	servers.mongoURI = endpoint
	if servers.mongoIP, err = c.ContainerIP(ctx); err != nil {
		return c, err
	}
	servers.mongo, err = mongo.Connect(ctx, endpoint)
	return c, err
}

// mongoDatabase returns a fresh database for one test, dropped at cleanup.
func mongoDatabase(t *testing.T) *mongodrv.Database {
	t.Helper()
	db := servers.mongo.Database(mongoDBName())
	t.Cleanup(func() { _ = db.Drop(context.Background()) })
	return db
}

func mongoDBName() string { return fmt.Sprintf("t_%d_%d", os.Getpid(), dbSeq.Add(1)) }
