package http

import (
	"context"
	"net/http"
	"time"

	"github.com/julienschmidt/httprouter"

	"github.com/quarrydata/quarry/adapters/http/openapi"
	"github.com/quarrydata/quarry/domain/dataset"
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
	Status  string            `json:"status"`
	Checks  map[string]string `json:"checks"`
	Storage Storage           `json:"storage"`
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
		if err := c.Check(ctx); err != nil {
			out.Checks[c.Name] = "failing"
			out.Status, code = "unavailable", http.StatusServiceUnavailable
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
	var out []catalogEntry
	for _, ds := range dataset.Catalog() {
		st, err := s.d.Availability.Status(r.Context(), ds.ID)
		if err != nil {
			writeError(w, r, err)
			return
		}
		out = append(out, catalogEntry{
			Dataset: string(ds.ID), Title: ds.Title, Jurisdiction: ds.Jurisdiction,
			Availability: string(st.Availability), Reason: optional(string(st.Reason)),
			Licence: ds.Licence, Routes: catalogRoutes(ds.Routes),
		})
	}
	writeJSON(w, http.StatusOK, catalogResponse{Version: dataset.Version, Storage: s.storage(), Datasets: out, Costs: costTable})
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
