// Command assemble writes openapi.json from the parts in parts/ (the shared
// part, then each catalog dataset's part in catalog order) and the
// operations' examples in examples/. `go generate
// ./adapters/http/openapi` runs it in that package's directory.
package main

import (
	"fmt"
	"os"

	"github.com/quarrydata/quarry/adapters/http/openapi/internal/assembly"
)

func main() {
	doc, err := assembly.Build(os.DirFS("parts"), os.DirFS("examples"), assembly.CatalogIDs())
	if err == nil {
		err = os.WriteFile("openapi.json", doc, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "assemble openapi.json:", err)
		os.Exit(1)
	}
}
