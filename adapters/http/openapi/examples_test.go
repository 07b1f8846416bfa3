package openapi_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/quarrydata/quarry/adapters/http/openapi"
	"github.com/quarrydata/quarry/adapters/http/openapi/internal/assembly"
	"github.com/quarrydata/quarry/quarrytest"
)

var update = flag.Bool("update", false, "write each operation's served answer to examples/ and rebuild openapi.json")

// exampleTime is the clock of the server the examples are served by: a
// clock standing still makes the times a request stamps (a session's
// expiry, a key's creation, as_of) the same on every run, and a moment
// after every bundled sample makes all of the sample known.
var exampleTime = time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC)

// TestExamples replays every operation's example request, in document
// order, against one server on the bundled sample, and fails when an
// operation has no example or the answer is not the example's: status,
// media type and body, but for the members that differ on every run
// (variesPerRun). With -update it writes the answers instead.
func TestExamples(t *testing.T) {
	doc, err := openapi.Load()
	if err != nil {
		t.Fatal(err)
	}
	srv := quarrytest.Start(t, quarrytest.WithClock(func() time.Time { return exampleTime }))
	r := replay{srv: srv, doc: doc, minted: map[string]string{}}
	for _, op := range documentOrder(t, openapi.Document, doc) {
		ex, err := exampleOf(op)
		if err != nil {
			t.Errorf("%s: %v", op.OperationID, err)
			continue
		}
		sent := ex
		sent.Request.Target, sent.Body = r.substitute(ex.Request.Target), json.RawMessage(r.substitute(string(ex.Body)))
		got, err := r.send(op, sent)
		if err != nil {
			t.Fatalf("%s: %v", op.OperationID, err)
		}
		if partialAnswers[op.OperationID] {
			got.Response = trimTo(ex.Response, got.Response)
		}
		diff := r.compare(ex, got) // under -update too: it maps the file's minted values to this run's
		if *update && got.Status/100 != 2 {
			t.Errorf("%s %s answered %d: %s", op.Method, sent.Request.Target, got.Status, got.Response)
		}
		if *update {
			writeExample(t, op.OperationID, r.keep(ex, got))
			continue
		}
		if diff != "" {
			t.Errorf("%s %s: the served answer differs from the document's example (run with -update to take the answer): %s", op.Method, ex.Request.Target, diff)
		}
	}
	if *update {
		rebuild(t)
	}
}

// operation is one operation of the document, where it is.
type operation struct {
	*openapi3.Operation
	Method, Path string
}

// exampleOf reads op's example: under -update from its file in examples/
// (the request an author wrote), else from the document.
func exampleOf(op operation) (assembly.Example, error) {
	if *update {
		return assembly.ReadExample(os.DirFS("examples"), op.OperationID)
	}
	return documentExample(op.Operation)
}

// documentExample reads op's example back from the document.
func documentExample(op *openapi3.Operation) (assembly.Example, error) {
	var ex assembly.Example
	raw, ok := op.Extensions[assembly.RequestExtension]
	if !ok {
		return ex, fmt.Errorf("no %s: write examples/%s with its request and run this test with -update", assembly.RequestExtension, assembly.ExampleName(op.OperationID))
	}
	if err := remarshal(raw, &ex.Request); err != nil {
		return ex, err
	}
	if b := op.RequestBody; b != nil && b.Value != nil {
		if mt := b.Value.Content.Get("application/json"); mt != nil && mt.Example != nil {
			ex.Body, _ = json.Marshal(mt.Example)
		}
	}
	for status, resp := range op.Responses.Map() {
		if !strings.HasPrefix(status, "2") || resp.Value == nil {
			continue
		}
		for name, mt := range resp.Value.Content {
			if mt.Example != nil {
				ex.MediaType = name
				fmt.Sscan(status, &ex.Status)
				ex.Response, _ = json.Marshal(mt.Example)
			}
		}
	}
	if ex.Status == 0 {
		return ex, fmt.Errorf("no success response has an example")
	}
	return ex, nil
}

func remarshal(from, to any) error {
	b, err := json.Marshal(from)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, to)
}

// replay sends examples to srv in turn, remembering the values the server
// minted for the examples' own (minted) so that a later request names what
// this run made: the key revoked is the key this run created.
type replay struct {
	srv    *quarrytest.Server
	doc    *openapi3.T
	minted map[string]string
}

