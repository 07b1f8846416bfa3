// Package http is Quarry's inbound HTTP adapter: the routes of the
// interface, the metered pipeline every data route runs through, and the one
// mapping from errors to statuses.
package http

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/julienschmidt/httprouter"
	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/app/sourcesync"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/dataset"
)

// Readiness is one named dependency check behind GET /readyz.
type Readiness struct {
	Name  string
	Check func(ctx context.Context) error
}

// Deps are the use cases and settings the server needs. It is an fx
// parameter object: data handlers and readiness checks arrive as value
// groups, so a new dataset adds its handlers without editing a central list.
// Outside fx it is filled in by hand.
type Deps struct {
	fx.In
	Accounts     *platform.Accounts
	Keys         *platform.Keys
	Credits      *platform.Credits
	Metering     *platform.Metering
	Idempotency  *platform.Idempotency
	Limiter      *platform.RateLimiter
	Availability *usecase.Availability
	// Sync, when set, gives the catalog each synced dataset's coverage,
	// last sync and lag.
	Sync      *sourcesync.Syncer `optional:"true"`
	Clock     usecase.Clock      `optional:"true"`
	Handlers  []DataHandler      `group:"handlers"`
	Readiness []Readiness        `group:"readiness"`
	Storage   Storage            `optional:"true"`
	// StoreTimeout bounds the store calls of account routes and of a data
	// request's checks; unset, platform.DefaultStoreTimeout.
	StoreTimeout StoreTimeout `optional:"true"`
	Log          *zap.Logger
}

// StoreTimeout is how long a request waits for a store that does not
// answer before it is refused with 503 store_unavailable
// (QUARRY_STORE_TIMEOUT).
type StoreTimeout time.Duration

// Server routes requests to the use cases.
type Server struct {
	d       Deps
	log     *zap.Logger
	metrics *metrics
	router  *httprouter.Router
	meter   *platform.Meter
	// data are the data routes by method and path ("GET /india/prices"),
	// for the MCP tools to call.
	data map[string]meteredRoute
}

// NewServer builds the router with every route of the interface. A data
// route without a handler is registered anyway and answers 503 until its
// dataset is activated. A handler for a method and path the catalog does not
// list is a wiring mistake, refused here so that start-up fails on it.
func NewServer(d Deps) (*Server, error) {
	if err := checkHandlers(d.Handlers); err != nil {
		return nil, err
	}
	if _, err := docsPage(); err != nil {
		return nil, err
	}
	s := &Server{d: d, log: d.Log, metrics: newMetrics(), router: httprouter.New(), data: map[string]meteredRoute{}}
	s.meter = platform.NewMeter(platform.MeterDeps{Metering: d.Metering, Idempotency: d.Idempotency, Limiter: d.Limiter,
		Availability: d.Availability, StoreTimeout: s.storeTimeout(), Report: s.incident})
	s.router.HandleMethodNotAllowed = true
	// A path is matched as sent: one that merely cleans to a route (a
	// trailing slash, "//", "..", another case) is 404, never redirected
	// into a route the client did not name.
	s.router.RedirectTrailingSlash = false
	s.router.RedirectFixedPath = false
	s.router.NotFound = s.observe("unmatched", func(w http.ResponseWriter, r *http.Request) { writeError(w, r, errRouteNotFound) })
	s.router.MethodNotAllowed = s.observe("unmatched", func(w http.ResponseWriter, r *http.Request) { writeError(w, r, errMethodNotAllowed) })
	// The router answers OPTIONS itself, with the Allow header; through
	// observe like any other answer, so that it is logged, counted and
	// carries the same headers.
	s.router.GlobalOPTIONS = s.observe("unmatched", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	s.routeAccount()
	s.routeBrowserCredentials()
	s.routeConsole()
	s.routeFrontDoor()
	s.routeOps()
	s.routeData()
	if err := s.routeMCP(); err != nil {
		return nil, err
	}
	return s, nil
}

// checkHandlers refuses a data handler that no catalog route names, or two
// handlers for one route.
func checkHandlers(handlers []DataHandler) error {
	listed := map[string]bool{}
	for _, ds := range dataset.Catalog() {
		for _, rt := range ds.Routes {
			listed[rt.Method+" "+rt.Path] = true
		}
	}
	seen := map[string]bool{}
	for _, h := range handlers {
		route := h.Method + " " + h.Path
		switch {
		case !listed[route]:
			return fmt.Errorf("http: a data handler serves %s, which the catalog does not list", route)
		case seen[route]:
			return fmt.Errorf("http: two data handlers serve %s", route)
		}
		seen[route] = true
	}
	return nil
}

// now is the service's clock, the system's when none was given.
func (s *Server) now() time.Time {
	if s.d.Clock == nil {
		return usecase.SystemClock()
	}
	return s.d.Clock()
}

// ServeHTTP implements http.Handler. A request whose head carried both
// Transfer-Encoding and Content-Length is answered 400 and its connection
// closed (RFC 9112, section 6.3), whatever its route.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if ambiguousLength(r) {
		w.Header().Set("Connection", "close")
		s.observe("unmatched", func(w http.ResponseWriter, r *http.Request) { writeError(w, r, errAmbiguousLength) })(w, r)
		return
	}
	s.router.ServeHTTP(w, r)
}

