package http

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// mcpAccept is the Accept header the transport asks for.
const mcpAccept = "application/json, text/event-stream"

// mcpPost sends body to the server's /mcp with the key and the headers
// given (name, value pairs; a name starting with "+" adds a value), and
// returns the answer read whole. The client
// gives up after 5 s, so a request the server holds fails the test.
func mcpPost(t *testing.T, srv *httptest.Server, method, secret, body string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+"/mcp", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-API-KEY", secret)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", mcpAccept)
	for i := 0; i+1 < len(headers); i += 2 {
		if name, ok := strings.CutPrefix(headers[i], "+"); ok {
			req.Header.Add(name, headers[i+1])
		} else {
			req.Header.Set(headers[i], headers[i+1])
		}
	}
	client := srv.Client()
	client.Timeout = 5 * time.Second
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s /mcp %.60s: %v", method, body, err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, got
}

// rpcError is a JSON-RPC error response as /mcp writes one.
type rpcError struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   struct {
		Code    int       `json:"code"`
		Message string    `json:"message"`
		Data    errorBody `json:"data"`
	} `json:"error"`
}

// wantRPCError holds an answer to a JSON-RPC error response of the status
// and code, in JSON, whose data is an ErrorResponse with the request id.
func wantRPCError(t *testing.T, resp *http.Response, body []byte, status, code int) rpcError {
	t.Helper()
	var e rpcError
	if resp.StatusCode != status || resp.Header.Get("Content-Type") != "application/json" || json.Unmarshal(body, &e) != nil ||
		e.JSONRPC != "2.0" || e.Error.Code != code || e.Error.Message == "" || e.Error.Data.RequestID != resp.Header.Get("X-Request-ID") {
		t.Fatalf("want a JSON-RPC error %d (%d), got %d %s: %.300s", code, status, resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	return e
}

// csvCall is a tools/call of get_india_prices_csv with the JSON-RPC id.
func csvCall(id int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"get_india_prices_csv","arguments":{"symbol":"TCS"}}}`, id)
}

// batchOf is a JSON-RPC batch of n messages made by msg.
func batchOf(n int, msg func(int) string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = msg(i + 1)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// TestMCPBatchIsRefused: a JSON-RPC batch is refused with a JSON-RPC error
// before anything in it is dispatched, with or without the protocol version
// header (without it, the SDK served batches).
func TestMCPBatchIsRefused(t *testing.T) {
	var prepared atomic.Int64
	s, p, secret := mcpTestServer(t, "x", 10000, func(*http.Request) { prepared.Add(1) })
	srv := httptest.NewServer(s)
	defer srv.Close()
	for _, headers := range [][]string{nil, {"Mcp-Protocol-Version", "2025-06-18"}} {
		read := func(i int) string {
			return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resources/read","params":{"uri":%q}}`, i, mcpOpenAPIURI)
		}
		for _, batch := range []string{batchOf(1500, read), batchOf(3, csvCall), " \n[" + csvCall(1) + "]", "[]"} {
			resp, body := mcpPost(t, srv, http.MethodPost, secret, batch, headers...)
			e := wantRPCError(t, resp, body, http.StatusBadRequest, -32600)
			if string(e.ID) != "null" || !strings.Contains(e.Error.Message, "batch") {
				t.Errorf("batch refusal: %s", body)
			}
		}
	}
	if n := prepared.Load(); n != 0 {
		t.Errorf("%d calls of a batch reached the route", n)
	}
	if bal, _ := p.Balance(context.Background(), "acc_1"); bal != 100 {
		t.Errorf("balance %d after refused batches", bal)
	}
}

