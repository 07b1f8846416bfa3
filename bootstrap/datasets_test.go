package bootstrap

import (
	"context"
	"slices"
	"testing"

	"go.uber.org/fx"
	"go.uber.org/zap"

	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/domain/dataset"
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
	for _, d := range dataset.Catalog() {
		for _, r := range d.Routes {
			if !slices.ContainsFunc(handlers.Handlers, func(h httpadapter.DataHandler) bool { return h.Method == r.Method && h.Path == r.Path }) {
				t.Errorf("%s: no handler for %s %s in the handlers group", d.ID, r.Method, r.Path)
			}
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

// TestIngestNamesAreCatalogIDs checks that each dataset's name is the
// catalog id of the first dataset its ingest fills (B66).
func TestIngestNamesAreCatalogIDs(t *testing.T) {
	for _, d := range datasets() {
		if len(d.fills) > 0 && d.name != string(d.fills[0]) {
			t.Errorf("dataset %s fills %v first: its name is not its catalog id", d.name, d.fills[0])
		}
	}
}
