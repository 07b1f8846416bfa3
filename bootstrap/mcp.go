package bootstrap

import (
	"context"
	"io"

	"github.com/quarrydata/quarry/adapters/mcpbridge"
)

// MCPBridge serves MCP on in and out (stdio) for a desktop assistant,
// forwarding to the /mcp endpoint of the Quarry at url with the key of
// QUARRY_API_KEY, until the assistant closes its end or ctx ends.
func MCPBridge(ctx context.Context, cfg Config, url, version string, in io.ReadCloser, out io.WriteCloser) error {
	return mcpbridge.Run(ctx, mcpbridge.Config{URL: url, APIKey: cfg.APIKey, Version: version}, in, out)
}