// TestMCPListenIsRefusedAtOnce: subscriptions/listen, which opened a stream
// that never ended, is a JSON-RPC "method not found" answered at once, and
// a GET asking for an event stream is a 405 in JSON.
func TestMCPListenIsRefusedAtOnce(t *testing.T) {
	s, _, secret := csvServer(t, 1)
	srv := httptest.NewServer(s)
	defer srv.Close()
	listen := `{"jsonrpc":"2.0","id":"l1","method":"subscriptions/listen","params":{}}`
	for _, headers := range [][]string{nil, {"Mcp-Protocol-Version", "2025-11-25"}} {
		resp, body := mcpPost(t, srv, http.MethodPost, secret, listen, headers...)
		if e := wantRPCError(t, resp, body, http.StatusNotFound, -32601); string(e.ID) != `"l1"` {
			t.Errorf("id %s", e.ID)
		}
	}
	resp, body := mcpPost(t, srv, http.MethodGet, secret, "", "Accept", "text/event-stream")
	var e errorBody
	if resp.StatusCode != http.StatusMethodNotAllowed || json.Unmarshal(body, &e) != nil || e.Error != "method_not_allowed" || !strings.Contains(resp.Header.Get("Allow"), "POST") {
		t.Errorf("GET /mcp: %d %v %s", resp.StatusCode, resp.Header, body)
	}
}

// TestMCPRequestEndsBeforeTheWriteTimeout: what an MCP request runs has a
// deadline before the server's write timeout, so no request holds its
// connection past it.
func TestMCPRequestEndsBeforeTheWriteTimeout(t *testing.T) {
	var deadline time.Time
	var ok bool
	s, _, secret := mcpTestServer(t, "x", 100, func(r *http.Request) { deadline, ok = r.Context().Deadline() })
	srv := httptest.NewServer(s)
	defer srv.Close()
	start := time.Now()
	if resp, body := mcpPost(t, srv, http.MethodPost, secret, csvCall(1)); resp.StatusCode != http.StatusOK {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	if !ok || !deadline.Before(start.Add(writeTimeout)) {
		t.Errorf("the dispatched request's deadline is %v (%v), want before %v", deadline, ok, start.Add(writeTimeout))
	}
}

// TestMCPFreeMethodsAreRateLimited: messages other than tool calls take a
// token of the key's MCP bucket, with the rate limit's settings; past the
// burst they are the 429 of every route, and tool calls, limited by their
// route, still pass.
func TestMCPFreeMethodsAreRateLimited(t *testing.T) {
	s, _, secret := mcpTestServer(t, "x", 3, nil)
	srv := httptest.NewServer(s)
	defer srv.Close()
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	for i := range 3 {
		if resp, body := mcpPost(t, srv, http.MethodPost, secret, list); resp.StatusCode != http.StatusOK {
			t.Fatalf("tools/list %d: %d %.200s", i, resp.StatusCode, body)
		}
	}
	for _, msg := range []string{list, `{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"quarry://openapi.json"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"point_in_time"}}`, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, "[" + list + "]"} {
		resp, body := mcpPost(t, srv, http.MethodPost, secret, msg)
		var e errorBody
		if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" || resp.Header.Get("Content-Type") != "application/json" ||
			json.Unmarshal(body, &e) != nil || e.Error != "rate_limited" || e.RequestID == "" {
			t.Errorf("%.40s: %d %v %.200s", msg, resp.StatusCode, resp.Header, body)
		}
	}
	if resp, body := mcpPost(t, srv, http.MethodPost, secret, csvCall(4)); resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"quarry/status":200`) {
		t.Errorf("a tool call after the free burst: %d %.300s", resp.StatusCode, body)
	}
}

// TestMCPErrorsAreJSON: every error /mcp answers is JSON: the ErrorResponse
// of every route for what the HTTP layer refuses, a JSON-RPC error for what
// the MCP layer refuses.
func TestMCPErrorsAreJSON(t *testing.T) {
	s, _, secret := csvServer(t, 1)
	srv := httptest.NewServer(s)
	defer srv.Close()
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	for _, c := range []struct {
		name, key, body string
		headers         []string
		status, rpcCode int
	}{
		{"bad key", "qk_nope", list, nil, 401, 0},
		{"two credentials", secret, list, []string{"+X-API-KEY", secret}, 400, 0},
		{"too large", secret, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":"` + strings.Repeat("a", maxBody) + `"}}`, nil, 413, 0},
		{"not JSON", secret, `{"jsonrpc":`, nil, 400, -32700},
		{"not an object", secret, `"tools/list"`, nil, 400, -32600},
		{"no Accept", secret, list, []string{"Accept", "application/json"}, 400, -32600},
		{"not JSON content", secret, list, []string{"Content-Type", "text/plain"}, 415, -32600},
		{"unknown protocol version", secret, list, []string{"Mcp-Protocol-Version", "1999-01-01"}, 400, -32600},
		{"unknown method", secret, `{"jsonrpc":"2.0","id":1,"method":"nope/nope"}`, nil, 404, -32601},
		{"subscribe", secret, `{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"quarry://catalog"}}`, nil, 404, -32601},
		{"no jsonrpc", secret, `{"id":1,"method":"tools/list"}`, nil, 400, -32600},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp, body := mcpPost(t, srv, http.MethodPost, c.key, c.body, c.headers...)
			if c.rpcCode != 0 {
				wantRPCError(t, resp, body, c.status, c.rpcCode)
				return
			}
			var e errorBody
			if resp.StatusCode != c.status || resp.Header.Get("Content-Type") != "application/json" || json.Unmarshal(body, &e) != nil || e.Error == "" {
				t.Errorf("%d %s: %.200s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
			}
		})
	}
}

