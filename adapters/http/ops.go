package http

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/julienschmidt/httprouter"

	"github.com/quarrydata/quarry/adapters/http/openapi"
	"github.com/quarrydata/quarry/app/sourcesync"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/ports"
)

func (s *Server) routeOps() {
	s.handle(http.MethodGet, "/healthz", func(w http.ResponseWriter, _ *http.Request, _ httprouter.Params) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	s.handle(http.MethodGet, "/readyz", s.readyz)
	s.handle(http.MethodGet, "/openapi.json", func(w http.ResponseWriter, _ *http.Request, _ httprouter.Params) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(openapi.Document)
	})
	s.handle(http.MethodGet, "/catalog", s.catalog)
}

type readiness struct {
	Status string            `json:"status"`
	Checks map[string]string `json:"checks"`
	// Messages says, for a check that is not_migrated, what the operator
	// runs; it is left out when no check needs one.
	Messages map[string]string `json:"messages,omitempty"`
	Storage  Storage           `json:"storage"`
}

// Storage names the backend of each kind of store, for /readyz and
// /catalog to say which backend serves what.
type Storage struct {
	// Platform is memory, postgresql or sqlite.
	Platform string `json:"platform"`
	// Documents is memory, mongodb or ferretdb-embedded.
	Documents string `json:"documents"`
	// Search is memory or disk.
	Search string `json:"search"`
}

// inMemory is the Storage of a service given none: everything in memory.
var inMemory = Storage{Platform: "memory", Documents: "memory", Search: "memory"}

// storage is the Storage the service was given, or inMemory.
func (s *Server) storage() Storage {
	if s.d.Storage == (Storage{}) {
		return inMemory
	}
	return s.d.Storage
}

func (s *Server) readyz(w http.ResponseWriter, r *http.Request, _ httprouter.Params) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	out := readiness{Status: "ready", Checks: map[string]string{}, Storage: s.storage()}
	code := http.StatusOK
	for _, c := range s.d.Readiness {
		out.Checks[c.Name] = "ok"
		err := c.Check(ctx)
		if err == nil {
			continue
		}
		out.Checks[c.Name] = "failing"
		out.Status, code = "unavailable", http.StatusServiceUnavailable
		if errors.Is(err, ports.ErrNotMigrated) {
			// The check's message is the operator's remedy, written for a
			// reader of /readyz; a failing store's driver error is not.
			out.Checks[c.Name] = "not_migrated"
			if out.Messages == nil {
				out.Messages = map[string]string{}
			}
			out.Messages[c.Name] = c.Name + ": " + err.Error()
		}
	}
	writeJSON(w, code, out)
}

type catalogResponse struct {
	Version  string          `json:"version"`
	Storage  Storage         `json:"storage"`
	Datasets []catalogEntry  `json:"datasets"`
	Costs    []costTableItem `json:"costs"`
}

type catalogEntry struct {
	Dataset      string          `json:"dataset"`
	Title        string          `json:"title"`
	Jurisdiction string          `json:"jurisdiction"`
	Availability string          `json:"availability"`
	Reason       *string         `json:"reason"`
	Licence      dataset.Licence `json:"licence"`
	Routes       []catalogRoute  `json:"routes"`
	// Source names the source that keeps the dataset current; it and the
	// fields after it are null for a dataset no source fills.
	Source *string `json:"source"`
	// Coverage is the first and last day the source holds, null when it
	// holds none.
	Coverage *catalogCoverage `json:"coverage"`
	// LastSync is when a run of the source last finished without an error.
	LastSync *time.Time `json:"last_sync"`
	// LagSeconds is how long the first day the source does not hold has
	// been due: 0 when it holds every day due. Null when it holds none or
	// is not configured.
	LagSeconds *int64 `json:"lag_seconds"`
}

// Lag says, for the console, how far the dataset's source is behind:
// "current", "24h0m0s behind", or nothing when LagSeconds is null.
func (e catalogEntry) Lag() string {
	switch {
	case e.LagSeconds == nil:
		return ""
	case *e.LagSeconds == 0:
		return "current"
	}
	return (time.Duration(*e.LagSeconds) * time.Second).String() + " behind"
}

// catalogCoverage is the range of days a source holds, YYYY-MM-DD.
type catalogCoverage struct {
	First string `json:"first"`
	Last  string `json:"last"`
}

type catalogRoute struct {
	Method      string   `json:"method"`
	Path        string   `json:"path"`
	OperationID string   `json:"operation_id"`
	Cost        int64    `json:"cost"`
	Permissions []string `json:"permissions"`
}

type costTableItem struct {
	Request string `json:"request"`
	Credits int64  `json:"credits"`
}

var costTable = []costTableItem{
	{"Any standard read (prices, securities, filings, financials)", dataset.CostStandardRead},
	{"POST /us/search, POST /india/search", dataset.CostSearch},
	{"POST /ask", dataset.CostAsk},
	{"GET /india/prices.csv", dataset.CostPricesCSV},
	{"POST /india/exports", dataset.CostExport},
	{"GET /catalog", 0},
}

func (s *Server) catalog(w http.ResponseWriter, r *http.Request, _ httprouter.Params) {
	out, err := s.catalogEntries(r.Context())
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, catalogResponse{Version: dataset.Version, Storage: s.storage(), Datasets: out, Costs: costTable})
}

// catalogEntries is every dataset of the catalog with its status and, for
// one a source fills, that source's coverage, last sync and lag.
func (s *Server) catalogEntries(ctx context.Context) ([]catalogEntry, error) {
	var synced map[dataset.ID]sourcesync.Status
	if s.d.Sync != nil {
		var err error
		if synced, err = s.d.Sync.ByDataset(ctx); err != nil {
			return nil, err
		}
	}
	var out []catalogEntry
	for _, ds := range dataset.Catalog() {
		st, err := s.d.Availability.Status(ctx, ds.ID)
		if err != nil {
			return nil, err
		}
		e := catalogEntry{
			Dataset: string(ds.ID), Title: ds.Title, Jurisdiction: ds.Jurisdiction,
			Availability: string(st.Availability), Reason: optional(string(st.Reason)),
			Licence: ds.Licence, Routes: catalogRoutes(ds.Routes),
		}
		if src, ok := synced[ds.ID]; ok {
			e.withSync(src)
		}
		out = append(out, e)
	}
	return out, nil
}

// withSync sets the entry's source fields from its source's status.
func (e *catalogEntry) withSync(src sourcesync.Status) {
	e.Source = &src.Source
	st := src.State
	if held := st.LastHeld(); held != "" {
		e.Coverage = &catalogCoverage{First: st.First, Last: held}
	}
	if !st.LastSuccess.IsZero() {
		at := st.LastSuccess.UTC()
		e.LastSync = &at
	}
	if src.Configured && st.First != "" {
		lag := int64(src.Lag / time.Second)
		e.LagSeconds = &lag
	}
}

func catalogRoutes(rs []dataset.Route) []catalogRoute {
	out := make([]catalogRoute, len(rs))
	for i, rt := range rs {
		perms := make([]string, len(rt.Permissions))
		for j, p := range rt.Permissions {
			perms[j] = string(p)
		}
		out[i] = catalogRoute{Method: rt.Method, Path: rt.Path, OperationID: rt.OperationID, Cost: rt.Cost, Permissions: perms}
	}
	return out
}