func (r *replay) substitute(s string) string {
	for _, was := range r.longestFirst() {
		s = strings.ReplaceAll(s, was, r.minted[was])
	}
	return s
}

// longestFirst lists the minted values longest first, so that a key is
// replaced whole before its prefix is.
func (r *replay) longestFirst() []string {
	vals := slices.Collect(maps.Keys(r.minted))
	slices.SortFunc(vals, func(a, b string) int { return cmp.Or(len(b)-len(a), strings.Compare(a, b)) })
	return vals
}

// keep is the answer got as -update writes it for the example ex: with
// ex's request, and ex's values of the members minted anew, so that an
// update changes only what the service now answers otherwise.
func (r *replay) keep(ex, got assembly.Example) assembly.Example {
	got.Request, got.Body = ex.Request, ex.Body
	text := string(got.Response)
	for _, was := range r.longestFirst() {
		text = strings.ReplaceAll(text, r.minted[was], was)
	}
	got.Response = json.RawMessage(text)
	return got
}

// partialAnswers are the operations whose example shows only some members
// of the answer, and is compared on those: the document's own route, whose
// answer would have to hold itself.
var partialAnswers = map[string]bool{"get_openapi_document": true}

// trimTo returns got without the object members want lacks, at every
// depth; either not being JSON, got as it is.
func trimTo(want, got json.RawMessage) json.RawMessage {
	var w, g any
	if json.Unmarshal(want, &w) != nil || json.Unmarshal(got, &g) != nil {
		return got
	}
	out, err := json.Marshal(trimValue(w, g))
	if err != nil {
		return got
	}
	return out
}

func trimValue(want, got any) any {
	w, wok := want.(map[string]any)
	g, gok := got.(map[string]any)
	if !wok || !gok {
		return got
	}
	out := map[string]any{}
	for k, wv := range w {
		if gv, ok := g[k]; ok {
			out[k] = trimValue(wv, gv)
		}
	}
	return out
}

// send makes ex's request with the credentials op takes and returns the
// answer as an example.
func (r *replay) send(op operation, ex assembly.Example) (assembly.Example, error) {
	var body io.Reader
	if len(ex.Body) > 0 {
		body = bytes.NewReader(ex.Body)
	}
	req, err := http.NewRequest(op.Method, r.srv.URL+ex.Request.Target, body)
	if err != nil {
		return ex, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range ex.Request.Headers {
		req.Header.Set(k, v)
	}
	if err := r.authenticate(req, op.Operation); err != nil {
		return ex, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return ex, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return ex, err
	}
	got := assembly.Example{Request: ex.Request, Body: ex.Body, Status: resp.StatusCode}
	got.MediaType, _, _ = mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if got.Response, err = asJSON(got.MediaType, b); err != nil {
		return ex, fmt.Errorf("%d %s: %w", resp.StatusCode, b, err)
	}
	return got, nil
}

// authenticate adds the credential of op's first security alternative.
func (r *replay) authenticate(req *http.Request, op *openapi3.Operation) error {
	reqs := r.doc.Security
	if op.Security != nil {
		reqs = *op.Security
	}
	if len(reqs) == 0 || len(reqs[0]) == 0 {
		return nil
	}
	for scheme := range reqs[0] {
		switch scheme {
		case "ApiKeyAuth":
			req.Header.Set("X-API-KEY", r.srv.APIKey)
		case "ApiKeyBearer":
			req.Header.Set("Authorization", "Bearer "+r.srv.APIKey)
		case "SessionAuth":
			req.Header.Set("Authorization", "Bearer "+r.srv.SessionToken)
		default:
			return fmt.Errorf("no credential for the scheme %s", scheme)
		}
	}
	return nil
}

// asJSON gives a body as an example holds it: JSON as it is, re-indented
// by the assembly, other text as a JSON string, and a binary file (PDF,
// XLSX, Parquet) as a string of its size and SHA-256, which a document
// cannot show otherwise but still pins to the byte.
func asJSON(mediaType string, b []byte) (json.RawMessage, error) {
	switch {
	case mediaType == "application/json":
		var compact bytes.Buffer
		err := json.Compact(&compact, b)
		return compact.Bytes(), err
	case !strings.HasPrefix(mediaType, "text/"):
		return json.Marshal(fmt.Sprintf("(%d bytes of %s)", len(b), mediaType))
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	err := enc.Encode(string(b))
	return bytes.TrimSuffix(out.Bytes(), []byte("\n")), err
}

// variesPerRun names the members whose values differ on every run even
// with the clock standing still: what the server mints at random (ids,
// secrets and a key's prefix) and the request's own id. Both sides being
// strings is all that is compared of them, and an example's value is
// mapped to this run's for later requests. Times and credit balances are
// not among them: the clock stands still and the replay is the same
// sequence of requests on a new account every run, so they are compared.
var variesPerRun = map[string]bool{
	"request_id": true, "entry_id": true, "session_token": true,
	"key_id": true, "api_key": true, "key_prefix": true, "credential_id": true,
}

// compare returns what differs between the example want and the answer
// got, "" for nothing.
func (r *replay) compare(want, got assembly.Example) string {
	if want.Status != got.Status || want.MediaType != got.MediaType {
		return fmt.Sprintf("%d %s, the example says %d %s", got.Status, got.MediaType, want.Status, want.MediaType)
	}
	var w, g any
	if err := json.Unmarshal(want.Response, &w); err != nil {
		return err.Error()
	}
	if err := json.Unmarshal(got.Response, &g); err != nil {
		return err.Error()
	}
	r.normalise(w, g)
	if reflect.DeepEqual(w, g) {
		return ""
	}
	return firstDifference(w, g)
}

// normalise blanks, in want and got alike, the members variesPerRun names,
// recording got's value for want's.
func (r *replay) normalise(want, got any) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return
		}
		for k, wv := range w {
			gv, both := g[k]
			if !both {
				continue
			}
			ws, wok := wv.(string)
			gs, gok := gv.(string)
			if variesPerRun[k] && wok && gok {
				if ws != "" && gs != "" {
					r.minted[ws] = gs
				}
				w[k], g[k] = "(varies)", "(varies)"
				continue
			}
			r.normalise(wv, gv)
		}
	case []any:
		g, ok := got.([]any)
		for i := 0; ok && i < min(len(w), len(g)); i++ {
			r.normalise(w[i], g[i])
		}
	}
}

