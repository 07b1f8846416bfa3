package e2e

import (
	"context"
	"io"
	"net/http"
	"reflect"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/cmd/quarry/cli"
)

// TestThreeNodesShareOneSearchIndex runs search on PostgreSQL
// (QUARRY_SEARCH=postgres): `quarry ingest all` writes the documents and
// indexes them, with their checkpoints, into the one index every node
// shares; three nodes then start on it, each finding the checkpoint and
// building nothing, and answer the same search alike, the passage's
// offsets cutting the matched words out of the stored text.
func TestThreeNodesShareOneSearchIndex(t *testing.T) {
	cfg := appConfig(t, onDatabases)
	cfg.Search = bootstrap.SearchPostgres
	if err := cli.Ingest(context.Background(), cfg, "all", nil, io.Discard, nil); err != nil {
		t.Fatalf("ingest: %v", err)
	}
	ctx := context.Background()
	db, err := pgx.Connect(ctx, cfg.PostgresURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(ctx)
	var sections, judgments, checkpoints int
	err = db.QueryRow(ctx, `SELECT (SELECT count(*) FROM search_sections), (SELECT count(*) FROM search_judgments),
		(SELECT count(*) FROM search_checkpoints)`).Scan(&sections, &judgments, &checkpoints)
	if err != nil || sections == 0 || judgments == 0 || checkpoints != 2 {
		t.Fatalf("after ingest: %d sections, %d judgments, %d checkpoints (%v)", sections, judgments, checkpoints, err)
	}

	var nodes []*client
	for range 3 {
		c := cfg
		c.HTTPAddr = freeAddr(t)
		nodes = append(nodes, serveApp(t, c))
	}
	_, key := signIn(t, nodes[0], "shared-search@example.com")
	var first searchResultsBody
	for i, n := range nodes {
		var got searchResultsBody
		n.do("POST", "/us/search", map[string]any{"query": "smartphone market share"}, apiKey(key)).expect(t, http.StatusOK).JSON(t, &got)
		if len(got.Results) == 0 {
			t.Fatalf("node %d found nothing", i+1)
		}
		if i == 0 {
			first = got
			continue
		}
		if !reflect.DeepEqual(got.Results, first.Results) {
			t.Errorf("node %d answered %+v, node 1 %+v", i+1, got.Results, first.Results)
		}
	}
	for _, r := range first.Results {
		if r.SourceOffsets.End <= r.SourceOffsets.Start {
			t.Errorf("%s: empty passage %+v", r.SourceOffsets.Section, r.SourceOffsets)
		}
	}
	var india struct {
		Results []struct {
			JudgmentID string `json:"judgment_id"`
		} `json:"results"`
	}
	nodes[2].do("POST", "/india/search", map[string]any{"query": "specific performance agreement to sell"}, apiKey(key)).expect(t, http.StatusOK).JSON(t, &india)
	if len(india.Results) == 0 {
		t.Fatal("India search on node 3 found nothing")
	}
	// Ask's retrievers read the shared index through the use cases.
	for question, document := range map[string]string{
		"What is Microsoft's mission?":    "0000950170-25-100235/1",
		"What are the two new buzzwords?": "inj_rjb53zhkumhjenma",
	} {
		var ask struct {
			Answer    *string `json:"answer"`
			Citations []struct {
				DocumentID string `json:"document_id"`
			} `json:"citations"`
		}
		nodes[1].do("POST", "/ask", map[string]any{"question": question}, apiKey(key)).expect(t, http.StatusOK).JSON(t, &ask)
		if ask.Answer == nil || len(ask.Citations) == 0 || ask.Citations[0].DocumentID != document {
			t.Errorf("Ask %q on node 2: answer %v, citations %+v; want %s cited", question, ask.Answer, ask.Citations, document)
		}
	}
	var after int
	if err := db.QueryRow(ctx, `SELECT count(*) FROM search_sections`).Scan(&after); err != nil || after != sections {
		t.Fatalf("the nodes changed the index: %d sections, %d after ingest (%v)", after, sections, err)
	}
}

// TestFirstNodeBuildsTheSharedIndex starts nodes on documents no run
// indexed: the first finds no checkpoint and builds the shared index
// before it is ready, under the index's lock; the second finds the
// checkpoint and adds nothing.
func TestFirstNodeBuildsTheSharedIndex(t *testing.T) {
	cfg := appConfig(t, onDatabases)
	cfg.Search = bootstrap.SearchPostgres
	copyMongoTemplate(t, cfg.MongoDB)
	ctx := context.Background()
	db, err := pgx.Connect(ctx, cfg.PostgresURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(ctx)
	counts := func() (sections, checkpoints int) {
		t.Helper()
		err := db.QueryRow(ctx, `SELECT (SELECT count(*) FROM search_sections), (SELECT count(*) FROM search_checkpoints)`).Scan(&sections, &checkpoints)
		if err != nil {
			t.Fatal(err)
		}
		return sections, checkpoints
	}
	if s, c := counts(); s != 0 || c != 0 {
		t.Fatalf("before any node: %d sections, %d checkpoints", s, c)
	}
	first := serveApp(t, cfg)
	built, checkpoints := counts()
	if built == 0 || checkpoints != 2 {
		t.Fatalf("the first node is ready with %d sections indexed and %d checkpoints", built, checkpoints)
	}
	second := cfg
	second.HTTPAddr = freeAddr(t)
	node2 := serveApp(t, second)
	_, key := signIn(t, first, "first-builds@example.com")
	var got searchResultsBody
	node2.do("POST", "/us/search", map[string]any{"query": "smartphone"}, apiKey(key)).expect(t, http.StatusOK).JSON(t, &got)
	if len(got.Results) == 0 {
		t.Fatal("the second node found nothing in the index the first built")
	}
	if after, _ := counts(); after != built {
		t.Fatalf("%d sections after the second node's start, %d before", after, built)
	}
}
