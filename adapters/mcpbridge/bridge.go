// Package mcpbridge serves the Model Context Protocol on a local stream
// (stdio) and forwards everything to a remote Quarry's POST /mcp with an API
// key: desktop assistants start a local process, and this is the one they
// start (`quarry mcp --url URL`). The tools, resources, prompt and
// instructions are the remote's, read at start; every call is the remote's
// answer, charged there.
package mcpbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Config is what the bridge needs.
type Config struct {
	// URL is the remote Quarry's base address, or its /mcp address.
	URL string
	// APIKey is sent as X-API-KEY with every request.
	APIKey string
	// Version is the bridge's build version: its name to the remote, and
	// its serverInfo only if the remote gives no version of its own.
	Version string
}

// Endpoint is the /mcp address of a base address; an address already
// ending in /mcp is kept.
func Endpoint(base string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("--url %q: want the http or https address of a Quarry service", base)
	}
	if !strings.HasSuffix(u.Path, "/mcp") {
		u.Path = strings.TrimSuffix(u.Path, "/") + "/mcp"
	}
	return u.String(), nil
}

// Run connects to the remote, then serves MCP on in and out until the
// local client goes away or ctx ends.
func Run(ctx context.Context, cfg Config, in io.ReadCloser, out io.WriteCloser) error {
	endpoint, err := Endpoint(cfg.URL)
	if err != nil {
		return err
	}
	if cfg.APIKey == "" {
		return errors.New("no API key: set QUARRY_API_KEY to a key minted with POST /account/keys")
	}
	remote, err := Connect(ctx, endpoint, cfg.APIKey, cfg.Version)
	if err != nil {
		return err
	}
	defer func() { _ = remote.Close() }()
	server, err := mirror(ctx, remote, cfg.Version)
	if err != nil {
		return err
	}
	return server.Run(ctx, &mcp.IOTransport{Reader: in, Writer: out})
}

// Connect opens an MCP client session on a remote Quarry's /mcp, sending
// the key with every request. It follows no redirect: the key would go
// with the request to wherever the redirect points. A refusal says the
// remote's own status and message (a bad key's "401 unauthorized: ..."),
// which the SDK alone reduces to the status text.
func Connect(ctx context.Context, endpoint, apiKey, version string) (*mcp.ClientSession, error) {
	tr := &keyed{key: apiKey, next: http.DefaultTransport}
	hc := &http.Client{Timeout: 5 * time.Minute, Transport: tr, CheckRedirect: refuseRedirect}
	client := mcp.NewClient(&mcp.Implementation{Name: "quarry-mcp-bridge", Version: version}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc, DisableStandaloneSSE: true}, nil)
	if err != nil {
		if refusal := tr.refusal(); refusal != "" {
			return nil, fmt.Errorf("connect to %s: the remote answered %s", endpoint, refusal)
		}
		return nil, fmt.Errorf("connect to %s: %w", endpoint, err)
	}
	return cs, nil
}

// refuseRedirect refuses every redirect, naming where it pointed, before
// the redirected request is sent.
func refuseRedirect(req *http.Request, _ []*http.Request) error {
	return fmt.Errorf("the remote redirected to %s, and the bridge follows no redirect, so that the API key goes nowhere else; give --url the address to use", req.URL.Redacted())
}

// keyed adds the API key to every request, and keeps the status and
// message of the last error response in Quarry's ErrorResponse shape.
type keyed struct {
	key  string
	next http.RoundTripper
	mu   sync.Mutex
	last string
}

// maxErrorBody bounds what is read of an error response.
const maxErrorBody = 64 << 10

// RoundTrip implements http.RoundTripper.
func (k *keyed) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("X-API-KEY", k.key)
	resp, err := k.next.RoundTrip(r)
	if err != nil || resp.StatusCode < 400 {
		return resp, err
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	var e struct {
		Error   string `json:"error"`
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &e) == nil && e.Message != "" {
		k.mu.Lock()
		k.last = fmt.Sprintf("%d %s: %s", resp.StatusCode, e.Error, e.Message)
		k.mu.Unlock()
	}
	return resp, nil
}

// refusal is the last error response's status and message, or "".
func (k *keyed) refusal() string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.last
}

// offered are the remote's capabilities as the bridge offers them: the
// same tools, resources and prompts, and no notification, since the
// bridge reads the remote's lists once and the remote sends none.
func offered(remote *mcp.ServerCapabilities) *mcp.ServerCapabilities {
	caps := &mcp.ServerCapabilities{}
	if remote == nil {
		return caps
	}
	if remote.Tools != nil {
		caps.Tools = &mcp.ToolCapabilities{}
	}
	if remote.Resources != nil {
		caps.Resources = &mcp.ResourceCapabilities{}
	}
	if remote.Prompts != nil {
		caps.Prompts = &mcp.PromptCapabilities{}
	}
	return caps
}

// mirror builds a local server offering what the remote offers, each
// handler forwarding to the remote, under the remote's version: over stdio
// as over HTTP, serverInfo names the build of the server that answers.
func mirror(ctx context.Context, remote *mcp.ClientSession, version string) (*mcp.Server, error) {
	var instructions string
	caps := &mcp.ServerCapabilities{}
	if init := remote.InitializeResult(); init != nil {
		instructions, caps = init.Instructions, offered(init.Capabilities)
		if init.ServerInfo != nil && init.ServerInfo.Version != "" {
			version = init.ServerInfo.Version
		}
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "quarry", Title: "Quarry (bridge)", Version: version},
		&mcp.ServerOptions{Instructions: instructions, Capabilities: caps})
	for tool, err := range remote.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("list the remote's tools: %w", err)
		}
		server.AddTool(tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return remote.CallTool(ctx, &mcp.CallToolParams{Name: req.Params.Name, Arguments: req.Params.Arguments})
		})
	}
	for res, err := range remote.Resources(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("list the remote's resources: %w", err)
		}
		server.AddResource(res, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return remote.ReadResource(ctx, req.Params)
		})
	}
	for p, err := range remote.Prompts(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("list the remote's prompts: %w", err)
		}
		server.AddPrompt(p, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return remote.GetPrompt(ctx, req.Params)
		})
	}
	return server, nil
}
