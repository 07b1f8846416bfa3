package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/quarrydata/quarry/adapters/ferretdb"
	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/cmd/quarry/cli"
	"github.com/quarrydata/quarry/ports/porttest"
)

// TestEmbeddedSurvivesSIGKILL serves the binary on a data directory, loads
// one key from eight clients, kills the process with SIGKILL mid-load and
// starts it again on the same directory: the session and the key still
// work, the ledger verifies, and every 200 answered before the kill is
// matched by exactly one debit carrying its request id. Then a backup taken
// while it serves is restored.
func TestEmbeddedSurvivesSIGKILL(t *testing.T) {
	bin := buildQuarry(t)
	dir := filepath.Join(t.TempDir(), "data")
	addr := freeAddr(t)
	stop := serveBinary(t, bin, dir, addr)
	c := &client{t: t, base: "http://" + addr, http: &http.Client{Timeout: 30 * time.Second}}
	session, key := signIn(t, c, "sigkill@example.com")

	served := loadUntilKilled(t, c.base, key, stop)
	if len(served) == 0 {
		t.Fatal("no request was served before the kill")
	}

	stop = serveBinary(t, bin, dir, addr)
	st := ledgerAll(t, c, session)
	debits := map[string]int{}
	for _, e := range st {
		if e.Kind == "debit" && e.RequestID != nil {
			debits[*e.RequestID]++
		}
	}
	for id := range served {
		if debits[id] != 1 {
			t.Errorf("response %s, answered 200 before the kill, is matched by %d debits after the restart", id, debits[id])
		}
	}
	t.Logf("%d responses served before SIGKILL, %d debits found after the restart", len(served), len(debits))
	c.do("GET", "/china/securities/SSE.600519", nil, apiKey(key)).expect(t, http.StatusOK)
	var out bytes.Buffer
	if err := cli.VerifyLedger(context.Background(), bootstrap.Config{DataDir: dir}, &out); err != nil {
		t.Fatalf("ledger verify: %v\n%s", err, out.String())
	}
	backupAndRestore(t, bin, dir, c, session, key, stop)
}

// backupAndRestore runs `quarry backup` beside the running server, stops
// it, and serves the copy: the account, its key and its balance are there,
// and search answers from the index the copy rebuilt.
func backupAndRestore(t *testing.T, bin, dir string, c *client, session, key string, stop func()) {
	t.Helper()
	balance := balanceOf(t, c, session)
	copyDir := filepath.Join(t.TempDir(), "copy")
	cmd := exec.Command(bin, "backup", copyDir)
	cmd.Env = append(os.Environ(), bootstrap.EnvDataDir+"="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("quarry backup beside the server: %v\n%s", err, out)
	}
	stop()

	addr := freeAddr(t)
	serveBinary(t, bin, copyDir, addr)
	restored := &client{t: t, base: "http://" + addr, http: &http.Client{Timeout: 30 * time.Second}}
	if got := balanceOf(t, restored, session); got != balance {
		t.Fatalf("the restored copy's balance is %d, want %d", got, balance)
	}
	restored.do("POST", "/us/search", map[string]any{"query": "smartphone"}, apiKey(key)).expect(t, http.StatusOK)
}

// buildQuarry builds the binary once into the test's directory.
func buildQuarry(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "quarry")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/quarrydata/quarry/cmd/quarry")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// serveBinary serves the binary on the data directory and waits until it is
// ready; the returned func kills it with SIGKILL and waits for it to end.
// It is killed at cleanup too, if still running.
func serveBinary(t *testing.T, bin, dir, addr string) (kill func()) {
	t.Helper()
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), bootstrap.EnvDataDir+"="+dir, bootstrap.EnvHTTPAddr+"="+addr,
		bootstrap.EnvMetricsAddr+"=127.0.0.1:0", // any free port: tests run side by side
		bootstrap.EnvRateLimitRPS+"=100000", bootstrap.EnvRateLimitBurst+"=100000", bootstrap.EnvLogLevel+"=warn")
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	kill = func() {
		once.Do(func() {
			_ = cmd.Process.Signal(syscall.SIGKILL)
			_ = cmd.Wait()
		})
	}
	t.Cleanup(kill)
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return kill
			}
		}
		if time.Now().After(deadline) {
			kill()
			t.Fatalf("quarry serve not ready after 60 s: %v\n%s", err, logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// loadUntilKilled sends metered requests from eight clients, kills the
// server once 500 were answered 200, and returns the request ids of every
// 200 received.
func loadUntilKilled(t *testing.T, base, key string, kill func()) map[string]bool {
	t.Helper()
	var mu sync.Mutex
	served := map[string]bool{}
	httpc := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for {
				status, id, err := getWithID(httpc, base+"/china/securities/SSE.600519", key)
				if err != nil {
					return // the server is gone
				}
				if status != http.StatusOK {
					t.Errorf("status %d under load", status)
					return
				}
				mu.Lock()
				served[id] = true
				n := len(served)
				mu.Unlock()
				if n == 500 {
					go kill()
				}
			}
		})
	}
	wg.Wait()
	return served
}

