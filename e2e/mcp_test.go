package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrydata/quarry/adapters/http/openapi"
	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/internal/buildinfo"
)

// bearerKey sends an API key as Authorization: Bearer, as many MCP clients
// do.
type bearerKey struct{ key string }

func (b bearerKey) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return http.DefaultTransport.RoundTrip(r)
}

// mcpOverHTTP connects the SDK's client to the app's POST /mcp with the
// credential as a bearer token.
func mcpOverHTTP(t *testing.T, c *client, credential string) (*mcp.ClientSession, error) {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint: c.base + "/mcp", HTTPClient: &http.Client{Timeout: 30 * time.Second, Transport: bearerKey{credential}},
		DisableStandaloneSSE: true}, nil)
	if err == nil {
		t.Cleanup(func() { _ = cs.Close() })
	}
	return cs, err
}

func mustMCP(t *testing.T, c *client, credential string) *mcp.ClientSession {
	t.Helper()
	cs, err := mcpOverHTTP(t, c, credential)
	if err != nil {
		t.Fatalf("connect to /mcp: %v", err)
	}
	return cs
}

// TestMCPOverHTTP drives POST /mcp with the SDK's client on memory and on
// PostgreSQL with MongoDB: the tools are the OpenAPI operations, one tool of
// every dataset answers as its route does, and the ledger holds one debit
// per successful call.
func TestMCPOverHTTP(t *testing.T) {
	for _, name := range []string{"memory", "postgres+mongo"} {
		t.Run(name, func(t *testing.T) {
			s := stacks[name]
			s.metrics = true
			c, cfg := startApp(t, s)
			session, key := signIn(t, c, "agent@example.com")
			if _, err := mcpOverHTTP(t, c, session); err == nil || !strings.Contains(err.Error(), "Unauthorized") {
				t.Fatalf("a session token was taken as an API key: %v", err)
			}
			cs := mustMCP(t, c, key)
			checkServerInfo(t, cs)
			checkMCP(t, c, session, cs)
			_, metrics := plainGet(t, "http://"+cfg.MetricsAddr+"/metrics")
			if !bytes.Contains(metrics, []byte(`route="POST /mcp"`)) {
				t.Errorf("/metrics has no series of POST /mcp")
			}
		})
	}
}

