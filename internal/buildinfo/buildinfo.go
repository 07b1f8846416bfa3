// Package buildinfo holds the build's version, the one string the binary
// gives for itself: `quarry version`, and the MCP server's serverInfo over
// Streamable HTTP and, through the bridge, over stdio.
package buildinfo

// Version is set at build time with
// -ldflags "-X github.com/quarrydata/quarry/internal/buildinfo.Version=...";
// a build without it is "dev".
var Version = "dev"
