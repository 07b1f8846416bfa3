package http

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/julienschmidt/httprouter"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/account"
	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/ledger"
)

// countedKeys is the platform's key store, counting the key lookups.
type countedKeys struct {
	*memory.Platform
	lookups atomic.Int64
}

// KeyByHash counts the lookup and answers it.
func (c *countedKeys) KeyByHash(ctx context.Context, hash string) (apikey.Key, error) {
	c.lookups.Add(1)
	return c.Platform.KeyByHash(ctx, hash)
}

// benchRow is a price row as the India routes answer it.
type benchRow struct {
	Date     string  `json:"date"`
	Symbol   string  `json:"symbol"`
	ISIN     string  `json:"isin"`
	Series   string  `json:"series"`
	Open     float64 `json:"open"`
	High     float64 `json:"high"`
	Low      float64 `json:"low"`
	Close    float64 `json:"close"`
	Volume   int64   `json:"volume"`
	Turnover float64 `json:"turnover"`
}

// benchRows are n rows of one security.
func benchRows(n int) []benchRow {
	rows := make([]benchRow, n)
	for i := range rows {
		rows[i] = benchRow{Date: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i).Format(time.DateOnly),
			Symbol: "TCS", ISIN: "INE467B01029", Series: "EQ", Open: 3500.5 + float64(i), High: 3550.25, Low: 3490.75,
			Close: 3525.1, Volume: 1234567 + int64(i), Turnover: 4.35e9}
	}
	return rows
}

// csvOf is rows as CSV, written as a route writes its rows.
func csvOf(rows []benchRow) []byte {
	var b []byte
	for _, r := range rows {
		b = append(append(append(append(b, r.Date...), ','), r.Symbol...), ',')
		b = append(append(append(append(b, r.ISIN...), ','), r.Series...), ',')
		for _, f := range []float64{r.Open, r.High, r.Low, r.Close} {
			b = append(strconv.AppendFloat(b, f, 'f', -1, 64), ',')
		}
		b = append(strconv.AppendFloat(append(strconv.AppendInt(b, r.Volume, 10), ','), r.Turnover, 'f', -1, 64), '\n')
	}
	return b
}

// meteredMCP is a server whose India price routes answer rows (JSON) and
// the same rows as CSV, for one key holding plenty of credits, with the
// key lookups counted and the request log lines observed.
type meteredMCP struct {
	srv    *Server
	keys   *countedKeys
	logs   *observer.ObservedLogs
	secret string
}

func newMeteredMCP(tb testing.TB, rows []benchRow) *meteredMCP {
	tb.Helper()
	ctx := context.Background()
	now := func() time.Time { return time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC) }
	p := memory.NewPlatform()
	acc := account.Account{ID: "acc_1", Email: "a@example.com", PasswordHash: "$argon2id$test", CreatedAt: now()}
	if err := p.Provision(ctx, acc, ledger.Entry{ID: "led_1", AccountID: acc.ID, Kind: ledger.Grant, Amount: 1 << 40, CreatedAt: now()}); err != nil {
		tb.Fatal(err)
	}
	secret, err := apikey.Generate(rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	k := apikey.Key{ID: "key_1", AccountID: acc.ID, Name: "k", Prefix: apikey.Prefix(secret), Hash: apikey.Digest(secret), Scopes: []string{"india:read"}, CreatedAt: now()}
	if err := p.CreateKey(ctx, k, 10); err != nil {
		tb.Fatal(err)
	}
	jsonRows := DataHandler{Method: http.MethodGet, Path: "/india/prices", Prepare: func(*http.Request, httprouter.Params) (Serve, error) {
		return func(context.Context) (Response, error) { return JSON(map[string]any{"rows": rows}), nil }, nil
	}}
	csvRows := DataHandler{Method: http.MethodGet, Path: "/india/prices.csv", Prepare: func(*http.Request, httprouter.Params) (Serve, error) {
		return func(context.Context) (Response, error) {
			return Response{MediaType: "text/csv; charset=utf-8", Body: func(_ context.Context, w io.Writer) error {
				_, err := w.Write(csvOf(rows))
				return err
			}}, nil
		}, nil
	}}
	core, logs := observer.New(zap.InfoLevel)
	keys := &countedKeys{Platform: p}
	held := usecase.DatasetProbe{Dataset: dataset.IndiaPrices, Probe: func(context.Context) (bool, error) { return true, nil }}
	s, err := NewServer(Deps{
		Metering: platform.NewMetering(keys, p, now), Limiter: platform.NewRateLimiter(memory.NewLimits(), 1e9, 1<<30, now),
		Availability: usecase.NewAvailability([]usecase.DatasetProbe{held}), Handlers: []DataHandler{jsonRows, csvRows}, Log: zap.New(core),
	})
	if err != nil {
		tb.Fatal(err)
	}
	return &meteredMCP{srv: s, keys: keys, logs: logs, secret: secret}
}

