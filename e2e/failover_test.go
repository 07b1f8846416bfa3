package e2e

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/quarrydata/quarry/adapters/postgres"
	"github.com/quarrydata/quarry/bootstrap"
)

// pgBin is where Debian's postgresql-15 package puts its binaries.
const pgBin = "/usr/lib/postgresql/15/bin"

// The failover cluster's ports, on loopback.
const (
	primaryPort = 5611
	standbyPort = 5612
)

// The failover run: when the primary is killed, how long the load goes on
// after the standby is promoted, and by how many clients.
const (
	failoverKillAt  = 4 * time.Second
	failoverAfter   = 10 * time.Second
	failoverClients = 8
)

// TestFailoverTellsWhatTheLedgerKeeps runs two nodes on a PostgreSQL 15
// primary with a synchronous streaming standby, named together in one URL
// with target_session_attrs=read-write, and eight clients on a metered
// route. The primary is killed with SIGKILL and the standby promoted two
// seconds later, or ten. Every request is answered (no client gives up), none is a
// 500, the credits the clients were told sum to what the ledger kept, and
// the ledger verifies. The figures a failover is judged by (the longest
// time without a success, the slowest request, the status counts) are
// logged, not asserted: they depend on the machine.
func TestFailoverTellsWhatTheLedgerKeeps(t *testing.T) {
	if _, err := os.Stat(filepath.Join(pgBin, "initdb")); err != nil {
		t.Skipf("no PostgreSQL 15 in %s (apt-get install postgresql-15): the failover needs a primary and a standby of its own", pgBin)
	}
	for _, promoteAfter := range []time.Duration{2 * time.Second, 10 * time.Second} {
		t.Run(fmt.Sprintf("promoted after %v", promoteAfter), func(t *testing.T) { failover(t, promoteAfter) })
	}
}

