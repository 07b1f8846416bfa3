package ferretdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"

	_ "modernc.org/sqlite" // the driver FerretDB's SQLite backend uses too
)

// IndexIDs gives every collection of database db an SQLite index on the
// expression FerretDB v1.24.2 filters `_id` by (see IndexIDsIn). Call it
// once the collections exist; it is idempotent.
func (s *Server) IndexIDs(ctx context.Context, db string) error { return IndexIDsIn(ctx, s.dir, db) }

// IndexIDsIn does what IndexIDs does for the database db of a FerretDB
// SQLite directory dir, served by this process or another. FerretDB
// v1.24.2's SQLite backend pushes an `_id` equality down as
// `_ferretdb_sjson->'$._id' = ?`, but indexes `_id` as
// `_ferretdb_sjson->"_id"`; SQLite matches index expressions by their text,
// so every read by `_id` scanned the whole table (docs/benchmarks.md,
// "Figures behind the design"). FerretDB lists
// indexes from its own metadata, so clients never see this one.
func IndexIDsIn(ctx context.Context, dir, db string) error {
	path := filepath.Join(dir, db+".sqlite")
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil // no collection yet
	}
	conn, err := sql.Open("sqlite", (&url.URL{Scheme: "file", Path: path,
		RawQuery: "mode=rw&_pragma=busy_timeout(10000)"}).String())
	if err != nil {
		return fmt.Errorf("ferretdb: index ids: %w", err)
	}
	defer conn.Close()
	tables, err := collectionTables(ctx, conn)
	if err != nil {
		return err
	}
	for _, t := range tables {
		q := fmt.Sprintf(`CREATE INDEX IF NOT EXISTS "%s_quarry_id" ON "%s" (_ferretdb_sjson->'$._id')`, t, t)
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("ferretdb: index ids of %s: %w", t, err)
		}
	}
	return nil
}

// collectionTables lists the tables of the database's collections that
// lack the index; none when the database has not been created yet. A
// look that finds every table indexed only reads the schema, so it can
// run every second.
func collectionTables(ctx context.Context, conn *sql.DB) ([]string, error) {
	rows, err := conn.QueryContext(ctx, `SELECT c.table_name FROM _ferretdb_collections c
		LEFT JOIN sqlite_master i ON i.type = 'index' AND i.name = c.table_name || '_quarry_id'
		WHERE i.name IS NULL`)
	if err != nil {
		var n int
		if conn.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE name = '_ferretdb_collections'`).Scan(&n) == nil && n == 0 {
			return nil, nil
		}
		return nil, fmt.Errorf("ferretdb: list collections: %w", err)
	}
	defer rows.Close()
	var tables []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, fmt.Errorf("ferretdb: list collections: %w", err)
		}
		tables = append(tables, t)
	}
	return tables, rows.Err()
}