// call posts a tools/call of tool to /mcp and returns the answer.
func (m *meteredMCP) call(tb testing.TB, tool string) *httptest.ResponseRecorder {
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%q,"arguments":{"symbol":"TCS"}}}`, tool)
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
	req.Header.Set("X-API-KEY", m.secret)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", mcpAccept)
	w := httptest.NewRecorder()
	m.srv.ServeHTTP(w, req)
	if w.Code != http.StatusOK {
		tb.Fatalf("%s: %d %.300s", tool, w.Code, w.Body.String())
	}
	return w
}

// TestMCPToolCallIsOneRequest: a tool call is one request to the platform:
// its key is looked up once, one request is logged (its record), and the
// ledger's debit names that request; the result carries the route's rows.
func TestMCPToolCallIsOneRequest(t *testing.T) {
	m := newMeteredMCP(t, benchRows(3))
	w := m.call(t, "get_india_prices")
	var answer struct {
		Result struct {
			IsError           bool `json:"isError"`
			StructuredContent struct {
				Rows []benchRow `json:"rows"`
			} `json:"structuredContent"`
			Meta map[string]any `json:"_meta"`
		} `json:"result"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &answer); err != nil || answer.Result.IsError || len(answer.Result.StructuredContent.Rows) != 3 {
		t.Fatalf("answer %v: %.400s", err, w.Body.String())
	}
	requests := m.logs.FilterMessage("request").All()
	if n := m.keys.lookups.Load(); n != 1 || len(requests) != 1 {
		t.Errorf("one tool call: %d key lookups and %d request records; want 1 and 1", n, len(requests))
	}
	st, err := m.keys.Statement(context.Background(), "acc_1", 10, 0)
	if err != nil || len(st.Entries) != 2 {
		t.Fatalf("statement %v: %+v", err, st)
	}
	debit := st.Entries[slices.IndexFunc(st.Entries, func(e ledger.Entry) bool { return e.Kind == ledger.Debit })]
	if id := w.Header().Get("X-Request-ID"); debit.RequestID != id || answer.Result.Meta["quarry/request_id"] != id {
		t.Errorf("debit of request %q, meta request_id %v; want the POST's %q", debit.RequestID, answer.Result.Meta["quarry/request_id"], id)
	}
}

// BenchmarkMCPToolCall is a POST /mcp tool call end to end: a JSON page
// of 200 rows, and the same rows as a CSV file.
func BenchmarkMCPToolCall(b *testing.B) {
	for _, tool := range []string{"get_india_prices", "get_india_prices_csv"} {
		b.Run(tool, func(b *testing.B) {
			m := newMeteredMCP(b, benchRows(200))
			m.srv.log = zap.NewNop()
			m.call(b, tool) // the tools are derived from the OpenAPI document once
			b.ReportAllocs()
			for b.Loop() {
				m.call(b, tool)
			}
		})
	}
}

// TestMCPToolCallRefusalIsCounted: a tool call refused for its rate is
// counted among the data requests refused, though its POST answers 200.
func TestMCPToolCallRefusalIsCounted(t *testing.T) {
	s, _, secret := mcpTestServer(t, "a,b\n", 1, nil)
	if res := callCSV(t, s, secret); res.IsError {
		t.Fatalf("first call: %+v", res.Content)
	}
	res := callCSV(t, s, secret)
	if !res.IsError || res.Meta["quarry/status"] != http.StatusTooManyRequests {
		t.Fatalf("second call: %v %+v", res.Meta, res.Content)
	}
	families, err := s.metrics.registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	counted := 0.0
	for _, f := range families {
		if f.GetName() == "quarry_requests_refused_total" {
			for _, m := range f.GetMetric() {
				counted += m.GetCounter().GetValue()
			}
		}
	}
	if counted != 1 {
		t.Errorf("%v refusals counted, want 1", counted)
	}
}

// TestMCPEmptyFileKeepsItsType: an empty CSV is an embedded text resource
// of the route's media type, as a CSV with rows is.
func TestMCPEmptyFileKeepsItsType(t *testing.T) {
	s, _, secret := csvServer(t, 0)
	res := callCSV(t, s, secret)
	er, _ := res.Content[0].(*mcp.EmbeddedResource)
	if res.IsError || er == nil || er.Resource.MIMEType != "text/csv; charset=utf-8" || er.Resource.Blob != nil {
		t.Fatalf("result: %+v", res.Content[0])
	}
}