// balanceOf reads the balance of the session's account.
func balanceOf(t *testing.T, c *client, session string) int64 {
	t.Helper()
	var page creditsBody
	c.do("GET", "/account/credits?limit=1", nil, bearer(session)).expect(t, http.StatusOK).JSON(t, &page)
	return page.Balance
}

// ledgerAll reads every ledger entry of the session's account, page by page.
func ledgerAll(t *testing.T, c *client, session string) []ledgerEntry {
	t.Helper()
	var all []ledgerEntry
	for offset := 0; ; offset += 500 {
		var page creditsBody
		c.do("GET", fmt.Sprintf("/account/credits?limit=500&offset=%d", offset), nil, bearer(session)).expect(t, http.StatusOK).JSON(t, &page)
		all = append(all, page.Ledger...)
		if len(all) >= page.Meta.Total || len(page.Ledger) == 0 {
			return all
		}
	}
}

// TestMixedBackends serves PostgreSQL's ledger beside embedded documents,
// and embedded SQLite's beside a MongoDB-wire server, from the same
// settings: /readyz and /catalog say which backend serves what, and a
// metered request is served and charged on each.
func TestMixedBackends(t *testing.T) {
	for name, tc := range map[string]struct {
		s    stack
		want string
	}{
		"postgres+embedded documents": {stack{postgres: true, dataDir: true}, `{"platform":"postgresql","documents":"ferretdb-embedded","search":"disk"}`},
		"sqlite+mongo":                {stack{mongo: true, dataDir: true}, `{"platform":"sqlite","documents":"mongodb","search":"disk"}`},
	} {
		t.Run(name, func(t *testing.T) {
			c, _ := startApp(t, tc.s)
			var ready, catalog struct {
				Storage json.RawMessage `json:"storage"`
			}
			c.do("GET", "/readyz", nil).expect(t, http.StatusOK).JSON(t, &ready)
			c.do("GET", "/catalog", nil).expect(t, http.StatusOK).JSON(t, &catalog)
			if string(ready.Storage) != tc.want || string(catalog.Storage) != tc.want {
				t.Fatalf("storage: /readyz %s, /catalog %s; want %s", ready.Storage, catalog.Storage, tc.want)
			}
			session, key := signIn(t, c, "mixed@example.com")
			c.do("GET", "/china/securities/SSE.600519", nil, apiKey(key)).expect(t, http.StatusOK)
			if st := credits(t, c, session); st.Balance != 100000-1 {
				t.Fatalf("balance %d after one metered request", st.Balance)
			}
		})
	}
}

// TestEmbeddedDocumentContracts runs every document port's contract suite
// against the MongoDB adapters on FerretDB embedded over SQLite in a data
// directory, as QUARRY_DATA_DIR serves them, a fresh database per test.
func TestEmbeddedDocumentContracts(t *testing.T) {
	// The contract suites touch only stores of their own: they run beside
	// each other once the other tests are done, on the second core.
	t.Parallel()
	server, err := ferretdb.Start(filepath.Join(t.TempDir(), "documents"), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	client, err := mongodrv.Connect(options.Client().ApplyURI(server.URI()))
	if err != nil {
		server.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = client.Disconnect(context.Background())
		server.Close()
	})
	porttest.RunAll(t, mongoStores(func(*testing.T) *mongodrv.Database { return client.Database(mongoDBName()) }))
}

// embeddedTemplate is a data directory holding every bundled sample,
// ingested once per test binary; each test on the embedded backend serves
// a copy of its documents, as it would after `quarry ingest all`.
var embeddedTemplate struct {
	once sync.Once
	dir  string
	err  error
}

// copyEmbeddedTemplate copies the template's documents into the new data
// directory dir.
func copyEmbeddedTemplate(t *testing.T, dir string) {
	t.Helper()
	embeddedTemplate.once.Do(func() {
		embeddedTemplate.dir, embeddedTemplate.err = os.MkdirTemp("", "quarry-e2e-template-")
		if embeddedTemplate.err == nil {
			var cfg bootstrap.Config
			env := map[string]string{bootstrap.EnvDataDir: filepath.Join(embeddedTemplate.dir, "data")}
			cfg, embeddedTemplate.err = bootstrap.LoadConfig(func(k string) string { return env[k] })
			if embeddedTemplate.err == nil {
				embeddedTemplate.err = cli.Ingest(context.Background(), cfg, "all", nil, io.Discard, nil)
			}
		}
	})
	if embeddedTemplate.err != nil {
		t.Fatalf("ingest the embedded template: %v", embeddedTemplate.err)
	}
	if err := os.CopyFS(filepath.Join(dir, "documents"), os.DirFS(filepath.Join(embeddedTemplate.dir, "data", "documents"))); err != nil {
		t.Fatal(err)
	}
}

// removeEmbeddedTemplate removes the template once the tests are done.
func removeEmbeddedTemplate() {
	if embeddedTemplate.dir != "" {
		_ = os.RemoveAll(embeddedTemplate.dir)
	}
}
