package http

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/julienschmidt/httprouter"

	"github.com/quarrydata/quarry/adapters/http/openapi"
)

// queryNames are the query parameters each operation of the OpenAPI
// document declares, by "METHOD /path" as the document writes it, read
// once: a route the document does not describe (the console, /docs) is
// not in it and takes any.
var queryNames = sync.OnceValue(func() map[string][]string {
	doc, err := openapi.Load()
	if err != nil {
		panic("http: the embedded OpenAPI document does not load: " + err.Error())
	}
	return operationQueries(doc)
})

// operationQueries lists the query parameters of every operation of doc,
// the path's own parameters included, sorted.
func operationQueries(doc *openapi3.T) map[string][]string {
	out := map[string][]string{}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			names := []string{}
			for _, p := range append(slices.Clone(item.Parameters), op.Parameters...) {
				if p.Value != nil && p.Value.In == openapi3.ParameterInQuery {
					names = append(names, p.Value.Name)
				}
			}
			slices.Sort(names)
			out[method+" "+path] = slices.Compact(names)
		}
	}
	return out
}

// strictQuery refuses a request that names a query parameter its
// operation does not take, such as a misspelt `tickr` (400 naming each
// and the parameters the operation takes), or names one twice, before
// anything else is checked,
// so a request the client believes filtered is never answered unfiltered.
func strictQuery(route string, r *http.Request) error {
	names, ok := queryNames()[route]
	if !ok || r.URL.RawQuery == "" {
		return nil
	}
	var unknown []string
	query := r.URL.Query()
	for name := range query {
		if _, found := slices.BinarySearch(names, name); !found {
			unknown = append(unknown, name)
		}
	}
	switch slices.Sort(unknown); {
	case len(unknown) == 1:
		return invalid(unknownQuery(route, unknown[0], names))
	case len(unknown) > 1:
		return invalid(unknownQueries(unknown, names))
	}
	return repeatedQuery(query)
}

// unknownQueries is the message of several unknown query parameters,
// each named.
func unknownQueries(unknown, names []string) string {
	quoted := make([]string, len(unknown))
	for i, n := range unknown {
		quoted[i] = strconv.Quote(n)
	}
	takes := "none"
	if len(names) > 0 {
		takes = strings.Join(names, ", ")
	}
	return fmt.Sprintf("unknown query parameters %s: this operation takes %s", strings.Join(quoted, ", "), takes)
}

// repeatedQuery refuses a query parameter given more than once: every
// parameter of the API takes one value, and answering for one of two
// (`ticker=NVDA&ticker=AAPL`) would answer a question not asked.
func repeatedQuery(query url.Values) error {
	var names []string
	for name, values := range query {
		if len(values) > 1 {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	slices.Sort(names)
	return invalid(fmt.Sprintf("query parameter %q given %d times: each parameter takes one value", names[0], len(query[names[0]])))
}

// strictPrepare is prepare of a data route, refusing first a query
// parameter the route's operation does not take: at the pipeline's 400
// step, after the key, its permissions, the rate limit and the dataset's
// availability are checked, and before anything is charged.
func strictPrepare(route string, prepare Prepare) Prepare {
	return func(r *http.Request, p httprouter.Params) (Serve, error) {
		if err := strictQuery(route, r); err != nil {
			return nil, err
		}
		return prepare(r, p)
	}
}

// unknownQuery is the message of an unknown query parameter. Key creation
// takes no scopes: every self-serve key carries every permission, and a
// narrower credential is a browser credential's.
func unknownQuery(route, name string, names []string) string {
	if route == "POST /account/keys" && name == "scopes" {
		return `unknown query parameter "scopes": every self-serve key carries every permission; ` +
			"for a narrower, short-lived credential for a browser, use POST /account/browser-credentials"
	}
	if len(names) == 0 {
		return fmt.Sprintf("unknown query parameter %q: this operation takes none", name)
	}
	return fmt.Sprintf("unknown query parameter %q: this operation takes %s", name, strings.Join(names, ", "))
}