// firstDifference shows want and got from the first line where their
// indented JSON differs.
func firstDifference(want, got any) string {
	wb, _ := json.MarshalIndent(want, "", "  ")
	gb, _ := json.MarshalIndent(got, "", "  ")
	wl, gl := strings.Split(string(wb), "\n"), strings.Split(string(gb), "\n")
	for i := 0; i < min(len(wl), len(gl)); i++ {
		if wl[i] != gl[i] {
			return fmt.Sprintf("at line %d the example has %s, the answer %s", i+1, strings.TrimSpace(wl[i]), strings.TrimSpace(gl[i]))
		}
	}
	return fmt.Sprintf("the example has %d lines, the answer %d", len(wl), len(gl))
}

// writeExample writes ex as examples/<id>.json.
func writeExample(t *testing.T, id string, ex assembly.Example) {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(ex); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("examples", assembly.ExampleName(id)), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// rebuild writes openapi.json from the parts and the examples just
// written, as `go generate` does.
func rebuild(t *testing.T) {
	t.Helper()
	doc, err := assembly.Build(os.DirFS("parts"), os.DirFS("examples"), assembly.CatalogIDs())
	if err == nil {
		err = os.WriteFile("openapi.json", doc, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Log("examples/ and openapi.json written; run again without -update to check them")
}

// documentOrder lists doc's operations in the order raw, its bytes, has
// them: path by path, each path's methods as written.
func documentOrder(t *testing.T, raw []byte, doc *openapi3.T) []operation {
	t.Helper()
	var top struct {
		Paths orderedKeys `json:"paths"`
	}
	if err := json.Unmarshal(raw, &top); err != nil {
		t.Fatal(err)
	}
	var ops []operation
	for _, path := range top.Paths.keys {
		var methods orderedKeys
		if err := json.Unmarshal(top.Paths.values[path], &methods); err != nil {
			t.Fatal(err)
		}
		item := doc.Paths.Value(path)
		for _, m := range methods.keys {
			if op := item.GetOperation(strings.ToUpper(m)); op != nil {
				ops = append(ops, operation{Operation: op, Method: strings.ToUpper(m), Path: path})
			}
		}
	}
	return ops
}

// orderedKeys is a JSON object's member names in the order written, with
// their values.
type orderedKeys struct {
	keys   []string
	values map[string]json.RawMessage
}

func (o *orderedKeys) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		return err
	}
	o.values = map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		o.keys, o.values[key] = append(o.keys, key), v
	}
	return nil
}
