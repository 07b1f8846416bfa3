// Package openapi holds Quarry's machine-readable interface description: the
// OpenAPI 3.0.3 document served at GET /openapi.json and used by the e2e
// suite to validate every response.
//
// The document is written in parts (parts/shared.json and one
// parts/<dataset id>.json per catalog dataset) and assembled into the
// committed openapi.json by `go generate ./adapters/http/openapi`, which
// also places each operation's example from examples/<operationId>.json:
// its request and what the served sample answers to it. `go test
// ./adapters/http/openapi -run TestExamples -update` writes the answers;
// without -update that test replays every example and fails when the
// service answers otherwise.
package openapi

//go:generate go run ./assemble

import (
	"context"
	_ "embed"
	"fmt"

	"github.com/getkin/kin-openapi/openapi3"
)

// Document is the OpenAPI 3.0.3 document of the interface, version
// 2026-07-20, exactly as served at GET /openapi.json.
//
//go:embed openapi.json
var Document []byte

// Load parses Document and validates it against the OpenAPI 3.0 rules,
// returning the parsed document.
func Load() (*openapi3.T, error) {
	ctx := context.Background()
	loader := openapi3.NewLoader()
	loader.Context = ctx
	doc, err := loader.LoadFromData(Document)
	if err != nil {
		return nil, fmt.Errorf("parse openapi document: %w", err)
	}
	if err := doc.Validate(ctx); err != nil {
		return nil, fmt.Errorf("validate openapi document: %w", err)
	}
	return doc, nil
}
