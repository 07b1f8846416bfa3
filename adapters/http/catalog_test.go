package http

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"go.uber.org/zap"

	"github.com/quarrydata/quarry/adapters/http/openapi"
	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/sourcesync"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/feed"
	"github.com/quarrydata/quarry/ports"
)

// weekdaySource publishes each weekday, due at 15:00 UTC, as NSE does.
type weekdaySource struct{ name string }

func (s weekdaySource) Name() string                                               { return s.name }
func (weekdaySource) Publishes(d time.Time) bool                                   { return feed.Weekday(d) }
func (weekdaySource) Due(d time.Time) time.Time                                    { return d.Add(15 * time.Hour) }
func (weekdaySource) Holiday(time.Time) bool                                       { return false }
func (weekdaySource) Fetch(context.Context, time.Time) ([]ports.SourceFile, error) { return nil, nil }

// TestCatalogShowsEachSyncedDatasetsCoverageLastSyncAndLag: nse holds
// 2025-06-18 to 06-27 and was last run on the 28th; on Tuesday 1 July at
// 15:00 Monday the 30th has been due a day. edgar, not configured, holds
// nothing. A dataset no source fills has the four fields null. The body
// matches the OpenAPI document.
func TestCatalogShowsEachSyncedDatasetsCoverageLastSyncAndLag(t *testing.T) {
	s := syncedServer(t)
	req := httptest.NewRequest(http.MethodGet, "/catalog", http.NoBody)
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	validateCatalog(t, req, rec)
	var body struct{ Datasets []map[string]any }
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		string(dataset.IndiaPrices):  `{"coverage":{"first":"2025-06-18","last":"2025-06-27"},"lag_seconds":86400,"last_sync":"2025-06-28T12:00:00Z","source":"nse"}`,
		string(dataset.USFinancials): `{"coverage":null,"lag_seconds":null,"last_sync":null,"source":"edgar"}`,
		string(dataset.ChinaPrices):  `{"coverage":null,"lag_seconds":null,"last_sync":null,"source":null}`,
	}
	for _, ds := range body.Datasets {
		id, _ := ds["dataset"].(string)
		w, ok := want[id]
		if !ok {
			continue
		}
		got, _ := json.Marshal(map[string]any{"source": ds["source"], "coverage": ds["coverage"], "last_sync": ds["last_sync"], "lag_seconds": ds["lag_seconds"]})
		if string(got) != w {
			t.Errorf("%s: %s, want %s", id, got, w)
		}
		delete(want, id)
	}
	if len(want) != 0 {
		t.Errorf("not in the catalog: %v", want)
	}
}

// syncedServer is a server whose nse source holds 2025-06-18 to 06-27,
// last run on the 28th, seen on Tuesday 1 July at 15:00; edgar is not
// configured.
func syncedServer(t *testing.T) *Server {
	t.Helper()
	now := time.Date(2025, 7, 1, 15, 0, 0, 0, time.UTC)
	states := memory.NewSyncStates()
	ran := time.Date(2025, 6, 28, 12, 0, 0, 0, time.UTC)
	if err := states.SaveState(t.Context(), feed.State{Source: "nse", First: "2025-06-18", Last: "2025-06-27", LastSuccess: ran}); err != nil {
		t.Fatal(err)
	}
	syncer := sourcesync.New([]ports.Source{weekdaySource{"nse"}}, []sourcesync.Unconfigured{{Name: "edgar", Remedy: "set X"}},
		states, nil, sourcesync.NewMeter(), func() time.Time { return now },
		sourcesync.Fills(map[string][]dataset.ID{"nse": {dataset.IndiaPrices}, "edgar": {dataset.USFinancials}}))
	s, err := NewServer(Deps{Availability: usecase.NewAvailability(nil), Sync: syncer, Log: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestConsoleCatalogShowsHowCurrentEachDatasetIs: the console's catalog
// page shows what GET /catalog says of each dataset's source, coverage,
// last sync and lag.
func TestConsoleCatalogShowsHowCurrentEachDatasetIs(t *testing.T) {
	s := syncedServer(t)
	rec := httptest.NewRecorder()
	s.catalogPage(rec, httptest.NewRequest(http.MethodGet, "/console/catalog", http.NoBody), nil, consoleUser{})
	page := rec.Body.String()
	for id, want := range map[dataset.ID]string{
		dataset.IndiaPrices:  `<code>quarry sync nse</code><br>holds 2025-06-18 to 2025-06-27<br><span class="hint">last sync 2025-06-28 12:00 UTC</span><br><span class="hint">24h0m0s behind</span>`,
		dataset.USFinancials: `<code>quarry sync edgar</code></td>`,
		dataset.ChinaPrices:  `<span class="hint">quarry ingest only</span></td>`,
	} {
		_, row, ok := strings.Cut(page, `<tr data-dataset="`+string(id)+`">`)
		row, _, _ = strings.Cut(row, "</tr>")
		if !ok || !strings.Contains(row, `<td class="freshness" data-label="Kept current by">`+want) {
			t.Errorf("%s's row:\n%s\nwant its freshness cell to start %s", id, row, want)
		}
	}
}

// validateCatalog checks the answer against the OpenAPI document.
func validateCatalog(t *testing.T, req *http.Request, rec *httptest.ResponseRecorder) {
	t.Helper()
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /catalog: %d %s", rec.Code, rec.Body)
	}
	doc, err := openapi.Load()
	if err != nil {
		t.Fatal(err)
	}
	rt, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	req.URL.Scheme, req.URL.Host = "http", "localhost:8080"
	route, params, err := rt.FindRoute(req)
	if err != nil {
		t.Fatal(err)
	}
	err = openapi3filter.ValidateResponse(t.Context(), &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
		Status:                 rec.Code, Header: rec.Header(), Body: io.NopCloser(bytes.NewReader(rec.Body.Bytes())),
	})
	if err != nil {
		t.Fatalf("the catalog does not match the OpenAPI document: %v", err)
	}
}
