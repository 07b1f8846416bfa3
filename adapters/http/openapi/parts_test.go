package openapi

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/adapters/http/openapi/internal/assembly"
	"github.com/quarrydata/quarry/domain/dataset"
)

// TestDocumentIsTheAssembledParts fails when openapi.json, the served
// document, is not what its parts and examples assemble to today.
func TestDocumentIsTheAssembledParts(t *testing.T) {
	fresh, err := assembly.Build(os.DirFS("parts"), os.DirFS("examples"), assembly.CatalogIDs())
	if err != nil {
		t.Fatalf("assemble the parts: %v", err)
	}
	if !bytes.Equal(fresh, Document) {
		t.Fatal("openapi.json differs from its parts and examples: edit parts/ or examples/, not openapi.json, then run `go generate ./adapters/http/openapi` and commit both")
	}
}

// TestEachDatasetsRoutesAreItsPart checks that every catalog route is
// documented in its dataset's own part, and that a dataset's part holds
// only its routes.
func TestEachDatasetsRoutesAreItsPart(t *testing.T) {
	for _, d := range dataset.Catalog() {
		var want []string
		for _, r := range d.Routes {
			want = append(want, strings.ToLower(r.Method)+" "+r.Path)
		}
		got := partOperations(t, assembly.PartName(d.ID))
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: part documents %v, catalog routes %v", assembly.PartName(d.ID), got, want)
		}
	}
}

// httpMethods are the members of a path item that are operations.
var httpMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// partOperations lists the operations ("get /path") of the part named name.
func partOperations(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile("parts/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var part struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(b, &part); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var ops []string
	for path, item := range part.Paths {
		for method := range maps.Keys(item) {
			if slices.Contains(httpMethods, method) {
				ops = append(ops, method+" "+path)
			}
		}
	}
	slices.Sort(ops)
	return ops
}

// TestDatasetComponentsStayInTheirPart checks that no other part refers to
// a component a dataset's part defines, so that a dataset's part can be
// removed with its dataset; a component two parts use belongs in the
// shared part.
func TestDatasetComponentsStayInTheirPart(t *testing.T) {
	names := []string{assembly.Shared}
	for _, id := range assembly.CatalogIDs() {
		names = append(names, assembly.PartName(id))
	}
	text := map[string]string{}
	for _, name := range names {
		b, err := os.ReadFile("parts/" + name)
		if err != nil {
			t.Fatal(err)
		}
		text[name] = string(b)
	}
	for _, owner := range names[1:] {
		var part struct {
			Components map[string]map[string]json.RawMessage `json:"components"`
		}
		if err := json.Unmarshal([]byte(text[owner]), &part); err != nil {
			t.Fatalf("%s: %v", owner, err)
		}
		for section, defined := range part.Components {
			for name := range defined {
				ref := `"#/components/` + section + "/" + name + `"`
				for _, other := range names {
					if other != owner && strings.Contains(text[other], ref) {
						t.Errorf("%s refers to %s, which %s defines: move it to %s", other, ref, owner, assembly.Shared)
					}
				}
			}
		}
	}
}
