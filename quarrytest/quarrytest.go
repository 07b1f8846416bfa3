// Package quarrytest starts a Quarry server inside a Go test, in the
// spirit of net/http/httptest: the fully wired service on memory storage,
// listening on a free loopback port, with the bundled sample data (or data
// the test gives in the real source formats), a signed-in account and an
// API key. A suite testing its own client of Quarry gets real answers, real
// errors and real credits instead of a hand-written mock.
//
// Each server has its own stores, ledger, rate limiter and clock, so
// parallel tests share nothing; Start registers the server's shutdown with
// t.Cleanup (New and Close do the same outside a test). A server starts in
// a fraction of a second, most of it loading the bundled samples and the
// password hash of the sign-in (BenchmarkStart; docs/testing.md has the
// figures).
//
// From another module:
//
//	go get github.com/quarrydata/quarry/quarrytest
//
// and in a test:
//
//	srv := quarrytest.Start(t) // stopped at t.Cleanup
//	req, _ := http.NewRequest("GET", srv.URL+"/china/securities/SSE.600519", nil)
//	req.Header.Set("X-API-KEY", srv.APIKey)
//
// Options provoke what a suite needs to see: WithCredits (402 once spent),
// WithRateLimit (429), WithEmptyDatasets (503), WithClock (as_of defaults
// and session expiry), WithFiles (the test's own source files).
//
// The data is point in time, and the test's clock decides what is known.
// With WithClock, a request without as_of answers as of the clock, and a
// request with as_of sees only data known by then: a statement filed, a bar
// retrieved, after that moment is not served. WithFiles takes each file's
// modification time as the time Quarry retrieved it, so a price bar from a
// file is known from the later of that time and its trading day's close;
// set it with os.Chtimes to place the file in the test's timeline
// (ExampleWithFiles). A key
// holding fewer permissions than a self-serve key (403) cannot be made yet:
// self-serve keys carry every self-serve permission and only an operator
// changes a key's scopes, on PostgreSQL; an option will follow when scoped
// keys are self-serve.
package quarrytest

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"go.uber.org/fx"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest"

	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/quarrytest/internal/signin"
)

// Dataset names, as `quarry ingest` takes them, for WithFiles and
// WithEmptyDatasets: the catalog's ids (B66), so they are not restated here.
const (
	// ChinaPrices is the A-share daily bars behind /china/prices.
	ChinaPrices     = string(dataset.ChinaPrices)
	ChinaSecurities = string(dataset.ChinaSecurities)
	// IndiaJudgments is the judgments behind /india/judgments and
	// /india/search. Only its tokenized sample loads in a test server:
	// judgment files need the vault key, which a serving process refuses.
	IndiaJudgments = string(dataset.IndiaJudgments)
	// IndiaPrices is the NSE daily rows behind /india/prices and
	// /india/prices.csv.
	IndiaPrices  = string(dataset.IndiaPrices)
	USFinancials = string(dataset.USFinancials)
	USFilings    = string(dataset.USFilingIndexes)
	// USHoldings is the 13F filings behind /us/security-fund-holders.
	USHoldings = string(dataset.USFundHolders)
	// USSecurities is the securities master that /us/security-fund-holders
	// resolves tickers, CUSIPs and CIKs through.
	USSecurities = bootstrap.SecuritiesMaster
)

// Password is the password of the account Start signs in, and of those
// that Server.SignIn signs in.
const Password = "quarrytest password"

// Email is the email of the account Start signs in.
const Email = "test@example.com"

// Server is a running Quarry service.
type Server struct {
	// URL is the base address, as in http://127.0.0.1:41234, without a
	// trailing slash.
	URL string
	// Account is the account signed in at start, holding the initial
	// credits, with a session token and one API key.
	Account
	app      *fx.App
	closing  sync.Once
	closeErr error
}

