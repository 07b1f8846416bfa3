package bootstrap_test

import (
	"context"
	"database/sql"
	"net/url"
	"path/filepath"
	"testing"

	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/ingest"
)

// TestIngestIndexesDocumentsByID ingests into a fresh data directory, as
// an operator's first `quarry ingest` does, with no `quarry serve` before
// it: every collection ends up indexed by the expression FerretDB's reads
// and upserts by id filter on (adapters/ferretdb.IndexIDsIn). Without it
// each upsert of a run scanned its collection, so `quarry ingest` of 3,200
// generated 13F filings took 319 s on the scale benchmark, and 1,200 10-K
// filings had not finished after 15 minutes.
func TestIngestIndexesDocumentsByID(t *testing.T) {
	dir := t.TempDir()
	cfg, err := bootstrap.LoadConfig(func(k string) string {
		if k == bootstrap.EnvDataDir {
			return dir
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	// The second run indexes the collections the first made as it wrote.
	for range 2 {
		err := bootstrap.WithIngesters(context.Background(), cfg, func(by map[string]bootstrap.Ingester) error {
			_, err := by["us_security_fund_holders"].Load(context.Background(), &ingest.Files{})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	db, err := sql.Open("sqlite", (&url.URL{Scheme: "file", Path: filepath.Join(dir, "documents", cfg.MongoDB+".sqlite"), RawQuery: "mode=ro"}).String())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var tables, indexed int
	err = db.QueryRow(`SELECT count(*), count(i.name) FROM _ferretdb_collections c
		LEFT JOIN sqlite_master i ON i.type = 'index' AND i.name = c.table_name || '_quarry_id'`).Scan(&tables, &indexed)
	if err != nil || tables == 0 || indexed != tables {
		t.Fatalf("%d of %d collections indexed by id: %v", indexed, tables, err)
	}
}
