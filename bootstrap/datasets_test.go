package bootstrap

import (
	"context"
	"slices"
	"testing"

	"go.uber.org/fx"
	"go.uber.org/zap"

	httpadapter "github.com/quarrydata/quarry/adapters/http"
)

// TestEveryDatasetJoinsThroughItsGroups checks that each registered dataset
// contributes exactly its own ingester to the "ingesters" group, and that
// the service takes its handlers from the "handlers" group.
func TestEveryDatasetJoinsThroughItsGroups(t *testing.T) {
	cfg, err := LoadConfig(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for _, ing := range ingesters(t, cfg) {
		got = append(got, ing.Dataset)
	}
	for _, d := range IngestDatasets() {
		want = append(want, d.Name)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("ingesters %v, registered datasets %v", got, want)
	}
	var handlers struct {
		fx.In
		Handlers []httpadapter.DataHandler `group:"handlers"`
	}
	if err := fx.New(fx.NopLogger, Options(cfg, zap.NewNop()), fx.Populate(&handlers)).Err(); err != nil {
		t.Fatal(err)
	}
	for _, route := range []string{"GET /china/securities/{code}", "GET /china/prices", "GET /us/financials", "POST /us/search", "GET /us/security-fund-holders",
		"GET /india/judgments/{judgment_id}", "GET /india/judgments/{judgment_id}/pdf", "POST /india/search"} {
		if !slices.ContainsFunc(handlers.Handlers, func(h httpadapter.DataHandler) bool { return h.Method+" "+h.Path == route }) {
			t.Errorf("no handler for %s in the handlers group", route)
		}
	}
}

// TestIngestersLoadTheirSamples runs every ingester without files on memory
// stores: each loads its bundled sample.
func TestIngestersLoadTheirSamples(t *testing.T) {
	cfg, err := LoadConfig(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	for _, ing := range ingesters(t, cfg) {
		got, err := ing.Load(context.Background(), nil)
		if err != nil || got.Records == 0 {
			t.Errorf("%s sample: %d records, %v", ing.Dataset, got.Records, err)
		}
	}
}

// ingesters wires the ingestion of cfg and returns its ingesters.
func ingesters(t *testing.T, cfg Config) []Ingester {
	t.Helper()
	var in struct {
		fx.In
		Ingesters []Ingester `group:"ingesters"`
	}
	if err := fx.New(fx.NopLogger, ingestion(cfg), fx.Populate(&in)).Err(); err != nil {
		t.Fatal(err)
	}
	return in.Ingesters
}
