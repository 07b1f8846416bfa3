package http

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/julienschmidt/httprouter"
)

// FuzzMCPArguments feeds any bytes as the arguments of any tool: building
// the route's request either refuses them with a 400 or 422, or makes a
// request of the route's method whose path the route matches, each path
// argument read back as given, and whose body, for an operation with one,
// is a JSON object.
func FuzzMCPArguments(f *testing.F) {
	ops, err := mcpTools()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, args []byte, tool uint8) {
		op := ops[int(tool)%len(ops)]
		req, err := op.request(context.Background(), args)
		if err != nil {
			if code, _ := status(err); code != http.StatusBadRequest && code != http.StatusUnprocessableEntity {
				t.Fatalf("%s: refused with %d: %v", op.route.OperationID, code, err)
			}
			return
		}
		if req.Method != op.route.Method {
			t.Fatalf("%s: method %s", op.route.OperationID, req.Method)
		}
		checkPath(t, op, req, args)
		if op.hasBody {
			var body map[string]any
			if err := json.NewDecoder(req.Body).Decode(&body); err != nil {
				t.Fatalf("%s: body is not a JSON object: %v", op.route.OperationID, err)
			}
		}
	})
}

// checkPath holds the request's path to the route and its path arguments
// to the arguments given.
func checkPath(t *testing.T, op mcpOperation, req *http.Request, raw []byte) {
	t.Helper()
	router := httprouter.New()
	router.Handle(op.route.Method, routerPath(op.route.Path), func(http.ResponseWriter, *http.Request, httprouter.Params) {})
	h, params, _ := router.Lookup(op.route.Method, req.URL.Path)
	if h == nil {
		t.Fatalf("%s: path %q does not match %s", op.route.OperationID, req.URL.Path, op.route.Path)
	}
	args, _ := mcpArguments(raw)
	for _, p := range params {
		want, _, _ := paramText(p.Key, args[p.Key])
		if p.Value != want {
			t.Fatalf("%s: path argument %s = %q, want %q", op.route.OperationID, p.Key, p.Value, want)
		}
	}
}
