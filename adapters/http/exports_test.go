package http_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/csv"
	"iter"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/quarrydata/quarry/adapters/exportfile"
	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/indiaexports"
	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/account"
	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/domain/scope"
	"github.com/quarrydata/quarry/domain/table"
)

// rowsSource is a test dataset's export: n rows, the first waiting on gate
// when set, so a request can be held while it runs.
type rowsSource struct {
	n    int
	gate <-chan struct{}
}

func (rowsSource) Columns() []table.Column {
	return []table.Column{{Name: "symbol", Kind: table.String}, {Name: "date", Kind: table.Date}, {Name: "close", Kind: table.Decimal}}
}

func (s rowsSource) Rows(context.Context) iter.Seq2[table.Row, error] {
	return func(yield func(table.Row, error) bool) {
		if s.gate != nil {
			<-s.gate
		}
		for i := range s.n {
			if !yield(table.Row{{Str: "TEST"}, {Day: table.Day(19900 + i)}, {Num: 100.25 + float64(i)}}, nil) {
				return
			}
		}
	}
}

// exportServer serves POST /india/exports over a test dataset "test.rows"
// (filters n and hold) and one needing litigation:read, on memory stores.
type exportServer struct {
	t        *testing.T
	srv      *httpadapter.Server
	platform *memory.Platform
	gate     chan struct{}
	opened   chan struct{}
}

var exportNow = time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC)

func newExportServer(t *testing.T) *exportServer {
	e := &exportServer{t: t, platform: memory.NewPlatform(), gate: make(chan struct{}), opened: make(chan struct{}, 10)}
	now := func() time.Time { return exportNow }
	plan := func(f map[string]string) (usecase.ExportPlan, error) {
		n := 0
		if f["n"] != "" {
			n = len(f["n"])
		}
		return func(context.Context) (usecase.Export, error) {
			src := rowsSource{n: n}
			if f["hold"] == "yes" {
				src.gate = e.gate
				e.opened <- struct{}{}
			}
			return usecase.Export{Source: src, AsOf: exportNow, Stem: "TEST_rows"}, nil
		}, nil
	}
	held := func(context.Context) (bool, error) { return true, nil }
	datasets := []usecase.ExportDataset{
		{Name: "test.rows", ID: dataset.IndiaPrices, Filters: []string{"n", "hold"}, Held: held, Plan: plan},
		{Name: "test.litigation", ID: dataset.IndiaPrices, Permissions: []scope.Permission{scope.LitigationRead}, Held: held, Plan: plan},
	}
	avail := usecase.NewAvailability([]usecase.DatasetProbe{{Dataset: dataset.IndiaPrices, Probe: held}, indiaexports.Probe(datasets)})
	exports := indiaexports.New(datasets, exportfile.Encoders(), avail)
	srv, err := httpadapter.NewServer(httpadapter.Deps{
		Metering:     platform.NewMetering(e.platform, e.platform, now),
		Idempotency:  platform.NewIdempotency(e.platform, platform.NewMetering(e.platform, e.platform, now), now),
		Limiter:      platform.NewRateLimiter(memory.NewLimits(), 1000, 1000, now),
		Availability: avail,
		Handlers:     httpadapter.ExportHandlers(exports),
		Log:          zap.NewNop(),
	})
	if err != nil {
		t.Fatal(err)
	}
	e.srv = srv
	return e
}

// account provisions an account with credits and returns a key of it.
func (e *exportServer) account(id string, credits int64, scopes ...string) string {
	ctx := context.Background()
	acc := account.Account{ID: id, Email: id + "@example.com", PasswordHash: "$argon2id$test", CreatedAt: exportNow}
	if err := e.platform.Provision(ctx, acc, ledger.Entry{ID: "led_" + id, AccountID: id, Kind: ledger.Grant, Amount: credits, CreatedAt: exportNow}); err != nil {
		e.t.Fatal(err)
	}
	secret, err := apikey.Generate(rand.Reader)
	if err != nil {
		e.t.Fatal(err)
	}
	k := apikey.Key{ID: "key_" + id, AccountID: id, Name: id, Prefix: apikey.Prefix(secret), Hash: apikey.Digest(secret), Scopes: scopes, CreatedAt: exportNow}
	if err := e.platform.CreateKey(ctx, k, 10); err != nil {
		e.t.Fatal(err)
	}
	return secret
}

