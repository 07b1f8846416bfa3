package ferretdb_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	_ "modernc.org/sqlite"

	"github.com/quarrydata/quarry/adapters/ferretdb"
)

// start serves a new directory and returns the server and a collection of
// it.
func start(tb testing.TB, dir string) (*ferretdb.Server, *mongo.Collection, func()) {
	tb.Helper()
	s, err := ferretdb.Start(dir, slog.New(slog.DiscardHandler))
	if err != nil {
		tb.Fatal(err)
	}
	c, err := mongo.Connect(options.Client().ApplyURI(s.URI()))
	if err != nil {
		s.Close()
		tb.Fatal(err)
	}
	return s, c.Database("quarry").Collection("docs"), func() {
		_ = c.Disconnect(context.Background())
		s.Close()
	}
}

// TestRestartKeepsDocuments writes through one server, stops it, and reads
// the document back through a second one on the same directory.
func TestRestartKeepsDocuments(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "documents")
	_, coll, stop := start(t, dir)
	if _, err := coll.InsertOne(ctx, bson.D{{Key: "_id", Value: "SSE.600519"}, {Key: "name", Value: "贵州茅台"}}); err != nil {
		t.Fatal(err)
	}
	stop()

	_, coll, stop = start(t, dir)
	defer stop()
	var got struct {
		Name string `bson:"name"`
	}
	if err := coll.FindOne(ctx, bson.D{{Key: "_id", Value: "SSE.600519"}}).Decode(&got); err != nil || got.Name != "贵州茅台" {
		t.Fatalf("after restart: %+v, %v", got, err)
	}
}

// benchDoc is a document of the size of a filing section (about 20 kB).
func benchDoc(i int) map[string]any {
	return map[string]any{"_id": fmt.Sprintf("doc%06d", i), "cik": "0000320193", "text": strings.Repeat("net sales increased ", 1000)}
}

// BenchmarkPointRead reads one of 1,000 documents by id: through the
// embedded FerretDB as published, with IndexIDs, and from a native SQLite
// table holding the same JSON, the ways issue 16 weighs for the documents.
func BenchmarkPointRead(b *testing.B) {
	for _, indexed := range []bool{false, true} {
		b.Run(fmt.Sprintf("ferretdb-embedded/index-ids=%t", indexed), func(b *testing.B) { benchFerretDB(b, indexed) })
	}
	b.Run("sqlite-native", benchSQLite)
}

const benchDocs = 1000

func benchFerretDB(b *testing.B, indexed bool) {
	ctx := context.Background()
	s, coll, stop := start(b, filepath.Join(b.TempDir(), "documents"))
	defer stop()
	docs := make([]any, benchDocs)
	for i := range docs {
		docs[i] = benchDoc(i)
	}
	if _, err := coll.InsertMany(ctx, docs); err != nil {
		b.Fatal(err)
	}
	if indexed {
		if err := s.IndexIDs(ctx, "quarry"); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; b.Loop(); i++ {
		var got bson.M
		if err := coll.FindOne(ctx, bson.D{{Key: "_id", Value: fmt.Sprintf("doc%06d", i%benchDocs)}}).Decode(&got); err != nil {
			b.Fatal(err)
		}
	}
}

func benchSQLite(b *testing.B) {
	ctx := context.Background()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(b.TempDir(), "docs.db")+"?_pragma=journal_mode(wal)")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE docs (id TEXT PRIMARY KEY, doc TEXT NOT NULL)`); err != nil {
		b.Fatal(err)
	}
	for i := range benchDocs {
		raw, _ := json.Marshal(benchDoc(i))
		if _, err := db.Exec(`INSERT INTO docs VALUES (?, ?)`, fmt.Sprintf("doc%06d", i), raw); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; b.Loop(); i++ {
		var raw []byte
		if err := db.QueryRowContext(ctx, `SELECT doc FROM docs WHERE id = ?`, fmt.Sprintf("doc%06d", i%benchDocs)).Scan(&raw); err != nil {
			b.Fatal(err)
		}
		var got map[string]any
		if err := json.Unmarshal(raw, &got); err != nil {
			b.Fatal(err)
		}
	}
}

// TestBackup copies the documents while they are written and serves the
// copy from a server of its own.
func TestBackup(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "documents")
	_, coll, stop := start(t, dir)
	defer stop()
	for i := range 50 {
		if _, err := coll.InsertOne(ctx, benchDoc(i)); err != nil {
			t.Fatal(err)
		}
	}
	writing := make(chan error, 1)
	go func() {
		var err error
		for i := 50; i < 100 && err == nil; i++ {
			_, err = coll.InsertOne(ctx, benchDoc(i))
		}
		writing <- err
	}()
	dst := filepath.Join(t.TempDir(), "copy")
	wrote, err := ferretdb.Backup(ctx, dir, dst)
	if err != nil || len(wrote) != 1 {
		t.Fatalf("Backup = %v, %v; want one file", wrote, err)
	}
	if err := <-writing; err != nil {
		t.Fatal(err)
	}

	_, copied, stopCopy := start(t, dst)
	defer stopCopy()
	n, err := copied.CountDocuments(ctx, bson.D{})
	if err != nil || n < 50 || n > 100 {
		t.Fatalf("the copy holds %d documents (%v); want the 50 written before and some of the 50 written during the backup", n, err)
	}
	var got bson.M
	if err := copied.FindOne(ctx, bson.D{{Key: "_id", Value: "doc000049"}}).Decode(&got); err != nil {
		t.Fatalf("a document written before the backup: %v", err)
	}
}