// Account is a signed-in account: its session token manages the account
// (keys, credits), its API key makes data requests (the X-API-KEY header).
type Account struct {
	Email    string
	Password string
	// SessionToken goes in "Authorization: Bearer" on /account routes.
	SessionToken     string
	SessionExpiresAt time.Time
	// APIKey goes in X-API-KEY on data routes; KeyID names it in
	// DELETE /account/keys/{key_id}.
	APIKey string
	KeyID  string
}

// Option changes how Start configures the server.
type Option func(*settings)

type settings struct {
	cfg bootstrap.Config
	log *zap.Logger
}

// WithCredits sets the credits an account gets at sign-up (100000 by
// default), so a suite can spend them and see 402.
func WithCredits(n int64) Option {
	return func(s *settings) { s.cfg.InitialCredits = n }
}

// WithRateLimit sets each API key's token bucket (by default 50 requests per
// second with a burst of 100), so a suite can see 429: the burst+1st request
// in quick succession is refused.
func WithRateLimit(perSecond float64, burst int) Option {
	return func(s *settings) { s.cfg.RateLimitRPS, s.cfg.RateLimitBurst = perSecond, burst }
}

// WithSignupLimit sets how many accounts may be created per hour from one
// address, as QUARRY_SIGNUP_LIMIT does, so a suite can see the sign-up
// limit's 429. Every account a test creates comes from 127.0.0.1, so by
// default a quarrytest server allows defaultTestSignups an hour rather
// than the service's 5.
func WithSignupLimit(perHour int) Option {
	return func(s *settings) { s.cfg.SignupsPerHour = perHour }
}

// defaultTestSignups is a quarrytest server's sign-up limit: more accounts
// than a test creates.
const defaultTestSignups = 1_000_000

// WithEmptyDatasets leaves the named datasets without their sample, so
// their routes answer 503 (dataset_unavailable). Emptying USHoldings leaves
// the fund-holders route unavailable; emptying USSecurities only its
// identifier lookups empty (404).
func WithEmptyDatasets(datasets ...string) Option {
	return func(s *settings) { s.cfg.Empty = append(s.cfg.Empty, datasets...) }
}

// WithFiles loads the dataset from source files on disk at start, through
// the same reader `quarry ingest DATASET FILE...` uses, instead of from its
// bundled sample; paths are named as for that command: files, directories
// (the files under them) or .zip archives (their entries, read in place).
// `quarry ingest --help` lists each dataset's formats. A bad file fails the
// start, naming the file and the reason. Files are read from disk because a
// file's modification time is taken as its retrieval time: the dataset's
// rows are known from then (for prices, from the later of then and the
// trading day's close), so a request as of an earlier time does not see
// them. Calls add up.
func WithFiles(dataset string, paths ...string) Option {
	return func(s *settings) {
		if s.cfg.Files == nil {
			s.cfg.Files = map[string][]string{}
		}
		s.cfg.Files[dataset] = append(s.cfg.Files[dataset], paths...)
	}
}

// WithClock replaces the wall clock of the service with now, such as a
// Clock's Now: it sets the default as_of of data requests, session expiry
// and the time of ledger entries. The rate limiter refills by the same
// clock, so a clock standing still refills no tokens: raise WithRateLimit's
// burst for a long test. The sign-in throttle keeps the wall clock.
func WithClock(now func() time.Time) Option {
	return func(s *settings) {
		// Stores keep microseconds; the service's own clock is truncated
		// the same way.
		s.cfg.Clock = func() time.Time { return now().UTC().Truncate(time.Microsecond) }
	}
}

// WithSessionTTL sets how long a session token lasts (8 hours by default).
func WithSessionTTL(d time.Duration) Option {
	return func(s *settings) { s.cfg.SessionTTL = d }
}

// WithLogger sends the service's logs to log. By default Start sends
// warnings and errors to the test's log, and New logs nothing.
func WithLogger(log *zap.Logger) Option {
	return func(s *settings) { s.log = log }
}