// handle routes method and path, in its OpenAPI form, to h, refusing
// first a query parameter the route's operation does not take
// (strictQuery). A GET is answered for HEAD too, as GET without its body
// (Go's server drops what h writes, keeping a Content-Length it knows):
// these routes are free, so a HEAD costs what the GET does, nothing. The
// charged data routes are routed by routeData, and answer HEAD 405 with
// Allow: GET (spec-gaps B197).
func (s *Server) handle(method, path string, h func(http.ResponseWriter, *http.Request, httprouter.Params)) {
	s.handleAs(method, method, path, h)
	if method == http.MethodGet {
		s.handleAs(http.MethodHead, method, path, h)
	}
}

// handleAs routes method and path to h, checking the query as the
// operation of operation and path takes it.
func (s *Server) handleAs(method, operation, path string, h func(http.ResponseWriter, *http.Request, httprouter.Params)) {
	route := operation + " " + path
	s.route(method, path, func(w http.ResponseWriter, r *http.Request, p httprouter.Params) {
		if err := strictQuery(route, r); err != nil {
			writeError(w, r, err)
			return
		}
		h(w, r, p)
	})
}

// route routes method and path, in its OpenAPI form, to h, observed.
func (s *Server) route(method, path string, h func(http.ResponseWriter, *http.Request, httprouter.Params)) {
	route := method + " " + path
	s.router.Handle(method, routerPath(path), func(w http.ResponseWriter, r *http.Request, p httprouter.Params) {
		s.observe(route, func(w http.ResponseWriter, r *http.Request) { h(w, r, p) })(w, r)
	})
}

func (s *Server) routeData() {
	handlers := map[string]DataHandler{}
	for _, h := range s.d.Handlers {
		handlers[h.Method+" "+h.Path] = h
	}
	for _, ds := range dataset.Catalog() {
		for _, rt := range ds.Routes {
			h, ok := handlers[rt.Method+" "+rt.Path]
			if !ok {
				h = DataHandler{Method: rt.Method, Path: rt.Path, Prepare: notActivated}
			}
			h.Prepare = strictPrepare(rt.Method+" "+rt.Path, h.Prepare)
			mr := meteredRoute{id: ds.ID, rt: rt, h: h}
			s.data[rt.Method+" "+rt.Path] = mr
			s.route(rt.Method, rt.Path, s.metered(mr))
		}
	}
}

// routerPath turns OpenAPI's "{name}" segments into httprouter's ":name".
func routerPath(path string) string {
	parts := strings.Split(path, "/")
	for i, p := range parts {
		if name, ok := strings.CutPrefix(p, "{"); ok && strings.HasSuffix(name, "}") {
			parts[i] = ":" + strings.TrimSuffix(name, "}")
		}
	}
	return strings.Join(parts, "/")
}
