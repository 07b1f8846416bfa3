package bootstrap_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.uber.org/fx"
	"go.uber.org/zap"

	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/domain/feed"
	"github.com/quarrydata/quarry/ingest"
	"github.com/quarrydata/quarry/ports"
)

// judgmentsAvailability is what /catalog and a 503 say of india_judgments.
type judgmentsAvailability struct {
	catalog, search, status string
	body                    map[string]any
}

func judgmentsSeen(t *testing.T, srv http.Handler, key, id string) judgmentsAvailability {
	t.Helper()
	var cat struct {
		Datasets []struct{ Dataset, Availability string }
	}
	call(t, srv, "GET", "/catalog", "", nil, &cat)
	var out judgmentsAvailability
	for _, d := range cat.Datasets {
		switch d.Dataset {
		case "india_judgments":
			out.catalog = d.Availability
		case "india_search":
			out.search = d.Availability
		}
	}
	code, body := serveOnce(srv, "GET", "/india/judgments/"+id, "", key)
	out.status = http.StatusText(code)
	if code == http.StatusServiceUnavailable {
		if err := json.Unmarshal([]byte(body), &out.body); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestJudgmentsAvailabilityFollowsTheirGovernedSource serves an empty
// judgments store on memory: source_required until the judgments inbox
// has run (its checkpoint, written only by a run with the inbox and the
// vault key), then not_backfilled, then available once judgments are
// stored; /catalog and the 503 body say so at each step.
func TestJudgmentsAvailabilityFollowsTheirGovernedSource(t *testing.T) {
	cfg := memoryConfig(t)
	cfg.Empty = []string{"india_judgments"}
	var srv *httpadapter.Server
	var states ports.SyncStates
	var store ports.JudgmentStore
	app := fx.New(fx.NopLogger, bootstrap.Options(cfg, zap.NewNop()), fx.Populate(&srv, &states, &store))
	if err := app.Err(); err != nil {
		t.Fatal(err)
	}
	_, key := signIn(t, srv)
	sample, err := ingest.LoadJudgmentsSample()
	if err != nil {
		t.Fatal(err)
	}
	id := sample[0].ID

	got := judgmentsSeen(t, srv, key, id)
	b := got.body
	if got.catalog != "source_required" || got.search != "source_required" || got.status != "Service Unavailable" ||
		b["availability"] != "source_required" || b["reason"] != "governed_source_not_configured" ||
		b["external_source_required"] != true || b["backfill_required"] != true ||
		!strings.Contains(b["message"].(string), "QUARRY_JUDGMENTS_INBOX and QUARRY_VAULT_KEY") {
		t.Fatalf("nothing configured: %+v", got)
	}

	if err := states.SaveState(t.Context(), feed.State{Source: "judgments", LastSuccess: time.Now()}); err != nil {
		t.Fatal(err)
	}
	got = judgmentsSeen(t, srv, key, id)
	b = got.body
	if got.catalog != "not_backfilled" || got.search != "not_backfilled" || b["availability"] != "not_backfilled" ||
		b["reason"] != "normalization_not_backfilled" || b["external_source_required"] != false || b["backfill_required"] != true ||
		!strings.HasSuffix(b["message"].(string), "`quarry ingest india_judgments` or `quarry sync judgments`") {
		t.Fatalf("the inbox has run, nothing loaded: %+v", got)
	}

	if _, err := store.UpsertJudgments(t.Context(), sample); err != nil {
		t.Fatal(err)
	}
	if got = judgmentsSeen(t, srv, key, id); got.catalog != "available" || got.status != "OK" {
		t.Fatalf("judgments stored: %+v", got)
	}
}
