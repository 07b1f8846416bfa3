package http

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/julienschmidt/httprouter"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/account"
	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/ledger"
)

// csvServer serves GET /india/prices.csv with a body of size bytes, for a
// key of an account holding 100 credits.
func csvServer(t *testing.T, size int) (*Server, *memory.Platform, string) {
	t.Helper()
	return mcpTestServer(t, strings.Repeat("x", size), 100, nil)
}

// mcpTestServer serves GET /india/prices.csv with body, for a key of an
// account holding 100 credits limited to burst requests (and a tenth of one
// a second); onPrepare, if set, sees each request the route prepares.
func mcpTestServer(t *testing.T, body string, burst int, onPrepare func(*http.Request)) (*Server, *memory.Platform, string) {
	t.Helper()
	ctx := context.Background()
	now := func() time.Time { return time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC) }
	p := memory.NewPlatform()
	acc := account.Account{ID: "acc_1", Email: "a@example.com", PasswordHash: "$argon2id$test", CreatedAt: now()}
	if err := p.Provision(ctx, acc, ledger.Entry{ID: "led_1", AccountID: acc.ID, Kind: ledger.Grant, Amount: 100, CreatedAt: now()}); err != nil {
		t.Fatal(err)
	}
	secret, err := apikey.Generate(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	k := apikey.Key{ID: "key_1", AccountID: acc.ID, Name: "k", Prefix: apikey.Prefix(secret), Hash: apikey.Digest(secret), Scopes: []string{"india:read"}, CreatedAt: now()}
	if err := p.CreateKey(ctx, k, 10); err != nil {
		t.Fatal(err)
	}
	csv := DataHandler{Method: http.MethodGet, Path: "/india/prices.csv", Prepare: func(r *http.Request, _ httprouter.Params) (Serve, error) {
		if onPrepare != nil {
			onPrepare(r)
		}
		return func(context.Context) (Response, error) {
			return Response{MediaType: "text/csv; charset=utf-8", Header: http.Header{"Content-Disposition": {`attachment; filename="NSE_TCS_EQ_all_all.csv"`}},
				Body: func(_ context.Context, w io.Writer) error {
					_, err := io.WriteString(w, body)
					return err
				}}, nil
		}, nil
	}}
	held := usecase.DatasetProbe{Dataset: dataset.IndiaPrices, Probe: func(context.Context) (bool, error) { return true, nil }}
	s, err := NewServer(Deps{
		Metering: platform.NewMetering(p, p, now), Limiter: platform.NewRateLimiter(memory.NewLimits(), 0.1, burst, now),
		Availability: usecase.NewAvailability([]usecase.DatasetProbe{held}), Handlers: []DataHandler{csv}, Log: zap.NewNop(),
	})
	if err != nil {
		t.Fatal(err)
	}
	return s, p, secret
}

