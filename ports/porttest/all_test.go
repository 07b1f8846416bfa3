package porttest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestRunAllRunsEverySuite fails when a port's suite is added to the
// package but not to RunAll, or a Stores field is named by no suite: a
// team calling RunAll would silently miss part of the contract.
func TestRunAllRunsEverySuite(t *testing.T) {
	fset := token.NewFileSet()
	declared, called := map[string]bool{}, map[string]bool{}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			if fn.Recv == nil && fn.Name.IsExported() && strings.HasPrefix(fn.Name.Name, "Run") && fn.Name.Name != "RunAll" {
				declared[fn.Name.Name] = true
			}
			if fn.Name.Name == "suites" {
				ast.Inspect(fn.Body, func(n ast.Node) bool {
					if call, ok := n.(*ast.CallExpr); ok {
						if id, ok := call.Fun.(*ast.Ident); ok {
							called[id.Name] = true
						}
					}
					return true
				})
			}
		}
	}
	if len(declared) == 0 {
		t.Fatal("found no Run functions; the package was not read")
	}
	for name := range declared {
		if !called[name] {
			t.Errorf("RunAll does not run %s", name)
		}
	}
	named := map[string]bool{}
	for _, s := range (Stores{}).suites() {
		named[s.field] = true
	}
	for f := range reflect.TypeFor[Stores]().Fields() {
		if !named[f.Name] {
			t.Errorf("no suite of RunAll uses Stores.%s", f.Name)
		}
	}
}

// TestRunAllSkipsWhatIsNotGiven runs RunAll with no store at all: every
// suite is skipped rather than called with a nil constructor, which would
// panic.
func TestRunAllSkipsWhatIsNotGiven(t *testing.T) {
	var names []string
	for _, s := range (Stores{}).suites() {
		if s.given {
			t.Errorf("suite %s is given with every field nil", s.name)
		}
		names = append(names, s.name)
	}
	if slices.Sort(names); len(slices.Compact(names)) != len((Stores{}).suites()) {
		t.Errorf("two suites share a name: %v", names)
	}
	RunAll(t, Stores{})
}