// TestMCPResponseOverTheCapIsRefused: an answer longer than maxMCPResponse
// is not sent: the client gets a JSON-RPC error naming the bound.
func TestMCPResponseOverTheCapIsRefused(t *testing.T) {
	rec := httptest.NewRecorder()
	rec.Header().Set("X-Request-ID", "req_1")
	r := httptest.NewRequest(http.MethodPost, mcpPath, http.NoBody)
	r = r.WithContext(context.WithValue(r.Context(), recordKey{}, &record{id: "req_1"}))
	w := newMCPWriter(rec, r, json.RawMessage(`7`))
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write([]byte(strings.Repeat("a", maxMCPResponse+1))); err != nil {
		t.Fatal(err)
	}
	w.finish()
	resp := rec.Result()
	body, _ := io.ReadAll(resp.Body)
	if e := wantRPCError(t, resp, body, http.StatusInternalServerError, -32603); string(e.ID) != "7" || !strings.Contains(e.Error.Message, "16777216") || len(body) > 1000 {
		t.Errorf("refusal: %.300s", body)
	}
}

// TestMCPMessageIsPassedOnAsSent: a message within the 1 MiB bound that
// holds many <, > and & is served, not refused as too large (the gate's
// encoding escaped each into six bytes), and a refusal of an unknown
// method quotes only the start of its name, so it is never much larger
// than the request.
func TestMCPMessageIsPassedOnAsSent(t *testing.T) {
	s, _, secret := csvServer(t, 1)
	srv := httptest.NewServer(s)
	defer srv.Close()
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"x":"` + strings.Repeat("<", 180_000) + `"}}}`
	if resp, body := mcpPost(t, srv, http.MethodPost, secret, ping); resp.StatusCode != http.StatusOK {
		t.Fatalf("a ping of %d bytes: %d %.200s", len(ping), resp.StatusCode, body)
	}
	unknown := `{"jsonrpc":"2.0","id":2,"method":"` + strings.Repeat("<", 500_000) + `"}`
	resp, body := mcpPost(t, srv, http.MethodPost, secret, unknown)
	wantRPCError(t, resp, body, http.StatusNotFound, -32601)
	if len(body) > 4096 {
		t.Fatalf("the refusal of a %d-byte method is %d bytes", len(unknown), len(body))
	}
}
