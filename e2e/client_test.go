package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/quarrydata/quarry/adapters/http/openapi"
)

var (
	specOnce   sync.Once
	specRouter routers.Router
	specErr    error
)

// router parses the OpenAPI document once for the package.
func router(t *testing.T) routers.Router {
	t.Helper()
	specOnce.Do(func() {
		var doc *openapi3.T
		doc, specErr = openapi.Load()
		if specErr == nil {
			specRouter, specErr = gorillamux.NewRouter(doc)
		}
	})
	if specErr != nil {
		t.Fatalf("load OpenAPI document: %v", specErr)
	}
	return specRouter
}

// client sends requests to one running app and validates every response
// against the OpenAPI document: a mismatch fails the test.
type client struct {
	t    *testing.T
	base string
	http *http.Client
}

// response is a read and validated response.
type response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into v.
func (r response) JSON(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %s: %v", r.Body, err)
	}
}

// header describes one request header.
type header struct{ name, value string }

func apiKey(k string) header { return header{"X-API-KEY", k} }
func bearer(t string) header { return header{"Authorization", "Bearer " + t} }

func (c *client) do(method, path string, body any, headers ...header) response {
	c.t.Helper()
	var raw []byte
	switch b := body.(type) {
	case nil:
	case []byte:
		raw = b
	default:
		var err error
		if raw, err = json.Marshal(b); err != nil {
			c.t.Fatal(err)
		}
	}
	req, err := http.NewRequest(method, c.base+path, bytes.NewReader(raw))
	if err != nil {
		c.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for _, h := range headers {
		req.Header.Set(h.name, h.value)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	req.Body = io.NopCloser(bytes.NewReader(raw))
	if err := c.validate(req, resp, out); err != nil {
		c.t.Errorf("%s %s -> %d does not match the OpenAPI document: %v\nbody: %s", method, path, resp.StatusCode, err, truncate(out))
	}
	return response{Status: resp.StatusCode, Header: resp.Header, Body: out}
}

func (c *client) validate(req *http.Request, resp *http.Response, body []byte) error {
	route, params, err := router(c.t).FindRoute(req)
	if err != nil {
		return err
	}
	in := &openapi3filter.RequestValidationInput{
		Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
	}
	return openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 resp.StatusCode,
		Header:                 resp.Header,
		Body:                   io.NopCloser(bytes.NewReader(body)),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true},
	})
}

func truncate(b []byte) string {
	s := string(b)
	if len(s) > 600 {
		return s[:600] + "..."
	}
	return strings.TrimSpace(s)
}

// expect fails the test unless the response has the status.
func (r response) expect(t *testing.T, status int) response {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d; body %s", r.Status, status, truncate(r.Body))
	}
	return r
}
