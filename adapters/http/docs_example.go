package http

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// baseMarker stands in the drawn page for the base address a curl command
// is sent to; docs puts the address the page was asked at in its place, so
// the page is drawn once and still shows each reader's own address.
const baseMarker = "QUARRY-DOCS-BASE-ADDRESS"

// requestBase is the base address r reached the service at: its scheme
// and Host.
func requestBase(r *http.Request) string {
	return requestScheme(r) + "://" + r.Host
}

// credentialHeader is the header a curl command sends for op's first
// security alternative, with the shell variable holding the credential,
// "" for an operation that takes none.
func credentialHeader(doc *openapi3.T, op *openapi3.Operation) string {
	reqs := doc.Security
	if op.Security != nil {
		reqs = *op.Security
	}
	if len(reqs) == 0 || doc.Components == nil {
		return ""
	}
	for name := range reqs[0] {
		ref := doc.Components.SecuritySchemes[name]
		if ref == nil || ref.Value == nil {
			continue
		}
		s := ref.Value
		switch {
		case s.Type == "apiKey" && s.In == "header":
			return s.Name + ": $KEY"
		case s.Type == "http" && strings.Contains(strings.ToLower(s.BearerFormat), "session"):
			return "Authorization: Bearer $SESSION"
		case s.Type == "http":
			return "Authorization: Bearer $KEY"
		}
	}
	return ""
}

// example draws op's example, nil where it has none: the request from its
// x-example-request and request body example, the answer from the example
// of its success response. The bodies are taken from raw, op as the
// document writes it, so their members keep the order they were served in.
func example(raw json.RawMessage, method string, op *openapi3.Operation, credential string) *refExample {
	var req struct {
		Target  string            `json:"target"`
		Headers map[string]string `json:"headers"`
	}
	given, ok := op.Extensions["x-example-request"]
	if !ok || remarshal(given, &req) != nil {
		return nil
	}
	ex := &refExample{}
	var body []byte
	if b := op.RequestBody; b != nil && b.Value != nil {
		if mt := b.Value.Content.Get("application/json"); mt != nil && mt.Example != nil {
			body = asWritten(rawAt(raw, "requestBody", "content", "application/json", "example"), mt.Example, "")
		}
	}
	ex.Curl = curl(method, req.Target, credential, req.Headers, body)
	if op.Responses == nil {
		return ex
	}
	for _, status := range slices.SortedFunc(maps.Keys(op.Responses.Map()), byStatus) {
		r := op.Responses.Value(status)
		if !strings.HasPrefix(status, "2") || r == nil || r.Value == nil {
			continue
		}
		for name, mt := range r.Value.Content {
			if mt.Example != nil {
				written := rawAt(raw, "responses", status, "content", name, "example")
				ex.Status, ex.MediaType, ex.Response = status, name, shown(asWritten(written, mt.Example, "  "))
				return ex
			}
		}
	}
	return ex
}

func remarshal(from, to any) error {
	b, err := json.Marshal(from)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, to)
}

// asWritten is an example's JSON as the document writes it, compact or
// indented by indent; where raw does not hold it, v encoded.
func asWritten(written json.RawMessage, v any, indent string) []byte {
	if written == nil {
		written, _ = json.Marshal(v)
	}
	var b bytes.Buffer
	var err error
	if indent == "" {
		err = json.Compact(&b, written)
	} else {
		err = json.Indent(&b, written, "", indent)
	}
	if err != nil {
		return written
	}
	return b.Bytes()
}

// shown is an answer as the page shows it: text as it is, JSON indented.
func shown(b []byte) string {
	var s string
	if json.Unmarshal(b, &s) == nil {
		return s
	}
	return string(b)
}

// rawOperations are the operations of raw, a document, by path and
// method, as it writes them; nil where it cannot be read.
func rawOperations(raw []byte) map[string]map[string]json.RawMessage {
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	_ = json.Unmarshal(raw, &doc) // a path item's parameters do not decode; its operations still do
	return doc.Paths
}

// rawAt is the member of raw at keys, nil for none.
func rawAt(raw json.RawMessage, keys ...string) json.RawMessage {
	for _, k := range keys {
		var o map[string]json.RawMessage
		if json.Unmarshal(raw, &o) != nil {
			return nil
		}
		raw = o[k]
	}
	return raw
}

// curl writes the command, one option a line: the method where it is not
// GET, the credential, the other headers, the body.
func curl(method, target, credential string, headers map[string]string, body []byte) string {
	lines := []string{"curl"}
	if method != http.MethodGet {
		lines[0] += " -X " + method
	}
	lines[0] += " " + shellQuote(baseMarker+target)
	if credential != "" {
		lines = append(lines, `-H "`+credential+`"`)
	}
	for _, k := range slices.Sorted(maps.Keys(headers)) {
		lines = append(lines, "-H "+shellQuote(k+": "+headers[k]))
	}
	if body != nil {
		lines = append(lines, `-H "Content-Type: application/json"`, "-d "+shellQuote(string(body)))
	}
	return strings.Join(lines, " \\\n  ")
}

// shellQuote quotes s for a POSIX shell: in single quotes, each single
// quote closed, escaped and reopened.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