func (e *exportServer) post(secret, idemKey, body string) *httptest.ResponseRecorder {
	r := httptest.NewRequest("POST", "/india/exports", strings.NewReader(body))
	r.Header.Set("X-API-KEY", secret)
	if idemKey != "" {
		r.Header.Set("Idempotency-Key", idemKey)
	}
	w := httptest.NewRecorder()
	e.srv.ServeHTTP(w, r)
	return w
}

func (e *exportServer) balance(accountID string) int64 {
	b, err := e.platform.Balance(context.Background(), accountID)
	if err != nil {
		e.t.Fatal(err)
	}
	return b
}

var exportScopes = []string{"data:export", "india:read"}

func TestExportAnswersTheFile(t *testing.T) {
	e := newExportServer(t)
	secret := e.account("acc_a", 1000, exportScopes...)
	w := e.post(secret, "", `{"dataset":"test.rows","format":"csv","filters":{"n":"xxx"}}`)
	if w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	h := w.Header()
	if h.Get("Content-Type") != "text/csv; charset=utf-8; header=present" || h.Get("Content-Disposition") != `attachment; filename=TEST_rows.csv` ||
		h.Get("X-As-Of") != "2026-07-20T09:00:00Z" || h.Get("X-Credits-Cost") != "50" || h.Get("X-Credits-Remaining") != "950" {
		t.Fatalf("headers %v", h)
	}
	recs, err := csv.NewReader(w.Body).ReadAll()
	if err != nil || len(recs) != 4 || recs[0][0] != "symbol" || recs[1][1] != "2024-06-26" || recs[3][2] != "102.25" {
		t.Fatalf("csv %v (%v)", recs, err)
	}
	// No rows is a header-only file, charged as any export.
	w = e.post(secret, "", `{"dataset":"test.rows","format":"csv"}`)
	if w.Code != 200 || w.Body.String() != "symbol,date,close\r\n" || w.Header().Get("X-Credits-Cost") != "50" {
		t.Fatalf("empty export: %d %q %v", w.Code, w.Body, w.Header())
	}
}

func TestExportRefusals(t *testing.T) {
	e := newExportServer(t)
	secret := e.account("acc_a", 1000, exportScopes...)
	noExport := e.account("acc_b", 1000, "india:read")
	for _, c := range []struct {
		secret, key, body string
		status            int
	}{
		{secret, "", `{"dataset":"test.rows","format":"csv","extra":1}`, 400},
		{secret, "", `{"dataset":"test.rows","format":"csv","filters":{"court":"x"}}`, 400},
		{secret, "", `{"dataset":"test.rows","format":"pdf"}`, 422},
		{secret, "", `{"dataset":"india.unknown","format":"csv"}`, 422},
		{secret, "", `{"format":"csv"}`, 422},
		{secret, "", `{"dataset":"test.rows","format":"csv","filters":{"n":5}}`, 422},
		{secret, "", `{"dataset":"test.litigation","format":"csv"}`, 403},
		{noExport, "", `{"dataset":"test.rows","format":"csv"}`, 403},
		{secret, "", `{"dataset":"test.rows","format":"csv"`, 400},
		{secret, strings.Repeat("k", 256), `{"dataset":"test.rows","format":"csv"}`, 400},
		{secret, "tab\tkey", `{"dataset":"test.rows","format":"csv"}`, 400},
		{secret, `"unterminated`, `{"dataset":"test.rows","format":"csv"}`, 400},
	} {
		w := e.post(c.secret, c.key, c.body)
		if w.Code != c.status || w.Header().Get("X-Credits-Cost") != "0" {
			t.Errorf("%s [%s]: %d cost %s, want %d cost 0: %s", c.body, c.key, w.Code, w.Header().Get("X-Credits-Cost"), c.status, w.Body)
		}
	}
	if e.balance("acc_a") != 1000 {
		t.Fatalf("refusals cost %d", 1000-e.balance("acc_a"))
	}
}

