package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"slices"
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
	return validateResponse(router(c.t), req, resp.StatusCode, resp.Header, body)
}

// validateResponse checks a response against the document: a JSON body
// against its schema; any other body (CSV, PDF, XLSX, Parquet) by its
// status, its media type, which the document must list for that status,
// and its headers.
func validateResponse(rt routers.Router, req *http.Request, status int, h http.Header, body []byte) error {
	route, params, err := rt.FindRoute(req)
	if err != nil {
		return err
	}
	in := &openapi3filter.RequestValidationInput{
		Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
	}
	mediaType, _, _ := mime.ParseMediaType(h.Get("Content-Type"))
	binary := mediaType != "application/json"
	if binary {
		if err := documentedMediaType(route.Operation, status, mediaType); err != nil {
			return err
		}
	}
	return openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 status,
		Header:                 h,
		Body:                   io.NopCloser(bytes.NewReader(body)),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, ExcludeResponseBody: binary},
	})
}

// documentedMediaType fails unless the operation documents mediaType for
// the status.
func documentedMediaType(op *openapi3.Operation, status int, mediaType string) error {
	ref := op.Responses.Status(status)
	if ref == nil || ref.Value == nil {
		return fmt.Errorf("status %d is not documented", status)
	}
	if ref.Value.Content.Get(mediaType) == nil {
		return fmt.Errorf("status %d documents %v, not %q", status, slices.Sorted(maps.Keys(ref.Value.Content)), mediaType)
	}
	return nil
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
