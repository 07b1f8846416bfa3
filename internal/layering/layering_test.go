package layering_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/quarrydata/quarry/internal/layering"
)

const module = "example.com/m"

// TestCheck shows each rule reporting the import that breaks it, and the
// imports next to it that it allows.
func TestCheck(t *testing.T) {
	for _, c := range []struct {
		name     string
		from, to string // import paths
		rule     string // "" when the import is allowed
	}{
		{"domain on domain", ours("domain/ledger"), ours("domain/account"), ""},
		{"domain on the standard library", ours("domain/ledger"), "time", ""},
		{"domain on an adapter", ours("domain/x"), ours("adapters/y"), "domain imports nothing of ours outside domain"},
		{"domain on ports", ours("domain/ledger"), ours("ports"), "domain imports nothing of ours outside domain"},
		{"domain on sample data", ours("domain/ledger"), ours("sampledata"), "domain imports nothing of ours outside domain"},
		{"ports on domain", ours("ports"), ours("domain/ledger"), ""},
		{"ports on an adapter", ours("ports"), ours("adapters/memory"), "ports imports no adapter, app or bootstrap"},
		{"ports on app", ours("ports"), ours("app"), "ports imports no adapter, app or bootstrap"},
		{"ports on bootstrap", ours("ports"), ours("bootstrap"), "ports imports no adapter, app or bootstrap"},
		{"porttest on an adapter", ours("ports/porttest"), ours("adapters/memory"), ""},
		{"porttest on testing", ours("ports/porttest"), "testing", ""},
		{"app on ports", ours("app"), ours("ports"), ""},
		{"app on an adapter", ours("app"), ours("adapters/memory"), "app imports no adapter or bootstrap"},
		{"an app slice on bootstrap", ours("app/judgments"), ours("bootstrap"), "app imports no adapter or bootstrap"},
		{"an app slice on ingest", ours("app/usfilings"), ours("ingest"), "app imports no adapter or bootstrap"},
		{"ingest on an adapter", ours("ingest"), ours("adapters/companyfacts"), ""},
		{"bootstrap on ingest", ours("bootstrap"), ours("ingest"), ""},
		{"an adapter on ingest", ours("adapters/http"), ours("ingest"), "an adapter imports no composition (bootstrap, ingest)"},
		{"an app slice on another", ours("app/indiaprices"), ours("app/indiajudgments"), "an app slice imports no other app slice"},
		{"an app slice on the platform", ours("app/indiaprices"), ours("app/platform"), ""},
		{"an app slice on the shared cache", ours("app/indiaprices"), ours("app/readcache"), ""},
		{"the shared cache's test helper on the cache", ours("app/readcache/readcachetest"), ours("app/readcache"), ""},
		{"Ask on the slices it reads", ours("app/ask"), ours("app/usfilings"), ""},
		{"a slice on Ask", ours("app/usfilings"), ours("app/ask"), "an app slice imports no other app slice"},
		{"a shared package on a slice", ours("app/usecase"), ours("app/chinaprices"), "the app's shared packages import no slice"},
		{"the platform on the shared cache", ours("app/platform"), ours("app/readcache"), ""},
		{"an adapter on another", ours("adapters/memory"), ours("adapters/sqlite"), "an adapter imports no other adapter"},
		{"an adapter on another's sub-package", ours("adapters/mongo"), ours("adapters/postgres/vault"), "an adapter imports no other adapter"},
		{"an adapter on its sub-package", ours("adapters/http"), ours("adapters/http/openapi"), ""},
		{"a sub-package on its sibling", ours("adapters/http/console"), ours("adapters/http/openapi"), ""},
		{"a sub-package on its adapter", ours("adapters/postgres/vault"), ours("adapters/postgres"), ""},
		{"an adapter on the adapters' shared mechanisms", ours("adapters/postgres"), ours("adapters/internal/groupcommit"), ""},
		{"a shared mechanism on an adapter", ours("adapters/internal/groupcommit"), ours("adapters/sqlite"), "an adapter imports no other adapter"},
		{"an adapter on app", ours("adapters/http"), ours("app"), ""},
		{"bootstrap on adapters", ours("bootstrap"), ours("adapters/sqlite"), ""},
		{"a command on bootstrap", ours("cmd/quarry/cli"), ours("bootstrap"), ""},
		{"a command on an adapter", ours("cmd/quarry/cli"), ours("adapters/postgres"), "the quarry commands import no adapter"},
		{"production on testing", ours("bootstrap"), "testing", "production code imports no test helper or testing"},
		{"production on testing/fstest", ours("adapters/exportfile"), "testing/fstest", "production code imports no test helper or testing"},
		{"production on porttest", ours("adapters/memory"), ours("ports/porttest"), "production code imports no test helper or testing"},
		{"production on quarrytest", ours("cmd/quarry"), ours("quarrytest"), "production code imports no test helper or testing"},
		{"production on a quarrytest sub-package", ours("bootstrap"), ours("quarrytest/quarrycontainer"), "production code imports no test helper or testing"},
		{"production on httptest", ours("adapters/http"), "net/http/httptest", "production code imports no test helper or testing"},
		{"production on a testutil", ours("app"), ours("internal/db/testutil"), "production code imports no test helper or testing"},
		{"a test helper on a test helper", ours("quarrytest"), "go.uber.org/zap/zaptest", ""},
		{"quarrytest on bootstrap", ours("quarrytest"), ours("bootstrap"), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			edge := layering.Edge{From: c.from, To: c.to}
			var want []layering.Violation
			if c.rule != "" {
				want = []layering.Violation{{Edge: edge, Rule: c.rule}}
			}
			if got := layering.Check(module, []layering.Edge{edge}); !slices.Equal(got, want) {
				t.Fatalf("Check(%s -> %s) = %v, want %v", c.from, c.to, got, want)
			}
		})
	}
}

// ours returns the import path of the package at rel in the module.
func ours(rel string) string { return module + "/" + rel }

// TestCheckIgnoresOtherModules shows that only the module's own packages
// are held to the rules: a dependency may import what it likes.
func TestCheckIgnoresOtherModules(t *testing.T) {
	edge := layering.Edge{From: "example.com/other/domain/x", To: "testing"}
	if got := layering.Check(module, []layering.Edge{edge}); len(got) != 0 {
		t.Fatalf("Check on another module's edge = %v", got)
	}
}

// TestModuleKeepsTheRules holds the module's own import graph, production
// files only, to the rules. Test files may still import across layers
// (app's tests use the memory adapter and bootstrap's samples).
func TestModuleKeepsTheRules(t *testing.T) {
	module, edges := moduleGraph(t)
	if len(edges) == 0 {
		t.Fatal("go list found no imports; the graph was not read")
	}
	for _, v := range layering.Check(module, edges) {
		t.Errorf("%s imports %s: %s", v.From, v.To, v.Rule)
	}
}

// moduleGraph reads the non-test imports of every package of the module
// that holds the working directory, with one go list.
func moduleGraph(t *testing.T) (string, []layering.Edge) {
	t.Helper()
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports,Module", "./...")
	cmd.Dir = moduleRoot(t)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	var module string
	var edges []layering.Edge
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath string
			Imports    []string
			Module     struct{ Path string }
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("decode go list: %v", err)
		}
		module = p.Module.Path
		for _, imp := range p.Imports {
			edges = append(edges, layering.Edge{From: p.ImportPath, To: imp})
		}
	}
	return module, edges
}

// moduleRoot returns the directory holding go.mod, above the test's
// working directory.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = parent
	}
}