// callCSV calls get_india_prices_csv as the SDK's server would.
func callCSV(t *testing.T, s *Server, secret string) *mcp.CallToolResult {
	t.Helper()
	ops, err := mcpTools()
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range ops {
		if op.route.OperationID == "get_india_prices_csv" {
			res, err := s.mcpTool(op)(context.Background(), &mcp.CallToolRequest{
				Params: &mcp.CallToolParamsRaw{Name: op.route.OperationID, Arguments: json.RawMessage(`{"symbol":"TCS"}`)},
				Extra:  &mcp.RequestExtra{Header: http.Header{"Authorization": {"Bearer " + secret}}},
			})
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
	}
	t.Fatal("no tool get_india_prices_csv")
	return nil
}

// TestMCPFileIsEmbeddedWithItsLicence: a file within the bound is an
// embedded resource named by the route and the file, charged once, with
// its internal-only licence beside it.
func TestMCPFileIsEmbeddedWithItsLicence(t *testing.T) {
	s, p, secret := csvServer(t, 1000)
	res := callCSV(t, s, secret)
	if res.IsError || len(res.Content) != 2 {
		t.Fatalf("result: %+v", res)
	}
	er, _ := res.Content[0].(*mcp.EmbeddedResource)
	if er == nil || len(er.Resource.Text) != 1000 || er.Resource.URI != "quarry:/india/prices.csv?symbol=TCS#NSE_TCS_EQ_all_all.csv" {
		t.Fatalf("embedded: %+v", er)
	}
	if tc, _ := res.Content[1].(*mcp.TextContent); tc == nil || !strings.Contains(tc.Text, "internal use only") {
		t.Errorf("no licence beside the file: %+v", res.Content[1])
	}
	if bal, _ := p.Balance(context.Background(), "acc_1"); bal != 100-dataset.CostPricesCSV || res.Meta["quarry/credits_cost"] != dataset.CostPricesCSV {
		t.Errorf("balance %d, meta %v", bal, res.Meta)
	}
}

// TestMCPFileTooLargeIsRefunded: a body over maxMCPBody is a tool error
// and its charge is refunded.
func TestMCPFileTooLargeIsRefunded(t *testing.T) {
	s, p, secret := csvServer(t, maxMCPBody+1)
	res := callCSV(t, s, secret)
	msg := ""
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		msg = tc.Text
	}
	if !res.IsError || !strings.Contains(msg, "nothing was charged") || !strings.Contains(msg, "GET /india/prices.csv?symbol=TCS") {
		t.Fatalf("result: %v %q", res.IsError, msg)
	}
	st, err := p.Statement(context.Background(), "acc_1", 10, 0)
	if err != nil {
		t.Fatal(err)
	}
	if bal, _ := p.Balance(context.Background(), "acc_1"); bal != 100 || len(st.Entries) != 3 || res.Meta["quarry/credits_cost"] != int64(0) {
		t.Errorf("balance %d, %d entries, meta %v", bal, len(st.Entries), res.Meta)
	}
}

// TestMCPBehindAProxy: a request a reverse proxy forwards to a loopback
// listener, under the public Host, is served: the key is what is trusted.
func TestMCPBehindAProxy(t *testing.T) {
	s, _, secret := csvServer(t, 0)
	srv := httptest.NewServer(s)
	defer srv.Close()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	req, err := http.NewRequest(http.MethodPost, srv.URL+"/mcp", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Host = "quarry.example.com"
	req.Header.Set("X-API-KEY", secret)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(got), `"get_india_prices_csv"`) {
		t.Fatalf("%d %s", resp.StatusCode, got)
	}
}

// TestMCPResultOverTheResponseBoundIsRefunded: a file within maxMCPBody
// whose result, as JSON, would pass maxMCPResponse (control characters
// take six bytes each there) is a refunded tool error, not an answer the
// gate refuses after the charge.
func TestMCPResultOverTheResponseBoundIsRefunded(t *testing.T) {
	s, p, secret := mcpTestServer(t, strings.Repeat("\x01", 3<<20), 100, nil)
	res := callCSV(t, s, secret)
	msg := ""
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		msg = tc.Text
	}
	if !res.IsError || !strings.Contains(msg, "nothing was charged") || !strings.Contains(msg, "16777216") {
		t.Fatalf("result: %v %.300q", res.IsError, msg)
	}
	if bal, _ := p.Balance(context.Background(), "acc_1"); bal != 100 || res.Meta["quarry/credits_cost"] != int64(0) {
		t.Errorf("balance %d, meta %v", bal, res.Meta)
	}
}

// TestMCPMessagesCarryTheirRateLimit: a message other than a tool call
// takes from the key's MCP bucket, and its answer says so under the policy
// "mcp": 100 at once, refilled at a tenth of one a second.
func TestMCPMessagesCarryTheirRateLimit(t *testing.T) {
	s, _, secret := csvServer(t, 0)
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	req.Header.Set("X-API-KEY", secret)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	w := httptest.NewRecorder()
	s.ServeHTTP(w, req)
	policy, left := w.Header().Get("RateLimit-Policy"), w.Header().Get("RateLimit")
	if w.Code != http.StatusOK || policy != `"mcp";q=100;w=1000` || left != `"mcp";r=99;t=10` {
		t.Fatalf("tools/list: %d, RateLimit-Policy %q, RateLimit %q; want 200, %q, %q", w.Code, policy, left, `"mcp";q=100;w=1000`, `"mcp";r=99;t=10`)
	}
}
