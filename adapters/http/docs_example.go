package http

import (
	"bytes"
	"encoding/json"
	"fmt"
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
// of its success response.
func example(method string, op *openapi3.Operation, credential string) *refExample {
	var req struct {
		Target  string            `json:"target"`
		Headers map[string]string `json:"headers"`
	}
	raw, ok := op.Extensions["x-example-request"]
	if !ok || remarshal(raw, &req) != nil {
		return nil
	}
	ex := &refExample{}
	var body []byte
	if b := op.RequestBody; b != nil && b.Value != nil {
		if mt := b.Value.Content.Get("application/json"); mt != nil && mt.Example != nil {
			body, _ = json.Marshal(mt.Example)
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
				ex.Status, ex.MediaType, ex.Response = status, name, shown(mt.Example)
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

// shown is an answer as the page shows it: text as it is, JSON indented.
func shown(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // the page escapes it
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
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
