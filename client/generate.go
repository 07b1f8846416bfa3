package client

// client.gen.go is generated from the served OpenAPI document by oapi-codegen
// v2.8.2, pinned in its own module under oapi-codegen/ so that the generator
// and its kin-openapi never enter the main module's build (or the cold start
// of `go tool task run`). TestUpToDate fails when the document and this file
// disagree; regenerate with `go generate ./client`.
//go:generate go -C oapi-codegen tool oapi-codegen -config config.yaml -o ../client.gen.go ../../adapters/http/openapi/openapi.json
