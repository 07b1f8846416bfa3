package bootstrap_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/ingest"
)

// envConstants reads the QUARRY_* values of the Env* constants from
// config.go, where settings are defined, so a new one cannot be missed.
func envConstants(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "config.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, decl := range f.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.CONST {
			continue
		}
		for _, spec := range gen.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, id := range vs.Names {
				if lit, ok := vs.Values[i].(*ast.BasicLit); ok && strings.HasPrefix(id.Name, "Env") {
					v, _ := strconv.Unquote(lit.Value)
					names = append(names, v)
				}
			}
		}
	}
	if len(names) < 10 {
		t.Fatalf("found %d Env* constants in config.go: %v", len(names), names)
	}
	return names
}

func TestSettingsListEveryVariable(t *testing.T) {
	listed := map[string]bool{}
	for _, s := range bootstrap.Settings {
		if listed[s.Name] {
			t.Errorf("%s is listed twice", s.Name)
		}
		listed[s.Name] = true
	}
	for _, name := range envConstants(t) {
		if !listed[name] {
			t.Errorf("%s is defined in config.go but missing from bootstrap.Settings (quarry help)", name)
		}
		delete(listed, name)
	}
	for name := range listed {
		t.Errorf("%s is in bootstrap.Settings but no Env* constant defines it", name)
	}
}

// TestSettingsDefaultsAreWhatLoadConfigDoes sets each variable to the
// default `quarry help` prints and expects the configuration it gets unset.
func TestSettingsDefaultsAreWhatLoadConfigDoes(t *testing.T) {
	unset, err := bootstrap.LoadConfig(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range bootstrap.Settings {
		if s.Default == "" {
			continue
		}
		got, err := bootstrap.LoadConfig(func(k string) string {
			if k == s.Name {
				return s.Default
			}
			return ""
		})
		if err != nil || !reflect.DeepEqual(got, unset) {
			t.Errorf("%s=%s (its printed default) gives %+v, %v; unset gives %+v", s.Name, s.Default, got, err, unset)
		}
	}
}

// TestIngestNamesItsSetting checks that the ingest package, which cannot
// import bootstrap, names the file-size setting as config.go defines it.
func TestIngestNamesItsSetting(t *testing.T) {
	if ingest.MaxFileBytesSetting != bootstrap.EnvIngestMaxFileBytes {
		t.Fatalf("ingest names %s, config.go %s", ingest.MaxFileBytesSetting, bootstrap.EnvIngestMaxFileBytes)
	}
}