// failover runs the load through one failover whose standby is promoted
// promoteAfter the kill.
func failover(t *testing.T, promoteAfter time.Duration) {
	cl := newCluster(t)
	url := fmt.Sprintf("postgres://quarry@127.0.0.1:%d,127.0.0.1:%d/quarry?sslmode=disable&target_session_attrs=read-write", primaryPort, standbyPort)
	migrateAt(t, url)
	env := map[string]string{bootstrap.EnvHTTPAddr: freeAddr(t), bootstrap.EnvMetricsAddr: "off", bootstrap.EnvPostgresURL: url}
	cfg, err := bootstrap.LoadConfig(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	cfg.RateLimitRPS, cfg.RateLimitBurst = 1e6, 1_000_000
	n1 := serveApp(t, cfg)
	second := cfg
	second.HTTPAddr = freeAddr(t)
	nodes := []*client{n1, serveApp(t, second)}
	session, key := signIn(t, n1, "failover@example.com")
	opening := balanceOf(t, n1, session)

	run := loadThroughFailover(nodes, key, cl, promoteAfter)
	run.report(t)
	if run.gaveUp > 0 || run.statuses[http.StatusInternalServerError] > 0 || run.noCost > 0 {
		t.Errorf("%d requests unanswered, %d answered 500, %d without X-Credits-Cost", run.gaveUp, run.statuses[http.StatusInternalServerError], run.noCost)
	}
	kept := settledKept(t, nodes[0], session, opening, run.told)
	if kept != run.told {
		t.Errorf("clients were told %d credits, the ledger kept %d", run.told, kept)
	}
	verifyAt(t, url)
}

// cluster is a primary and its streaming standby, each a postgres process
// this test started and ends by its PID.
type cluster struct {
	t                *testing.T
	dir              string
	primary, standby *exec.Cmd
}

func newCluster(t *testing.T) *cluster {
	dir, err := os.MkdirTemp("", "quarry-failover-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	c := &cluster{t: t, dir: dir}
	c.chownToPostgres(dir)
	c.run("initdb", "-D", c.path("primary"), "-U", "quarry", "--auth=trust", "-E", "UTF8")
	c.appendConf("primary", fmt.Sprintf("port = %d\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '%s'\n"+
		"wal_level = replica\nmax_wal_senders = 4\nsynchronous_commit = on\nfsync = off\n", primaryPort, dir))
	c.primary = c.start("primary", primaryPort)
	c.run("createdb", "-h", "127.0.0.1", "-p", strconv.Itoa(primaryPort), "-U", "quarry", "quarry")
	c.run("pg_basebackup", "-h", "127.0.0.1", "-p", strconv.Itoa(primaryPort), "-U", "quarry", "-D", c.path("standby"), "-R", "-X", "stream", "-c", "fast")
	// The runbook's step 1, done ahead: a promoted standby with no standby
	// of its own must not wait for one on every commit.
	c.appendConf("standby", fmt.Sprintf("port = %d\nsynchronous_standby_names = ''\n", standbyPort))
	c.standby = c.start("standby", standbyPort)
	// Commits wait for the standby only once it follows: before, they
	// would wait for ever.
	c.appendConf("primary", "synchronous_standby_names = '*'\n")
	c.run("pg_ctl", "reload", "-D", c.path("primary"))
	return c
}

func (c *cluster) path(name string) string { return filepath.Join(c.dir, name) }

// asPostgres runs cmd as the postgres user when the test runs as root,
// which initdb and postgres refuse.
func asPostgres(cmd *exec.Cmd) {
	if os.Geteuid() != 0 {
		return
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
}

func (c *cluster) chownToPostgres(dir string) {
	if os.Geteuid() != 0 {
		return
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		c.t.Fatalf("running as root needs a postgres user: %v", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(dir, uid, gid); err != nil {
		c.t.Fatal(err)
	}
}

func (c *cluster) run(name string, args ...string) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(pgBin, name), args...)
	asPostgres(cmd)
	if out, err := cmd.CombinedOutput(); err != nil {
		c.t.Fatalf("%s: %v\n%s", name, err, out)
	}
}

func (c *cluster) appendConf(name, lines string) {
	c.t.Helper()
	f, err := os.OpenFile(filepath.Join(c.path(name), "postgresql.auto.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		c.t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(lines); err != nil {
		c.t.Fatal(err)
	}
}

// start runs postgres on the named data directory, waits until it accepts
// connections, and stops it at cleanup by its PID.
func (c *cluster) start(name string, port int) *exec.Cmd {
	c.t.Helper()
	logFile, err := os.Create(filepath.Join(c.dir, name+".log"))
	if err != nil {
		c.t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(pgBin, "postgres"), "-D", c.path(name))
	cmd.Stdout, cmd.Stderr = logFile, logFile
	asPostgres(cmd)
	if err := cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGINT) // fast shutdown; an error means it has exited
		_ = cmd.Wait()
		_ = logFile.Close()
	})
	c.waitReady(port)
	return cmd
}

func (c *cluster) waitReady(port int) {
	c.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		conn, err := pgx.Connect(context.Background(), fmt.Sprintf("postgres://quarry@127.0.0.1:%d/postgres?sslmode=disable", port))
		if err == nil {
			_ = conn.Close(context.Background())
			return
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("postgres on %d did not start: %v", port, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// fail kills the primary with SIGKILL, then promotes the standby after the
// given pause.
func (c *cluster) fail(promoteAfter time.Duration) {
	if err := c.primary.Process.Kill(); err != nil {
		c.t.Errorf("kill the primary: %v", err)
	}
	time.Sleep(promoteAfter)
	cmd := exec.Command(filepath.Join(pgBin, "pg_ctl"), "promote", "-D", c.path("standby"))
	asPostgres(cmd)
	if out, err := cmd.CombinedOutput(); err != nil {
		c.t.Errorf("promote: %v\n%s", err, out)
	}
}

func migrateAt(t *testing.T, url string) {
	t.Helper()
	pool, err := postgres.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if err := postgres.Migrate(context.Background(), pool); err != nil {
		t.Fatal(err)
	}
}

func verifyAt(t *testing.T, url string) {
	t.Helper()
	pool, err := postgres.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	s := postgres.New(pool)
	defer s.Close()
	mismatches, err := s.Verify(context.Background())
	if err != nil || len(mismatches) > 0 {
		t.Errorf("ledger verify: %v, %+v", err, mismatches)
	}
}

// settledKept is what the ledger kept once it agrees with told, or after
// ten seconds: debits of unknown outcome are settled in the background.
func settledKept(t *testing.T, c *client, session string, opening, told int64) int64 {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		kept := opening - balanceOf(t, c, session)
		if kept == told || time.Now().After(deadline) {
			return kept
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// failoverRun is what the clients saw.
type failoverRun struct {
	mu       sync.Mutex
	kill     time.Time
	promoted time.Time
	statuses map[int]int
	told     int64
	gaveUp   int
	noCost   int
	slowest  time.Duration
	// successes are the times, from the start, at which a request that
	// succeeded was answered.
	successes []time.Duration
	start     time.Time
}

func (f *failoverRun) record(began time.Time, status int, cost string, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	took := time.Since(began)
	f.slowest = max(f.slowest, took)
	if err != nil {
		f.gaveUp++
		return
	}
	f.statuses[status]++
	n, perr := strconv.ParseInt(cost, 10, 64)
	if perr != nil {
		f.noCost++
	}
	f.told += n
	if status == http.StatusOK {
		f.successes = append(f.successes, time.Since(f.start))
	}
}

// loadThroughFailover runs the clients, failing the cluster at
// failoverKillAt, until failoverAfter past the promotion.
func loadThroughFailover(nodes []*client, key string, cl *cluster, promoteAfter time.Duration) *failoverRun {
	run := &failoverRun{statuses: map[int]int{}, start: time.Now()}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i := range failoverClients {
		hc := &http.Client{Timeout: 10 * time.Second}
		base := nodes[i%len(nodes)].base
		send := func() (int, string, error) { return getCost(hc, "GET", base+"/china/securities/SSE.600519", key, "") }
		if i == 0 {
			send = keyedExports(hc, base, key)
		}
		wg.Go(func() {
			for ctx.Err() == nil {
				began := time.Now()
				status, cost, err := send()
				run.record(began, status, cost, err)
			}
		})
	}
	time.Sleep(failoverKillAt)
	run.mu.Lock()
	run.kill = time.Now()
	run.mu.Unlock()
	cl.fail(promoteAfter)
	run.mu.Lock()
	run.promoted = time.Now()
	run.mu.Unlock()
	time.Sleep(failoverAfter)
	cancel()
	wg.Wait()
	return run
}

// keyedExports sends the exports of a client that sends each under an
// Idempotency-Key, as a careful client does: the same key again until the
// export is answered 200, then the next key.
func keyedExports(hc *http.Client, base, key string) func() (int, string, error) {
	n := 0
	return func() (int, string, error) {
		status, cost, err := getCost(hc, "POST", base+"/india/exports", key, fmt.Sprintf("failover-export-%d", n))
		if status == http.StatusOK {
			n++
		}
		return status, cost, err
	}
}

// exportBody is the keyed client's export: RELIANCE's sample rows as CSV.
const exportBody = `{"dataset":"india.prices","format":"csv","filters":{"symbol":"RELIANCE"}}`

// getCost sends one request (a POST of exportBody under idempotencyKey)
// and answers its status and X-Credits-Cost.
func getCost(hc *http.Client, method, url, key, idempotencyKey string) (int, string, error) {
	var body io.Reader
	if method == "POST" {
		body = strings.NewReader(exportBody)
	}
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("X-API-KEY", key)
	if idempotencyKey != "" {
		req.Header.Set("Idempotency-Key", idempotencyKey)
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return 0, "", err
	}
	return resp.StatusCode, resp.Header.Get("X-Credits-Cost"), nil
}

// report logs the run's figures.
func (f *failoverRun) report(t *testing.T) {
	killAt, promotedAt := f.kill.Sub(f.start), f.promoted.Sub(f.start)
	firstAfter := time.Duration(-1)
	gap, last := time.Duration(0), time.Duration(0)
	slices.Sort(f.successes)
	for _, s := range f.successes {
		gap = max(gap, s-last)
		last = s
		if firstAfter < 0 && s > promotedAt {
			firstAfter = s - killAt
		}
	}
	t.Logf("failover: statuses %v, told %d, unanswered %d, slowest %v, longest time without a success %v, first success after the promotion %v after the kill",
		f.statuses, f.told, f.gaveUp, f.slowest.Round(time.Millisecond), gap.Round(time.Millisecond), firstAfter.Round(time.Millisecond))
}