func TestExportIdempotencyKey(t *testing.T) {
	e := newExportServer(t)
	secret := e.account("acc_a", 1000, exportScopes...)
	other := e.account("acc_b", 1000, exportScopes...)
	body := `{"dataset":"test.rows","format":"parquet","filters":{"n":"xxxx"}}`
	first := e.post(secret, "export-2026-07-20", body)
	if first.Code != 200 || first.Header().Get("Idempotent-Replayed") != "" {
		t.Fatalf("first: %d %v", first.Code, first.Header())
	}
	// The same body, spaced and ordered otherwise, is the same request.
	same := `{ "filters": {"n": "xxxx"}, "format": "parquet", "dataset": "test.rows" }`
	replay := e.post(secret, `"export-2026-07-20"`, same)
	if replay.Code != 200 || replay.Header().Get("Idempotent-Replayed") != "true" || replay.Header().Get("X-Credits-Cost") != "0" ||
		replay.Header().Get("Content-Disposition") != first.Header().Get("Content-Disposition") ||
		replay.Header().Get("Content-Type") != "application/vnd.apache.parquet" || replay.Header().Get("X-As-Of") != first.Header().Get("X-As-Of") {
		t.Fatalf("replay: %d %v", replay.Code, replay.Header())
	}
	if sha256.Sum256(replay.Body.Bytes()) != sha256.Sum256(first.Body.Bytes()) || replay.Body.Len() == 0 {
		t.Fatal("the replay is not the first file byte for byte")
	}
	if got := e.balance("acc_a"); got != 950 {
		t.Fatalf("balance %d after a replay, want 950 (one debit)", got)
	}
	reused := e.post(secret, "export-2026-07-20", `{"dataset":"test.rows","format":"csv"}`)
	if reused.Code != 422 || reused.Header().Get("X-Credits-Cost") != "0" || !strings.Contains(reused.Body.String(), "idempotency_key_reused") {
		t.Fatalf("another body under the key: %d %s", reused.Code, reused.Body)
	}
	// Another account's identical key is another request.
	if w := e.post(other, "export-2026-07-20", body); w.Code != 200 || w.Header().Get("Idempotent-Replayed") != "" || e.balance("acc_b") != 950 {
		t.Fatalf("other account: %d %v, balance %d", w.Code, w.Header(), e.balance("acc_b"))
	}
	if got := e.balance("acc_a"); got != 950 {
		t.Fatalf("balance %d, want 950", got)
	}
}

func TestExportIdempotencyKeyWhileRunning(t *testing.T) {
	e := newExportServer(t)
	secret := e.account("acc_a", 1000, exportScopes...)
	body := `{"dataset":"test.rows","format":"xlsx","filters":{"n":"xx","hold":"yes"}}`
	var first *httptest.ResponseRecorder
	var wg sync.WaitGroup
	wg.Go(func() { first = e.post(secret, "held", body) })
	<-e.opened // the first request is charged and running
	w := e.post(secret, "held", body)
	if w.Code != 409 || w.Header().Get("X-Credits-Cost") != "0" || !strings.Contains(w.Body.String(), "idempotency_key_in_use") {
		t.Fatalf("while running: %d %s", w.Code, w.Body)
	}
	close(e.gate)
	wg.Wait()
	if first.Code != 200 || !bytes.HasPrefix(first.Body.Bytes(), []byte("PK")) {
		t.Fatalf("first: %d", first.Code)
	}
	if r := e.post(secret, "held", body); r.Code != 200 || r.Header().Get("Idempotent-Replayed") != "true" || !bytes.Equal(r.Body.Bytes(), first.Body.Bytes()) {
		t.Fatalf("replay after: %d %v", r.Code, r.Header())
	}
	if got := e.balance("acc_a"); got != 950 {
		t.Fatalf("balance %d, want 950", got)
	}
}
