package http

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
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
		req, given, err := op.request(context.Background(), args)
		if err != nil {
			if code, _ := status(err); code != http.StatusBadRequest && code != http.StatusUnprocessableEntity {
				t.Fatalf("%s: refused with %d: %v", op.route.OperationID, code, err)
			}
			return
		}
		if req.Method != op.route.Method {
			t.Fatalf("%s: method %s", op.route.OperationID, req.Method)
		}
		checkPath(t, op, req, given, args)
		if op.hasBody {
			var body map[string]any
			if err := json.NewDecoder(req.Body).Decode(&body); err != nil {
				t.Fatalf("%s: body is not a JSON object: %v", op.route.OperationID, err)
			}
		}
	})
}

// checkPath holds the request's path to the route, and its path
// arguments, as the router reads them, to the arguments given and to the
// parameters the call hands the route.
func checkPath(t *testing.T, op mcpOperation, req *http.Request, given httprouter.Params, raw []byte) {
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
		if p.Value != want || given.ByName(p.Key) != want {
			t.Fatalf("%s: path argument %s = %q, handed on as %q, want %q", op.route.OperationID, p.Key, p.Value, given.ByName(p.Key), want)
		}
	}
	if len(given) != len(params) {
		t.Fatalf("%s: %d path parameters handed on, the path has %d", op.route.OperationID, len(given), len(params))
	}
}

// FuzzMCPMessage feeds any bytes as the body of POST /mcp to the gate: a
// body that is a JSON array (a batch) is always refused, any refusal is a
// 400 or a 404 with a JSON-RPC code, and a message let through is one JSON
// object of a method the server serves (or none), encoded so that reading
// it again gives the same message.
func FuzzMCPMessage(f *testing.F) {
	f.Fuzz(func(t *testing.T, body []byte) {
		msg, out, err := readMCPMessage(httptest.NewRequest(http.MethodPost, mcpPath, bytes.NewReader(body)))
		batch := bytes.HasPrefix(bytes.TrimLeft(body, " \t\r\n"), []byte("["))
		if err != nil {
			if code, _ := status(err); (code != http.StatusBadRequest && code != http.StatusNotFound) || rpcCode(err) > -32600 || rpcCode(err) < -32700 {
				t.Fatalf("refused with %d (%d): %v", code, rpcCode(err), err)
			}
			if batch && !errors.Is(err, errMCPBatch) {
				t.Fatalf("a batch refused as %v", err)
			}
			return
		}
		if batch || (msg.Method != "" && !mcpServed[msg.Method]) || !json.Valid(out) || out[0] != '{' {
			t.Fatalf("let through %q as %q", body, out)
		}
		again, _, err := readMCPMessage(httptest.NewRequest(http.MethodPost, mcpPath, bytes.NewReader(out)))
		if err != nil || !reflect.DeepEqual(again, msg) {
			t.Fatalf("%q read again as %+v (%v), was %+v", out, again, err, msg)
		}
	})
}
