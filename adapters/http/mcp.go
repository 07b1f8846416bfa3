package http

import (
	"context"
	"fmt"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarrydata/quarry/adapters/http/openapi"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/internal/buildinfo"
)

// The MCP endpoint (spec-gaps B97 to B104): POST /mcp speaks the Model
// Context Protocol's Streamable HTTP transport, statelessly and with JSON
// responses, so every POST is authenticated on its own and no GET stream is
// needed. Each data operation of the catalog is a tool, named by its
// operationId, whose call is dispatched in process through the operation's
// own route: the scopes, costs, refusals, refunds and governance are the
// route's.

// mcpPath is where the MCP endpoint is served.
const mcpPath = "/mcp"

// URIs of the MCP resources.
const (
	mcpCatalogURI = "quarry://catalog"
	mcpOpenAPIURI = "quarry://openapi.json"
)

// routeMCP serves POST /mcp. The endpoint itself is free; each tool call
// is charged and limited by the route it is dispatched to, every other
// message by the key's MCP bucket (serveMCP).
func (s *Server) routeMCP() error {
	server, err := s.mcpServer()
	if err != nil {
		return err
	}
	// The SDK's DNS-rebinding guard refuses a request reaching a loopback
	// listener under another Host, which is every request a reverse proxy
	// on the same machine forwards. It protects servers that trust the
	// local caller; this one trusts only the API key every request carries,
	// which a rebound page cannot send, so the guard is off (spec-gaps B97).
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, MaxRequestBodyBytes: maxBody, DisableLocalhostProtection: true})
	s.handle(http.MethodPost, mcpPath, s.serveMCP(h))
	return nil
}

// mcpKey is the API key of an MCP request: the X-API-KEY header, or else
// the credentials of an Authorization: Bearer header, which many MCP
// clients send. A session token there is not an API key and fails to
// authenticate, as it does on the data routes.
func mcpKey(h http.Header) string {
	if k := h.Get("X-API-KEY"); k != "" {
		return k
	}
	token, _ := bearerToken(h.Get("Authorization"))
	return token
}

// mcpServer builds the MCP server: a tool per data operation, the catalog
// and the OpenAPI document as resources, and the point-in-time prompt.
func (s *Server) mcpServer() (*mcp.Server, error) {
	ops, err := mcpTools()
	if err != nil {
		return nil, err
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "quarry", Title: "Quarry", Version: buildinfo.Version},
		&mcp.ServerOptions{Instructions: mcpInstructions, Capabilities: mcpCapabilities()})
	for _, op := range ops {
		server.AddTool(op.tool(), s.mcpTool(op))
	}
	server.AddResource(&mcp.Resource{URI: mcpCatalogURI, Name: "catalog", MIMEType: "application/json",
		Description: "Every dataset with its routes, costs, permissions, availability and licence (GET /catalog)."}, s.mcpCatalog)
	server.AddResource(&mcp.Resource{URI: mcpOpenAPIURI, Name: "openapi", MIMEType: "application/json",
		Description: "The OpenAPI 3.0.3 document of the interface (GET /openapi.json); each tool's input schema comes from it."},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: mcpOpenAPIURI, MIMEType: "application/json", Text: string(openapi.Document)}}}, nil
		})
	server.AddPrompt(&mcp.Prompt{Name: mcpPromptName, Title: "Point-in-time questions and citations",
		Description: "How to ask Quarry what was known at a past moment (as_of) and how to read the citations and governance of an answer.",
		Arguments:   []*mcp.PromptArgument{{Name: "question", Description: "The question to ask, if any."}}}, mcpPrompt)
	return server, nil
}

// mcpCapabilities are what the server advertises: tools, resources and
// prompts, with no list-changed notification and no logging, since a
// stateless server has no stream to send a notification or a log message
// on, and its lists change only with a new build (spec-gaps B175).
// logging/setLevel is still answered, for clients that send it anyway.
func mcpCapabilities() *mcp.ServerCapabilities {
	return &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Resources: &mcp.ResourceCapabilities{},
		Prompts: &mcp.PromptCapabilities{}}
}

// mcpAnnotations are the hints of the tool of route rt, read from its
// cost in the catalog (spec-gaps B193). A call that costs credits debits
// the account, a change a host should not make unasked, so a charged tool
// is neither read-only nor idempotent (a repeat is charged again); what it
// changes it only adds to (a ledger entry, for an export a file), so it is
// not destructive. Every tool reads what Quarry holds, a closed world: Ask's
// model, when one is configured, phrases an answer from Quarry's passages
// and fetches nothing.
func mcpAnnotations(rt dataset.Route) *mcp.ToolAnnotations {
	free := rt.Cost == 0
	a := &mcp.ToolAnnotations{ReadOnlyHint: free, IdempotentHint: free, OpenWorldHint: new(false)}
	if !free {
		a.DestructiveHint = new(false)
	}
	return a
}

// mcpTools are the tools of the OpenAPI document, derived once.
var mcpTools = sync.OnceValues(func() ([]mcpOperation, error) {
	doc, err := openapi.Load()
	if err != nil {
		return nil, err
	}
	return mcpOperations(doc)
})

// mcpCatalog reads GET /catalog in process.
func (s *Server) mcpCatalog(ctx context.Context, _ *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "/catalog", http.NoBody)
	if err != nil {
		return nil, err
	}
	rec := newCapture(maxMCPBody)
	s.ServeHTTP(rec, req)
	if rec.status != http.StatusOK {
		return nil, fmt.Errorf("the catalog answered %d", rec.status)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: mcpCatalogURI, MIMEType: "application/json", Text: rec.body.String()}}}, nil
}
