package http

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrydata/quarry/adapters/http/openapi"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/internal/buildinfo"
)

// maxToolsList bounds the tools/list answer an agent reads first.
const maxToolsList = 16 << 10

// mcpSession connects the SDK's client to s's MCP server in memory.
func mcpSession(t *testing.T, s *Server) (*mcp.ClientSession, *mcp.InitializeResult) {
	t.Helper()
	server, err := s.mcpServer()
	if err != nil {
		t.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs, cs.InitializeResult()
}

func listTools(t *testing.T, cs *mcp.ClientSession) *mcp.ListToolsResult {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestMCPToolsListIsSmall: the whole tools/list answer, output schemas
// included, is under 16 KiB, and every tool has its output schema.
func TestMCPToolsListIsSmall(t *testing.T) {
	s, _, _ := csvServer(t, 1)
	cs, _ := mcpSession(t, s)
	res := listTools(t, cs)
	raw, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("tools/list: %d tools, %d bytes", len(res.Tools), len(raw))
	if len(raw) >= maxToolsList {
		t.Errorf("tools/list is %d bytes, want under %d", len(raw), maxToolsList)
	}
	for _, tool := range res.Tools {
		if tool.OutputSchema == nil {
			t.Errorf("%s has no output schema", tool.Name)
		}
	}
}

// internalReference matches what a reader of the API cannot look up: a
// spec-gaps row, a repository path, a spec section, an issue.
var internalReference = regexp.MustCompile(`\bB\d{1,3}\b|docs/|spec-gaps|§|\bissue \d|\.go\b`)

// TestMCPToolTextCitesNothingInternal: a tool's description and its
// arguments' descriptions are a few sentences, and name no spec-gaps row,
// file, spec section or schema of the OpenAPI document.
func TestMCPToolTextCitesNothingInternal(t *testing.T) {
	doc, err := openapi.Load()
	if err != nil {
		t.Fatal(err)
	}
	s, _, _ := csvServer(t, 1)
	cs, _ := mcpSession(t, s)
	check := func(at, text string, most int) {
		if len(text) > most {
			t.Errorf("%s: %d characters, want at most %d: %q", at, len(text), most, text)
		}
		if m := internalReference.FindString(text); m != "" {
			t.Errorf("%s cites %q: %q", at, m, text)
		}
		for name := range doc.Components.Schemas {
			if regexp.MustCompile(`\b` + name + `\b`).MatchString(text) {
				t.Errorf("%s names the schema %s: %q", at, name, text)
			}
		}
	}
	for _, tool := range listTools(t, cs).Tools {
		check(tool.Name, tool.Description, 500)
		props, _ := tool.InputSchema.(map[string]any)["properties"].(map[string]any)
		for name, p := range props {
			d, _ := p.(map[string]any)["description"].(string)
			check(tool.Name+"."+name, d, 300)
		}
	}
}

// TestMCPToolAnnotations: each tool's hints follow its route in the
// catalog: a charged call debits the account, so it is neither read-only
// nor idempotent, and only adds (not destructive); every tool is
// closed-world. Ask and the export, the dearest calls, are never read-only.
func TestMCPToolAnnotations(t *testing.T) {
	routes := map[string]dataset.Route{}
	for _, ds := range dataset.Catalog() {
		for _, rt := range ds.Routes {
			routes[rt.OperationID] = rt
		}
	}
	s, _, _ := csvServer(t, 1)
	cs, _ := mcpSession(t, s)
	tools := listTools(t, cs).Tools
	if len(tools) != len(routes) {
		t.Fatalf("%d tools for %d catalog routes", len(tools), len(routes))
	}
	for _, tool := range tools {
		rt, ok := routes[tool.Name]
		a := tool.Annotations
		switch {
		case !ok:
			t.Errorf("%s is no route of the catalog", tool.Name)
		case a == nil:
			t.Errorf("%s has no annotations", tool.Name)
		case a.ReadOnlyHint != (rt.Cost == 0) || a.IdempotentHint != a.ReadOnlyHint:
			t.Errorf("%s costs %d: readOnlyHint %v, idempotentHint %v, want both %v", tool.Name, rt.Cost, a.ReadOnlyHint, a.IdempotentHint, rt.Cost == 0)
		case !a.ReadOnlyHint && (a.DestructiveHint == nil || *a.DestructiveHint):
			t.Errorf("%s: destructiveHint %v, want false: a charge only adds a ledger entry", tool.Name, a.DestructiveHint)
		case a.OpenWorldHint == nil || *a.OpenWorldHint:
			t.Errorf("%s: openWorldHint %v, want false", tool.Name, a.OpenWorldHint)
		}
		if (tool.Name == "ask" || tool.Name == "create_india_export") && (a == nil || a.ReadOnlyHint || a.IdempotentHint) {
			t.Errorf("%s is charged %d credits a call but hinted read-only or idempotent: %+v", tool.Name, rt.Cost, a)
		}
	}
}

// TestMCPServerInfo: the server names the build version and advertises
// no notification it cannot send.
func TestMCPServerInfo(t *testing.T) {
	s, _, _ := csvServer(t, 1)
	_, init := mcpSession(t, s)
	if init.ServerInfo.Version != buildinfo.Version {
		t.Errorf("serverInfo.version %q, want the build's %q", init.ServerInfo.Version, buildinfo.Version)
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

// outputValidator resolves a tool's output schema.
func outputValidator(t *testing.T, tool *mcp.Tool) *jsonschema.Resolved {
	t.Helper()
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
	return resolved
}

// TestMCPOutputSchemasHoldTheExamples: every output schema is a JSON
// Schema, and each 200 example of the OpenAPI document validates against
// its tool's.
func TestMCPOutputSchemasHoldTheExamples(t *testing.T) {
	doc, err := openapi.Load()
	if err != nil {
		t.Fatal(err)
	}
	s, _, _ := csvServer(t, 1)
	cs, _ := mcpSession(t, s)
	examples := 0
	for _, tool := range listTools(t, cs).Tools {
		v := outputValidator(t, tool)
		for _, item := range doc.Paths.Map() {
			for _, o := range item.Operations() {
				if o.OperationID != tool.Name {
					continue
				}
				for _, ex := range responseExamples(o) {
					examples++
					if err := v.Validate(ex); err != nil {
						t.Errorf("%s: an example of its 200 response fails its output schema: %v", tool.Name, err)
					}
				}
			}
		}
	}
	t.Logf("%d examples", examples)
}

// responseExamples are the JSON examples of an operation's 200 response,
// as the document decodes them.
func responseExamples(o *openapi3.Operation) []any {
	resp := o.Responses.Status(http.StatusOK)
	if resp == nil || resp.Value == nil || resp.Value.Content.Get("application/json") == nil {
		return nil
	}
	mt := resp.Value.Content.Get("application/json")
	var out []any
	if mt.Example != nil {
		out = append(out, mt.Example)
	}
	for _, ex := range mt.Examples {
		if ex.Value != nil && ex.Value.Value != nil {
			out = append(out, ex.Value.Value)
		}
	}
	return out
}

// TestMCPFileResultMatchesItsOutputSchema: a file tool's result carries
// structured content naming the embedded file, valid for its output schema.
func TestMCPFileResultMatchesItsOutputSchema(t *testing.T) {
	s, _, secret := csvServer(t, 10)
	cs, _ := mcpSession(t, s)
	res := callCSV(t, s, secret)
	for _, tool := range listTools(t, cs).Tools {
		if tool.Name != "get_india_prices_csv" {
			continue
		}
		sc, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(sc, &v); err != nil {
			t.Fatal(err)
		}
		if err := outputValidator(t, tool).Validate(v); err != nil {
			t.Errorf("structured content %s: %v", sc, err)
		}
		if want := `{"media_type":"text/csv","size":10,"uri":"quarry:/india/prices.csv?symbol=TCS#NSE_TCS_EQ_all_all.csv"}`; string(sc) != want {
			t.Errorf("structured content %s, want %s", sc, want)
		}
	}
}

// TestMCPUnknownArgumentIsRefused: an argument the input schema does not
// name is a tool error naming it, before the route is reached, and costs
// nothing; every input schema says so with additionalProperties false.
func TestMCPUnknownArgumentIsRefused(t *testing.T) {
	reached := 0
	s, p, secret := mcpTestServer(t, "x", 100, func(*http.Request) { reached++ })
	ops, err := mcpTools()
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range ops {
		if op.schema["additionalProperties"] != false {
			t.Errorf("%s: input schema admits other arguments", op.route.OperationID)
		}
		if op.route.OperationID != "get_india_prices_csv" {
			continue
		}
		res, err := s.mcpTool(op)(context.Background(), &mcp.CallToolRequest{
			Params: &mcp.CallToolParamsRaw{Name: op.route.OperationID, Arguments: json.RawMessage(`{"symbol":"TCS","tickr":"NVDA"}`)},
			Extra:  &mcp.RequestExtra{Header: http.Header{"X-Api-Key": {secret}}},
		})
		if err != nil {
			t.Fatal(err)
		}
		msg := fmt.Sprint(res.Content[0].(*mcp.TextContent).Text)
		if !res.IsError || !strings.Contains(msg, `400 invalid_request`) || !strings.Contains(msg, `unknown argument "tickr"`) || !strings.Contains(msg, "symbol") {
			t.Errorf("result %v: %s", res.IsError, msg)
		}
	}
	if bal, _ := p.Balance(context.Background(), "acc_1"); bal != 100 || reached != 0 {
		t.Errorf("balance %d, the route reached %d times", bal, reached)
	}
}

// TestMCPUnknownToolIsOneAnswer: a call of a tool that does not exist is
// 400 with JSON-RPC -32602 `unknown tool "…"`, whatever protocol version
// the client speaks.
func TestMCPUnknownToolIsOneAnswer(t *testing.T) {
	s, _, secret := csvServer(t, 1)
	srv := httptest.NewServer(s)
	defer srv.Close()
	call := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_nothing","arguments":{}}}`
	for _, headers := range [][]string{nil, {"Mcp-Protocol-Version", "2025-06-18"}, {"Mcp-Protocol-Version", "2025-11-25"}} {
		resp, body := mcpPost(t, srv, http.MethodPost, secret, call, headers...)
		if e := wantRPCError(t, resp, body, http.StatusBadRequest, -32602); e.Error.Message != `unknown tool "get_nothing"` || string(e.ID) != "3" {
			t.Errorf("%v: %s", headers, body)
		}
	}
}

// TestMCPNote: an argument's note is the first sentence of its
// description, a full stop within backquotes or parentheses not ending it,
// its parenthetical remarks left out.
func TestMCPNote(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Exchange ticker, for example `AAPL`. Give exactly one of `ticker` and `cik`.", "Exchange ticker, for example `AAPL`."},
		{"A code such as `SSE.600519` (case-insensitive; see e.g. the catalog). More.", "A code such as `SSE.600519`."},
		{"Statement period (see StatementPeriod). Default `annual`.", "Statement period."},
		{"The version `v1.2` (or `v1.3`), kept", "The version `v1.2`, kept"},
		{"", ""},
	} {
		if got := note(c.in); got != c.want {
			t.Errorf("note(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
