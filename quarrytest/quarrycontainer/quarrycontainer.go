// Package quarrycontainer is a testcontainers-go module for the Quarry
// image that `go tool task image` builds (quarry:dev by default): Run starts
// a container, waits until GET /readyz answers 200 and returns its base URL;
// SignIn signs an account in and mints it an API key.
//
// The image serves memory storage with the bundled sample data unless given
// databases (WithPostgres, WithMongo). Its configuration is the binary's
// QUARRY_* variables, so testcontainers.WithEnv sets anything the options
// here do not name, and a suite in any language testcontainers supports
// starts the image the same way: expose 8080/tcp, wait for HTTP 200 on
// /readyz, then POST /account/login and POST /account/keys.
//
// From another module:
//
//	go get github.com/quarrydata/quarry/quarrytest/quarrycontainer
//
// With no image registry at hand, set TESTCONTAINERS_RYUK_DISABLED=true
// (testcontainers' reaper is an image of its own, which Run would fail to
// pull; terminate every container yourself, as with
// testcontainers.CleanupContainer), and, when the tests run inside a
// container on a local engine, TESTCONTAINERS_HOST_OVERRIDE=localhost
// (testcontainers would otherwise look for the published ports on the
// default gateway). Set both before the first container starts, in the
// environment or in TestMain; docs/testing.md shows a TestMain that does.
//
// ExampleRun runs in `go tool task test`, which builds the image first.
package quarrycontainer

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/wait"

	"github.com/quarrydata/quarry/quarrytest/internal/signin"
)

// Port is the port the image serves on inside the container.
const Port = "8080/tcp"

// Container is a running Quarry container.
type Container struct {
	testcontainers.Container
	// URL is the base address from the host, as in http://localhost:32771,
	// without a trailing slash.
	URL string
}

// Account is a signed-in account: its session token manages the account
// (keys, credits), its API key makes data requests (the X-API-KEY header).
type Account struct {
	Email            string
	SessionToken     string
	SessionExpiresAt time.Time
	APIKey           string
	KeyID            string
}

// Run starts the Quarry image img, customized by opts, and waits for it to
// be ready. As with every testcontainers module, a container is returned
// with the error when one was created, for the caller to terminate
// (testcontainers.CleanupContainer(t, c) does that and accepts nil).
func Run(ctx context.Context, img string, opts ...testcontainers.ContainerCustomizer) (*Container, error) {
	base := []testcontainers.ContainerCustomizer{
		testcontainers.WithExposedPorts(Port),
		// /readyz pings the databases when there are any; memory storage
		// is ready once the sample is loaded, before the port opens.
		testcontainers.WithWaitStrategy(wait.ForHTTP("/readyz").WithPort(Port).
			WithStartupTimeout(time.Minute)),
		// Every account a suite creates comes from the one host address.
		WithSignupLimit(defaultTestSignups),
	}
	ctr, err := testcontainers.Run(ctx, img, append(base, opts...)...)
	var c *Container
	if ctr != nil {
		c = &Container{Container: ctr}
	}
	if err != nil {
		return c, fmt.Errorf("quarry container: %w", err)
	}
	endpoint, err := ctr.PortEndpoint(ctx, Port, "http")
	if err != nil {
		return c, fmt.Errorf("quarry container: endpoint: %w", err)
	}
	c.URL = endpoint
	return c, nil
}

// SignIn signs email in with password (12 to 128 characters), which creates
// the account with the initial credits the first time, and mints it an API
// key.
func (c *Container) SignIn(ctx context.Context, email, password string) (Account, error) {
	a, err := signin.Do(ctx, http.DefaultClient, c.URL, email, password, "quarrycontainer")
	if err != nil {
		return Account{}, fmt.Errorf("quarry container: sign in: %w", err)
	}
	return Account{Email: email, SessionToken: a.SessionToken, SessionExpiresAt: a.SessionExpiresAt, APIKey: a.APIKey, KeyID: a.KeyID}, nil
}

// WithCredits sets the credits an account gets at sign-up (default 100000).
func WithCredits(n int64) testcontainers.CustomizeRequestOption {
	return testcontainers.WithEnv(map[string]string{"QUARRY_INITIAL_CREDITS": strconv.FormatInt(n, 10)})
}

// WithRateLimit sets each API key's token bucket (default 50 requests per
// second, burst 100).
func WithRateLimit(perSecond float64, burst int) testcontainers.CustomizeRequestOption {
	return testcontainers.WithEnv(map[string]string{
		"QUARRY_RATE_LIMIT_RPS":   strconv.FormatFloat(perSecond, 'g', -1, 64),
		"QUARRY_RATE_LIMIT_BURST": strconv.Itoa(burst),
	})
}

// WithSignupLimit sets how many accounts may be created per hour from one
// address (QUARRY_SIGNUP_LIMIT; the image's default is 5). Run allows
// defaultTestSignups, since every account a suite creates comes from the
// one host address; set the limit to see its 429.
func WithSignupLimit(perHour int) testcontainers.CustomizeRequestOption {
	return testcontainers.WithEnv(map[string]string{"QUARRY_SIGNUP_LIMIT": strconv.Itoa(perHour)})
}

// defaultTestSignups is Run's sign-up limit: more accounts than a suite
// creates.
const defaultTestSignups = 1_000_000

// WithPostgres keeps accounts, keys, sessions and the ledger in the
// PostgreSQL database at url, migrating its schema at start. The address
// must be reachable from inside the container: another container's address
// on a shared network, not the host's localhost.
func WithPostgres(url string) testcontainers.CustomizeRequestOption {
	return testcontainers.WithEnv(map[string]string{"QUARRY_POSTGRES_URL": url, "QUARRY_AUTO_MIGRATE": "true"})
}

// WithMongo keeps the datasets' documents in database db of the MongoDB
// server at uri (reachable from inside the container, as for WithPostgres).
// The sample is then not loaded at start: ingest it first (`quarry ingest
// all`, which the image runs as its command too), or add WithSampleData.
func WithMongo(uri, db string) testcontainers.CustomizeRequestOption {
	return testcontainers.WithEnv(map[string]string{"QUARRY_MONGO_URI": uri, "QUARRY_MONGO_DB": db})
}

// WithSampleData loads the bundled sample at start, or not; the default is
// to load it on memory storage and not on MongoDB.
func WithSampleData(load bool) testcontainers.CustomizeRequestOption {
	return testcontainers.WithEnv(map[string]string{"QUARRY_SAMPLE_DATA": strconv.FormatBool(load)})
}
