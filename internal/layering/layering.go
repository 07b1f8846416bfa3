// Package layering states the house dependency rules as code: domain ←
// ports ← app ← adapters ← bootstrap, adapters apart from one another, and
// test helpers kept out of what ships. Its test holds the module's import
// graph to them, so the layering stays true without anyone remembering it.
package layering

import (
	"path"
	"strings"
)

// Edge is one import: the package From imports the package To. Both are
// full import paths.
type Edge struct {
	From, To string
}

// Violation is an edge that breaks a rule, and the rule it breaks.
type Violation struct {
	Edge
	Rule string
}

// pkg is an import path seen from the module: rel is the path inside the
// module ("domain/ledger") when ours is set, else the full path.
type pkg struct {
	rel  string
	ours bool
}

// rule is one direction an import must not take.
type rule struct {
	name   string
	breaks func(from, to pkg) bool
}

var rules = []rule{
	{"domain imports nothing of ours outside domain", func(from, to pkg) bool {
		return under(from.rel, "domain") && to.ours && !under(to.rel, "domain")
	}},
	// ports/porttest is left out: it is a test helper, built only into
	// tests, which may cross layers.
	{"ports imports no adapter, app or bootstrap", func(from, to pkg) bool {
		return under(from.rel, "ports") && !under(from.rel, "ports/porttest") && to.ours &&
			(under(to.rel, "adapters") || under(to.rel, "app") || under(to.rel, "bootstrap") || under(to.rel, "ingest"))
	}},
	// ingest composes the source-format adapters with the slices, as
	// bootstrap composes the service: app may use neither.
	{"app imports no adapter or bootstrap", func(from, to pkg) bool {
		return under(from.rel, "app") && to.ours && (under(to.rel, "adapters") || under(to.rel, "bootstrap") || under(to.rel, "ingest"))
	}},
	{"an adapter imports no composition (bootstrap, ingest)", func(from, to pkg) bool {
		return under(from.rel, "adapters") && to.ours && (under(to.rel, "bootstrap") || under(to.rel, "ingest"))
	}},
	// An adapter is adapters/<name> with its sub-packages (adapters/http
	// and adapters/http/openapi are one adapter); bootstrap composes them.
	// adapters/internal holds mechanisms the adapters share (the group
	// commit), no adapter, so any adapter may use it.
	{"an adapter imports no other adapter", func(from, to pkg) bool {
		return under(from.rel, "adapters") && to.ours && under(to.rel, "adapters") &&
			!under(to.rel, "adapters/internal") && adapter(from.rel) != adapter(to.rel)
	}},
	// A dataset slice is app/<dataset> with its sub-packages. Slices stand
	// apart: each may use the platform and the mechanisms every slice
	// shares (app/usecase, app/readcache), never another slice. Ask, which
	// reads several datasets, is the one use case over slices.
	{"an app slice imports no other app slice", func(from, to pkg) bool {
		return to.ours && slice(from.rel) != "" && slice(to.rel) != "" && slice(from.rel) != slice(to.rel) &&
			slice(from.rel) != "ask"
	}},
	{"the app's shared packages import no slice", func(from, to pkg) bool {
		return to.ours && appShared(from.rel) && slice(to.rel) != "" && slice(to.rel) != slice(from.rel)
	}},
	// The commands' behaviour (cmd/quarry and cmd/quarry/cli) works on
	// what bootstrap opens for a configuration: the composition root stays
	// apart from the behaviour.
	{"the quarry commands import no adapter", func(from, to pkg) bool {
		return under(from.rel, "cmd/quarry") && to.ours && under(to.rel, "adapters")
	}},
	{"production code imports no test helper or testing", func(from, to pkg) bool {
		return !testHelper(from) && (testHelper(to) || !to.ours && under(to.rel, "testing"))
	}},
}

// Check returns the edges that break a rule, in the order given, for the
// module whose path is module. Only edges from the module's packages count.
func Check(module string, edges []Edge) []Violation {
	var out []Violation
	for _, e := range edges {
		from, to := locate(module, e.From), locate(module, e.To)
		if !from.ours {
			continue
		}
		for _, r := range rules {
			if r.breaks(from, to) {
				out = append(out, Violation{Edge: e, Rule: r.name})
			}
		}
	}
	return out
}

// locate places importPath relative to the module.
func locate(module, importPath string) pkg {
	if importPath == module {
		return pkg{ours: true}
	}
	if rel, ok := strings.CutPrefix(importPath, module+"/"); ok {
		return pkg{rel: rel, ours: true}
	}
	return pkg{rel: importPath}
}

// under reports whether p is dir or a package below it.
func under(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// adapter returns the adapter a package under adapters/ belongs to.
func adapter(rel string) string {
	name, _, _ := strings.Cut(strings.TrimPrefix(rel, "adapters/"), "/")
	return name
}

// appSharedNames are the packages under app/ that every slice may use.
var appSharedNames = map[string]bool{"platform": true, "usecase": true, "readcache": true}

// appPart returns the first element below app/ of rel, or "".
func appPart(rel string) string {
	rest, ok := strings.CutPrefix(rel, "app/")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, "/")
	return name
}

// slice returns the app slice rel belongs to (Ask counts as one), or ""
// for a package outside app or one of the app's shared packages.
func slice(rel string) string {
	if name := appPart(rel); !appSharedNames[name] {
		return name
	}
	return ""
}

// appShared reports whether rel is one of the app's shared packages.
func appShared(rel string) bool { return appSharedNames[appPart(rel)] }

// testHelper reports whether p exists for tests: ports/porttest, quarrytest
// and its sub-packages, any package named *test (net/http/httptest,
// zaptest, fxtest) and an internal testutil.
func testHelper(p pkg) bool {
	base := path.Base(p.rel)
	if strings.HasSuffix(base, "test") {
		return true
	}
	if !p.ours {
		return false
	}
	return under(p.rel, "ports/porttest") || under(p.rel, "quarrytest") ||
		base == "testutil" && (strings.HasPrefix(p.rel, "internal/") || strings.Contains(p.rel, "/internal/"))
}
