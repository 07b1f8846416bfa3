package assembly

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/quarrydata/quarry/domain/dataset"
)

// Example is one operation's example, as examples/<operationId>.json
// holds it: the request a client sends and what the server answered to it
// on the bundled sample. A check replays it against the served sample, so
// the document's examples stay what the service does.
type Example struct {
	// Request is the request but its body and credentials.
	Request Request `json:"request"`
	// Body is the JSON request body, absent for none.
	Body json.RawMessage `json:"body,omitempty"`
	// Status is the success status answered.
	Status int `json:"status"`
	// MediaType is the response's media type, without parameters.
	MediaType string `json:"media_type"`
	// Response is the body answered: JSON for a JSON media type, else a
	// JSON string of the text.
	Response json.RawMessage `json:"response"`
}

// Request is an example's request line and headers.
type Request struct {
	// Target is the request target: the path, and the query where there is
	// one, as sent.
	Target string `json:"target"`
	// Headers are the headers the operation needs beyond its credentials
	// and Content-Type, absent for none.
	Headers map[string]string `json:"headers,omitempty"`
}

// ExampleName is the file name of the example of operation id.
func ExampleName(operationID string) string { return operationID + ".json" }

// RequestExtension is the operation member that holds an example's
// Request: OpenAPI 3.0 has no place for an operation's example request
// beyond its body, and the parameters are shared components, of which an
// operation cannot give an example of its own.
const RequestExtension = "x-example-request"

// ReadExample reads the example of operation id from examples; a missing
// file is fs.ErrNotExist.
func ReadExample(examples fs.FS, operationID string) (Example, error) {
	var ex Example
	b, err := fs.ReadFile(examples, ExampleName(operationID))
	if err != nil {
		return ex, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ex); err != nil {
		return ex, fmt.Errorf("%s: %w", ExampleName(operationID), err)
	}
	return ex, nil
}

// Build assembles the document from parts, as Assemble does, and places
// the examples in it, as PlaceExamples does: what openapi.json holds.
func Build(parts, examples fs.FS, ids []dataset.ID) ([]byte, error) {
	doc, err := Assemble(parts, ids)
	if err != nil {
		return nil, err
	}
	return PlaceExamples(doc, examples)
}

// PlaceExamples writes into doc, an assembled document, each operation's
// example from examples: the request as RequestExtension, the body as the
// request body's example, the response as the example of the success
// response's media type. Everything else is kept byte for byte. An example
// for no operation, or one whose status or media type the operation does
// not document inline, is an error.
func PlaceExamples(doc []byte, examples fs.FS) ([]byte, error) {
	top, err := parseObject(doc, func(key string) int {
		if key == "paths" {
			return 1 // by path
		}
		return 0
	})
	if err != nil {
		return nil, err
	}
	placed, err := placeAll(top, examples)
	if err != nil {
		return nil, err
	}
	if err := refuseStrays(examples, placed, "example %s is of no operation"); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := top.write(&out, 0); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// placeAll places the example of each operation that has one, returning
// the file names used. Only those operations are parsed, so the others
// keep their layout.
func placeAll(top object, examples fs.FS) ([]string, error) {
	var placed []string
	for _, paths := range top {
		if paths.key != "paths" {
			continue
		}
		for j := range paths.inner {
			item := &paths.inner[j]
			if !hasExample(item.raw, examples) {
				continue
			}
			inner, err := parseObject(item.raw, func(string) int { return 0 })
			if err != nil {
				return nil, fmt.Errorf("%s: %w", item.key, err)
			}
			item.inner, item.merged = inner, true
			for i := range item.inner {
				op := &item.inner[i]
				if !slices.Contains(httpMethods, op.key) {
					continue
				}
				name, err := placeIn(op, examples)
				if err != nil {
					return nil, fmt.Errorf("%s %s: %w", op.key, item.key, err)
				}
				if name != "" {
					placed = append(placed, name)
				}
			}
		}
	}
	return placed, nil
}

// hasExample reports whether an operation of the path item raw has an
// example in examples.
func hasExample(raw json.RawMessage, examples fs.FS) bool {
	var ops map[string]struct {
		OperationID string `json:"operationId"`
	}
	_ = json.Unmarshal(raw, &ops) // a path item's other members do not decode; the operations still do
	for method, op := range ops {
		if _, err := fs.Stat(examples, ExampleName(op.OperationID)); err == nil && slices.Contains(httpMethods, method) {
			return true
		}
	}
	return false
}

// httpMethods are the members of a path item that are operations.
var httpMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// placeIn places the example of op, if it has one, returning its file
// name, "" for none.
func placeIn(op *member, examples fs.FS) (string, error) {
	var head struct {
		OperationID string `json:"operationId"`
	}
	if err := json.Unmarshal(op.raw, &head); err != nil || head.OperationID == "" {
		return "", err
	}
	ex, err := ReadExample(examples, head.OperationID)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if op.inner, err = parseObject(op.raw, func(string) int { return 0 }); err != nil {
		return "", err
	}
	op.merged = true
	return ExampleName(head.OperationID), placeOne(&op.inner, ex)
}

// operationDepth is how deep an operation's members sit: top, paths, path,
// method.
const operationDepth = 4

func placeOne(op *object, ex Example) error {
	var req bytes.Buffer
	enc := json.NewEncoder(&req)
	enc.SetEscapeHTML(false) // a query's & stays readable
	if err := enc.Encode(ex.Request); err != nil {
		return err
	}
	op.set(RequestExtension, bytes.TrimSuffix(req.Bytes(), []byte("\n")))
	if len(ex.Body) > 0 {
		if err := op.setAt(operationDepth, ex.Body, "requestBody", "content", "application/json", "example"); err != nil {
			return fmt.Errorf("request body: %w", err)
		}
	}
	status := fmt.Sprint(ex.Status)
	if err := op.setAt(operationDepth, ex.Response, "responses", status, "content", ex.MediaType, "example"); err != nil {
		return fmt.Errorf("response %s %s: %w", status, ex.MediaType, err)
	}
	return nil
}

// set gives o's member key the value raw, appending it if o has none.
func (o *object) set(key string, raw json.RawMessage) {
	m := member{key: key, raw: raw}
	if i := slices.IndexFunc(*o, func(have member) bool { return have.key == key }); i >= 0 {
		(*o)[i] = m
		return
	}
	*o = append(*o, m)
}

// setAt sets the member at keys below o, whose members sit at depth,
// indenting raw to its place. Every object on the way must exist but the
// last key, which is set; each is parsed into members to reach the next.
func (o *object) setAt(depth int, raw json.RawMessage, keys ...string) error {
	if len(keys) == 1 {
		var b bytes.Buffer
		if err := json.Indent(&b, raw, strings.Repeat("  ", depth), "  "); err != nil {
			return err
		}
		o.set(keys[0], b.Bytes())
		return nil
	}
	i := slices.IndexFunc(*o, func(have member) bool { return have.key == keys[0] })
	if i < 0 {
		return fmt.Errorf("no %q", keys[0])
	}
	m := &(*o)[i]
	if !m.merged {
		inner, err := parseObject(m.raw, func(string) int { return 0 })
		if err != nil {
			return fmt.Errorf("%q: %w", keys[0], err)
		}
		if slices.ContainsFunc(inner, func(have member) bool { return have.key == "$ref" }) {
			return fmt.Errorf("%q is a reference; an example goes in an inline object", keys[0])
		}
		m.inner, m.merged = inner, true
	}
	return m.inner.setAt(depth+1, raw, keys[1:]...)
}