// startTimeout bounds a server's start. Loading every sample takes about
// 0.3 s on a quiet machine, and many times that under the race detector
// with other test binaries running beside it.
const startTimeout = 2 * time.Minute

// Start starts a server configured by opts, as New does, and closes it
// when t's cleanup runs; a failure to start fails t. Unless WithLogger
// says otherwise, the service's warnings and errors go to t's log. Call it
// from the test's own goroutine: t.Fatalf ends only the goroutine it is
// called from.
func Start(t testing.TB, opts ...Option) *Server {
	t.Helper()
	testLog := zaptest.NewLogger(t, zaptest.Level(zapcore.WarnLevel))
	srv, err := New(append([]Option{WithLogger(testLog)}, opts...)...)
	if err != nil {
		t.Fatalf("quarrytest: %v", err)
	}
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Errorf("quarrytest: %v", err)
		}
	})
	return srv
}

// New starts a server configured by opts, signs in an account (Email,
// Password) and mints it an API key. Close stops it; in a test, Start does
// both. The process's QUARRY_* variables are not read, and the service
// logs nothing unless WithLogger is given.
func New(opts ...Option) (*Server, error) {
	cfg, err := bootstrap.LoadConfig(func(string) string { return "" })
	if err != nil {
		return nil, err
	}
	cfg.SignupsPerHour = defaultTestSignups
	s := settings{cfg: cfg, log: zap.NewNop()}
	for _, o := range opts {
		o(&s)
	}
	if err := checkNames(s.cfg); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen: %w", err)
	}
	s.cfg.HTTPAddr, s.cfg.Listener = ln.Addr().String(), ln
	srv := &Server{URL: "http://" + ln.Addr().String()}
	srv.app = fx.New(bootstrap.Options(s.cfg, s.log))
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	if err := srv.app.Start(ctx); err != nil {
		_ = ln.Close() // the start failed before the listener was served
		return nil, fmt.Errorf("start: %w", err)
	}
	if srv.Account, err = srv.SignIn(Email); err != nil {
		_ = srv.Close()
		return nil, err
	}
	return srv, nil
}

// Close stops the server: in-flight requests finish, then everything the
// server held is dropped. Closing again does nothing.
func (s *Server) Close() error {
	s.closing.Do(func() {
		if err := s.app.Stop(context.Background()); err != nil {
			s.closeErr = fmt.Errorf("stop: %w", err)
		}
	})
	return s.closeErr
}

// SignIn signs in email with Password, which creates the account with the
// initial credits the first time, and mints it an API key.
func (s *Server) SignIn(email string) (Account, error) {
	a, err := signin.Do(context.Background(), http.DefaultClient, s.URL, email, Password, "quarrytest")
	return Account{
		Email: email, Password: Password,
		SessionToken: a.SessionToken, SessionExpiresAt: a.SessionExpiresAt,
		APIKey: a.APIKey, KeyID: a.KeyID,
	}, err
}

// Datasets lists the dataset names WithFiles and WithEmptyDatasets take.
func Datasets() []string {
	var names []string
	for _, d := range bootstrap.IngestDatasets() {
		names = append(names, d.Name)
	}
	return names
}

// checkNames refuses an unknown dataset before anything starts, with the
// known names; the service would refuse it too, deep in an fx error.
func checkNames(cfg bootstrap.Config) error {
	known := Datasets()
	names := slices.Clone(cfg.Empty)
	for name := range cfg.Files {
		names = append(names, name)
	}
	for _, name := range names {
		if !slices.Contains(known, name) {
			return fmt.Errorf("unknown dataset %q (known: %v)", name, known)
		}
	}
	return nil
}

// Clock is a settable clock for WithClock. It stands still until Set or
// Advance moves it. It is safe for concurrent use.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a Clock reading t.
func NewClock(t time.Time) *Clock { return &Clock{now: t} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Set moves the clock to t, backwards too.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}