// TestMCPOverStdio drives `quarry mcp --url` as a desktop assistant does:
// the binary started with QUARRY_API_KEY, MCP on its stdin and stdout.
//
// The binary is built under a version of its own: the bridge still names
// the server's build, as POST /mcp does, and says the server's refusal of
// a bad key.
func TestMCPOverStdio(t *testing.T) {
	c, _ := startApp(t, stack{})
	session, key := signIn(t, c, "desktop@example.com")
	bin := filepath.Join(t.TempDir(), "quarry")
	build := exec.Command("go", "build", "-ldflags", "-X github.com/quarrydata/quarry/internal/buildinfo.Version=bridge-e2e",
		"-o", bin, "github.com/quarrydata/quarry/cmd/quarry")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	bad := exec.Command(bin, "mcp", "--url", c.base)
	bad.Env = append(os.Environ(), bootstrap.EnvAPIKey+"=qk_notakey")
	if out, err := bad.CombinedOutput(); err == nil || !strings.Contains(string(out), "401 unauthorized: ") {
		t.Errorf("a bad key: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "mcp", "--url", c.base)
	cmd.Env = append(os.Environ(), bootstrap.EnvAPIKey+"="+key)
	cmd.Stderr = os.Stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "desktop", Version: "1"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("start the bridge: %v", err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	checkServerInfo(t, cs)
	checkMCP(t, c, session, cs)
}

// checkServerInfo holds the initialization to one version, the server's
// build, and to capabilities that promise no notification: the server
// sends none.
func checkServerInfo(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	init := cs.InitializeResult()
	if init.ServerInfo.Version != buildinfo.Version {
		t.Errorf("serverInfo.version %q, want the server's build %q", init.ServerInfo.Version, buildinfo.Version)
	}
	// As the client reads them: the SDK's Logging field is deprecated.
	raw, err := json.Marshal(init.Capabilities)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"prompts":{},"resources":{},"tools":{}}`; string(raw) != want {
		t.Errorf("capabilities %s, want %s: nothing is ever notified or logged", raw, want)
	}
}

// checkMCP lists the tools against the OpenAPI document, reads the
// resources and the prompt, calls a tool of every dataset and checks the
// ledger.
func checkMCP(t *testing.T, c *client, session string, cs *mcp.ClientSession) {
	t.Helper()
	tools := checkToolSchemas(t, cs)
	checkResources(t, cs)
	before := credits(t, c, session)
	var spent int64
	successes := 0
	var judgmentID string
	called := map[string]bool{}
	for _, call := range mcpCalls(&judgmentID) {
		res := callTool(t, cs, call.tool, call.args)
		if res.IsError {
			t.Fatalf("%s: tool error %s", call.tool, text(res))
		}
		if got := res.Meta["quarry/credits_cost"]; got != float64(call.cost) {
			t.Errorf("%s: quarry/credits_cost %v, want %d", call.tool, got, call.cost)
		}
		call.check(t, res)
		holdsOutputSchema(t, tools[call.tool], res)
		spent += call.cost
		successes++
		called[call.tool] = true
	}
	for name := range tools {
		if !called[name] {
			t.Errorf("tool %s is never called: add a call of it to mcpCalls", name)
		}
	}
	// Refused before the route: an argument the tool does not take, and a
	// tool that does not exist.
	if res := callTool(t, cs, "get_us_income_statements", map[string]any{"tickr": "NVDA"}); !res.IsError || !strings.Contains(text(res), "400 invalid_request") || !strings.Contains(text(res), `unknown argument "tickr": get_us_income_statements takes as_of, cik,`) {
		t.Errorf("an unknown argument: %v %s", res.IsError, text(res))
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_nothing", Arguments: map[string]any{}}); err == nil || !strings.Contains(err.Error(), `unknown tool "get_nothing"`) {
		t.Errorf("an unknown tool: %v", err)
	}
	// Refused before the charge: a tool error, with the route's message.
	res := callTool(t, cs, "get_china_security", map[string]any{"code": "600519"})
	if !res.IsError || !strings.Contains(text(res), "422 validation_failed") || !strings.Contains(text(res), "did you mean SSE.600519") {
		t.Errorf("a bare code: %s", text(res))
	}
	after := credits(t, c, session)
	if after.Balance != before.Balance-spent {
		t.Errorf("balance %d after spending %d from %d", after.Balance, spent, before.Balance)
	}
	debits := 0
	for _, e := range after.Ledger[:len(after.Ledger)-len(before.Ledger)] {
		if e.Kind != "debit" {
			t.Errorf("ledger entry %+v: want only debits", e)
		}
		debits++
	}
	if debits != successes {
		t.Errorf("%d debits for %d successful calls", debits, successes)
	}
}

type mcpCall struct {
	tool  string
	args  map[string]any
	cost  int64
	check func(t *testing.T, res *mcp.CallToolResult)
}

// mcpCalls calls every tool with the bundled sample.
func mcpCalls(judgmentID *string) []mcpCall {
	return []mcpCall{
		{"get_us_financials", map[string]any{"ticker": "NVDA", "limit": 1}, dataset.CostStandardRead, hasField("balance_sheets")},
		{"get_us_income_statements", map[string]any{"ticker": "NVDA", "as_of": "2025-02-25", "limit": 2}, dataset.CostStandardRead, hasField("income_statements")},
		{"get_us_balance_sheets", map[string]any{"cik": "1045810", "limit": 1}, dataset.CostStandardRead, hasField("balance_sheets")},
		{"get_us_cash_flow_statements", map[string]any{"ticker": "AAPL", "period": "quarterly", "limit": 1}, dataset.CostStandardRead, hasField("cash_flow_statements")},
		{"list_us_companies", map[string]any{"ticker": "NV"}, dataset.CostStandardRead, hasField("companies")},
		{"get_us_filing_index", map[string]any{"accession_number": "0000320193-24-000123"}, dataset.CostStandardRead, hasField("files")},
		{"search_us_filings", map[string]any{"query": "iPhone", "ticker": "AAPL"}, dataset.CostSearch, hasField("results")},
		{"get_us_security_fund_holders", map[string]any{"identifier": "AAPL"}, dataset.CostStandardRead, hasField("meta")},
		{"get_china_security", map[string]any{"code": "SSE.600519"}, dataset.CostStandardRead, hasField("security")},
		{"list_china_securities", map[string]any{"name": "银行", "listed": true, "limit": 2}, dataset.CostStandardRead, hasField("securities")},
		{"get_china_prices", map[string]any{"code": "600519.SH", "start_date": "2022-06-28", "end_date": "2022-07-01"}, dataset.CostStandardRead, internalOnly},
		{"get_india_prices", map[string]any{"symbol": "NIITTECH", "limit": 2}, dataset.CostStandardRead, internalOnly},
		{"get_india_prices_csv", map[string]any{"symbol": "RELIANCE"}, dataset.CostPricesCSV, embeddedFile("text/csv", "symbol,series,isin,date")},
		{"search_india_documents", map[string]any{"query": "buzzwords"}, dataset.CostSearch, firstJudgment(judgmentID)},
		{"get_india_judgment", map[string]any{"judgment_id": judgmentID}, dataset.CostStandardRead, partyTokens},
		{"get_india_judgment_pdf", map[string]any{"judgment_id": judgmentID}, dataset.CostStandardRead, embeddedFile("application/pdf", "%PDF-")},
		{"create_india_export", map[string]any{"dataset": "india.prices", "format": "parquet", "filters": map[string]string{"symbol": "NIITTECH"}}, dataset.CostExport, embeddedFile("application/vnd.apache.parquet", "PAR1")},
		{"ask", map[string]any{"question": "When was 贵州茅台 listed?"}, dataset.CostAsk, askGoverned},
	}
}

// callTool calls a tool; an argument that is a *string is read at the call,
// so that a call can use what an earlier one found.
func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	resolved := map[string]any{}
	for k, v := range args {
		if p, ok := v.(*string); ok {
			v = *p
		}
		resolved[k] = v
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: resolved})
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	return res
}

// holdsOutputSchema checks a successful result's structured content
// against the tool's output schema, as a client holding the server to it
// does.
func holdsOutputSchema(t *testing.T, tool *mcp.Tool, res *mcp.CallToolResult) {
	t.Helper()
	if tool == nil {
		return
	}
	raw, err := json.Marshal(tool.OutputSchema)
	if err != nil {
		t.Fatal(err)
	}
	var schema jsonschema.Schema
	if err := json.Unmarshal(raw, &schema); err != nil {
		t.Fatalf("%s: output schema: %v", tool.Name, err)
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		t.Fatalf("%s: output schema: %v", tool.Name, err)
	}
	if res.StructuredContent == nil {
		t.Errorf("%s: a result without structured content", tool.Name)
		return
	}
	if err := resolved.Validate(res.StructuredContent); err != nil {
		t.Errorf("%s: structured content fails the output schema: %v", tool.Name, err)
	}
}

// text is a result's text contents, joined.
func text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func structured(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	m, ok := res.StructuredContent.(map[string]any)
	if !ok {
		t.Fatalf("structured content %T, want a JSON object", res.StructuredContent)
	}
	return m
}

func hasField(name string) func(t *testing.T, res *mcp.CallToolResult) {
	return func(t *testing.T, res *mcp.CallToolResult) {
		t.Helper()
		if _, ok := structured(t, res)[name]; !ok {
			t.Errorf("result lacks %q: %s", name, text(res))
		}
	}
}

// internalOnly checks that a result of an internal-only dataset says its
// licence, in the route's JSON and beside it.
func internalOnly(t *testing.T, res *mcp.CallToolResult) {
	t.Helper()
	meta, _ := structured(t, res)["meta"].(map[string]any)
	prov, _ := meta["provenance"].(map[string]any)
	if !strings.Contains(fmt.Sprint(prov["licence"]), "internal use only") || !strings.Contains(text(res), "internal use only") {
		t.Errorf("an internal-only result without its licence: %s", text(res))
	}
}

func embeddedFile(mediaType, prefix string) func(t *testing.T, res *mcp.CallToolResult) {
	return func(t *testing.T, res *mcp.CallToolResult) {
		t.Helper()
		for _, c := range res.Content {
			er, ok := c.(*mcp.EmbeddedResource)
			if !ok {
				continue
			}
			body := er.Resource.Blob
			if er.Resource.Text != "" {
				body = []byte(er.Resource.Text)
			}
			if !strings.HasPrefix(er.Resource.MIMEType, mediaType) || !bytes.HasPrefix(body, []byte(prefix)) {
				t.Errorf("embedded %s starting %q, want %s starting %q", er.Resource.MIMEType, truncate(body), mediaType, prefix)
			}
			return
		}
		t.Errorf("no embedded resource: %s", text(res))
	}
}

func firstJudgment(id *string) func(t *testing.T, res *mcp.CallToolResult) {
	return func(t *testing.T, res *mcp.CallToolResult) {
		t.Helper()
		results, _ := structured(t, res)["results"].([]any)
		if len(results) == 0 {
			t.Fatalf("no judgment found: %s", text(res))
		}
		*id, _ = results[0].(map[string]any)["judgment_id"].(string)
	}
}

// partyTokens checks that a judgment keeps its parties as tokens.
func partyTokens(t *testing.T, res *mcp.CallToolResult) {
	t.Helper()
	j, _ := structured(t, res)["judgment"].(map[string]any)
	parties, _ := j["parties"].([]any)
	if len(parties) == 0 {
		t.Fatalf("a judgment without parties: %s", text(res))
	}
	for _, p := range parties {
		if tok, _ := p.(map[string]any)["token"].(string); !strings.HasPrefix(tok, "PTY_") {
			t.Errorf("a party without its token: %v", p)
		}
	}
}

// askGoverned checks that an Ask answer keeps its citations and governance.
func askGoverned(t *testing.T, res *mcp.CallToolResult) {
	t.Helper()
	ans := structured(t, res)
	cites, _ := ans["citations"].([]any)
	gov, _ := ans["governance"].(map[string]any)
	if ans["answer"] == nil || len(cites) == 0 || gov == nil || gov["statement"] == nil {
		t.Errorf("an Ask answer without its citations or governance: %s", text(res))
	}
}

// checkResources reads the catalog, the OpenAPI document and the prompt.
func checkResources(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	ctx := context.Background()
	for uri, want := range map[string]string{"quarry://catalog": `"datasets"`, "quarry://openapi.json": `"/mcp"`} {
		r, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil || len(r.Contents) != 1 || !strings.Contains(r.Contents[0].Text, want) {
			t.Errorf("resource %s: %v", uri, err)
		}
	}
	p, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "point_in_time", Arguments: map[string]string{"question": "What was AAPL revenue?"}})
	if err != nil || len(p.Messages) != 1 {
		t.Fatalf("prompt: %v", err)
	}
	if tc, _ := p.Messages[0].Content.(*mcp.TextContent); tc == nil || !strings.Contains(tc.Text, "as_of") || !strings.Contains(tc.Text, "[n]") {
		t.Errorf("the prompt says nothing of as_of or citations")
	}
}

// checkToolSchemas holds the tools to the OpenAPI document: one per data
// operation of the catalog, named by its operationId, whose properties are
// the operation's parameters and body members with their own schemas.
func checkToolSchemas(t *testing.T, cs *mcp.ClientSession) map[string]*mcp.Tool {
	t.Helper()
	doc, err := openapi.Load()
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]*mcp.Tool{}
	for tool, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		tools[tool.Name] = tool
	}
	want := 0
	for _, ds := range dataset.Catalog() {
		for _, rt := range ds.Routes {
			want++
			tool := tools[rt.OperationID]
			if tool == nil {
				t.Errorf("no tool %s", rt.OperationID)
				continue
			}
			item := doc.Paths.Find(rt.Path)
			checkToolSchema(t, tool, item, item.GetOperation(rt.Method))
		}
	}
	if len(tools) != want {
		t.Errorf("%d tools for %d data operations", len(tools), want)
	}
	return tools
}

func checkToolSchema(t *testing.T, tool *mcp.Tool, item *openapi3.PathItem, op *openapi3.Operation) {
	t.Helper()
	var schema struct {
		Properties           map[string]map[string]any `json:"properties"`
		Required             []string                  `json:"required"`
		AdditionalProperties *bool                     `json:"additionalProperties"`
	}
	raw, _ := json.Marshal(tool.InputSchema)
	if err := json.Unmarshal(raw, &schema); err != nil {
		t.Fatalf("%s: %v", tool.Name, err)
	}
	if schema.AdditionalProperties == nil || *schema.AdditionalProperties {
		t.Errorf("%s: the input schema admits arguments it does not name", tool.Name)
	}
	// Every data route is charged, so no tool is read-only or idempotent
	// (spec-gaps B193); each only adds, and reads a closed world.
	if a := tool.Annotations; a == nil || a.ReadOnlyHint || a.IdempotentHint || a.DestructiveHint == nil || *a.DestructiveHint || a.OpenWorldHint == nil || *a.OpenWorldHint {
		t.Errorf("%s: annotations %+v, want charged: not read-only, not idempotent, not destructive, closed-world", tool.Name, a)
	}
	if tool.OutputSchema == nil {
		t.Errorf("%s: no output schema", tool.Name)
	}
	wantProps, wantRequired := map[string]*openapi3.Schema{}, []string{}
	for _, p := range append(slices.Clone(item.Parameters), op.Parameters...) {
		wantProps[p.Value.Name] = p.Value.Schema.Value
		if p.Value.Required {
			wantRequired = append(wantRequired, p.Value.Name)
		}
		if got, _ := schema.Properties[p.Value.Name]["description"].(string); len(got) > len(p.Value.Description) {
			t.Errorf("%s.%s: description %q, longer than the parameter's", tool.Name, p.Value.Name, got)
		}
	}
	if op.RequestBody != nil {
		body := op.RequestBody.Value.Content.Get("application/json").Schema.Value
		for name, s := range body.Properties {
			wantProps[name] = s.Value
		}
		wantRequired = append(wantRequired, body.Required...)
	}
	if len(schema.Properties) != len(wantProps) {
		t.Errorf("%s: properties %v, want %d", tool.Name, keys(schema.Properties), len(wantProps))
	}
	for name, s := range wantProps {
		sameSchema(t, tool.Name+"."+name, schema.Properties[name], s)
	}
	slices.Sort(wantRequired)
	slices.Sort(schema.Required)
	if !slices.Equal(schema.Required, wantRequired) {
		t.Errorf("%s: required %v, want %v", tool.Name, schema.Required, wantRequired)
	}
}

// sameSchema compares the keywords that constrain a value.
func sameSchema(t *testing.T, at string, got map[string]any, want *openapi3.Schema) {
	t.Helper()
	if got == nil {
		t.Errorf("%s: missing", at)
		return
	}
	w := map[string]any{}
	if want.Type != nil && len(want.Type.Slice()) == 1 {
		w["type"] = want.Type.Slice()[0]
	}
	if want.Format != "" {
		w["format"] = want.Format
	}
	if want.Min != nil {
		w["minimum"] = *want.Min
	}
	if want.Max != nil {
		w["maximum"] = *want.Max
	}
	if want.MaxLength != nil {
		w["maxLength"] = float64(*want.MaxLength)
	}
	if want.Pattern != "" {
		w["pattern"] = want.Pattern
	}
	if len(want.Enum) > 0 {
		w["enum"] = want.Enum
	}
	if want.Default != nil {
		w["default"] = want.Default
	}
	if n := len(want.AnyOf); n > 0 {
		w["anyOf"] = n
	}
	if want.Items != nil {
		sameSchema(t, at+"[]", asMap(got["items"]), want.Items.Value)
	}
	g := map[string]any{}
	for k := range w {
		g[k] = got[k]
	}
	if list, ok := got["anyOf"].([]any); ok {
		g["anyOf"] = len(list)
	}
	if !reflect.DeepEqual(fmt.Sprint(g), fmt.Sprint(w)) {
		t.Errorf("%s: %v, want %v", at, g, w)
	}
}

func asMap(v any) map[string]any { m, _ := v.(map[string]any); return m }

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestMCPRefusals: a missing permission, an exhausted balance, the rate
// limit and a dataset not activated are tool errors worded as the route's,
// and none of them is charged.
func TestMCPRefusals(t *testing.T) {
	t.Run("permission", func(t *testing.T) {
		c, _ := startApp(t, stack{})
		session, _ := signIn(t, c, "narrow@example.com")
		cred := mintCredential(t, c, session, "china:read")
		expectRefused(t, c, session, mustMCP(t, c, cred.APIKey), "get_india_judgment_pdf",
			map[string]any{"judgment_id": "inj_aaaaaaaaaaaaaaaa"}, "403 forbidden", "litigation:read")
	})
	t.Run("credits", func(t *testing.T) {
		c, _ := startApp(t, stack{credits: 30})
		session, key := signIn(t, c, "thrifty@example.com")
		cs := mustMCP(t, c, key)
		if res := callTool(t, cs, "ask", map[string]any{"question": "When was 贵州茅台 listed?"}); res.IsError {
			t.Fatal(text(res))
		}
		expectRefused(t, c, session, cs, "ask", map[string]any{"question": "When was 贵州茅台 listed?"}, "402 insufficient_credits", "")
	})
	t.Run("rate", func(t *testing.T) {
		c, _ := startApp(t, stack{rps: 0.01, burst: 2})
		session, key := signIn(t, c, "hasty@example.com")
		cs := mustMCP(t, c, key)
		for range 2 {
			if res := callTool(t, cs, "get_china_security", map[string]any{"code": "SSE.600519"}); res.IsError {
				t.Fatal(text(res))
			}
		}
		res := expectRefused(t, c, session, cs, "get_china_security", map[string]any{"code": "SSE.600519"}, "429 rate_limited", "")
		if _, ok := res.Meta["quarry/retry_after"]; !ok {
			t.Errorf("a 429 without quarry/retry_after: %v", res.Meta)
		}
	})
	t.Run("unavailable", func(t *testing.T) {
		cfg := appConfig(t, stack{})
		cfg.Empty = []string{"china_securities"}
		c := serveApp(t, cfg)
		session, key := signIn(t, c, "early@example.com")
		expectRefused(t, c, session, mustMCP(t, c, key), "get_china_security", map[string]any{"code": "SSE.600519"}, "503 dataset_unavailable", "china_securities")
	})
}

// expectRefused calls a tool expecting a tool error whose text holds
// status and says, with nothing charged.
func expectRefused(t *testing.T, c *client, session string, cs *mcp.ClientSession, tool string, args map[string]any, status, says string) *mcp.CallToolResult {
	t.Helper()
	before := credits(t, c, session)
	res := callTool(t, cs, tool, args)
	msg := text(res)
	if !res.IsError || !strings.Contains(msg, status) || !strings.Contains(msg, says) || !strings.Contains(msg, "nothing was charged") {
		t.Errorf("%s: %v %s; want a tool error saying %q and %q", tool, res.IsError, msg, status, says)
	}
	if after := credits(t, c, session); after.Balance != before.Balance || len(after.Ledger) != len(before.Ledger) {
		t.Errorf("%s: a refusal changed the ledger: %d entries, balance %d -> %d", tool, len(after.Ledger)-len(before.Ledger), before.Balance, after.Balance)
	}
	return res
}
