package http

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/julienschmidt/httprouter"

	"github.com/quarrydata/quarry/adapters/http/openapi"
)

// DocsPath is the API reference for a person: the OpenAPI document drawn as
// one HTML page. Like the console it is not part of the API, so the
// document does not list it.
const DocsPath = "/docs"

// routeFrontDoor serves the base address, which sends a browser to the
// console, and the reference; HEAD is answered as GET, without the body
// (handle), so that a link checker or `curl -I` sees what a browser would.
func (s *Server) routeFrontDoor() {
	s.handle(http.MethodGet, "/", func(w http.ResponseWriter, r *http.Request, _ httprouter.Params) {
		consoleHeaders(w)
		http.Redirect(w, r, ConsolePath+"/", http.StatusSeeOther)
	})
	s.handle(http.MethodGet, DocsPath, s.docs)
}

// docsPage is the reference's HTML and its entity tag, drawn from the
// embedded document once per process: it cannot change while the binary
// runs.
var docsPage = sync.OnceValues(func() (docsBody, error) {
	doc, err := openapi.Load()
	if err != nil {
		return docsBody{}, err
	}
	page, err := renderReference(doc, openapi.Document)
	if err != nil {
		return docsBody{}, err
	}
	sum := sha256.Sum256(page)
	return docsBody{page: page, etag: `"` + base64.RawURLEncoding.EncodeToString(sum[:16]) + `"`}, nil
})

type docsBody struct {
	page []byte
	etag string
}

// docs serves the page. It holds no secret, so unlike the console's pages
// it may be kept, and revalidated by its entity tag: a browser that has it
// gets 304 until the binary changes. ServeContent answers HEAD too.
//
// The curl commands name the base address the page was asked at, so the
// entity tag is the page's and that address's.
func (s *Server) docs(w http.ResponseWriter, r *http.Request, _ httprouter.Params) {
	body, _ := docsPage() // NewServer refused to start if it failed
	base := requestBase(r)
	page := bytes.ReplaceAll(body.page, []byte(baseMarker), []byte(template.HTMLEscapeString(base)))
	sum := sha256.Sum256([]byte(body.etag + base))
	consoleHeaders(w)
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("ETag", `"`+base64.RawURLEncoding.EncodeToString(sum[:16])+`"`)
	w.Header().Set("Vary", "Host, X-Forwarded-Proto")
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(page))
}

var docsTemplate = template.Must(template.New("docs").
	Funcs(template.FuncMap{"paras": paragraphs, "inline": inline, "lower": strings.ToLower, "anchor": anchor}).
	ParseFS(consoleFiles, "console/templates/docs.html"))

// renderReference draws the page of doc, parsed from raw; html/template
// escapes every string the document holds, so markup in a description is
// shown, never run.
func renderReference(doc *openapi3.T, raw []byte) ([]byte, error) {
	var buf bytes.Buffer
	if err := docsTemplate.ExecuteTemplate(&buf, "docs", newReference(doc, raw)); err != nil {
		return nil, fmt.Errorf("render the API reference: %w", err)
	}
	return buf.Bytes(), nil
}

// anchor turns a tag's name into a fragment id: lower-case letters and
// digits, runs of anything else one hyphen.
func anchor(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	return b.String()
}

// block is a paragraph of a description, or a Markdown heading ("## ...").
type block struct {
	Heading bool
	Text    string
}

// paragraphs splits a description at its blank lines; within a paragraph
// the stylesheet keeps the line breaks, so Markdown lists and tables stay
// readable as text. Of the rest of Markdown only inline spans are drawn.
func paragraphs(s string) []block {
	var out []block
	for p := range strings.SplitSeq(strings.TrimSpace(s), "\n\n") {
		p = strings.TrimSpace(p)
		switch h := strings.TrimLeft(p, "#"); {
		case p == "":
		case h != p && strings.HasPrefix(h, " ") && !strings.Contains(h, "\n"):
			out = append(out, block{Heading: true, Text: strings.TrimSpace(h)})
		default:
			out = append(out, block{Text: p})
		}
	}
	return out
}

// span is a run of a description's text: Markdown's `code` or **strong**,
// or neither.
type span struct {
	Text         string
	Code, Strong bool
}

// inline splits text into spans at its backticks, then, outside code, at
// its "**" pairs. A marker left without its partner is kept as text, so no
// character of the description is lost but the markers.
func inline(text string) []span {
	parts := strings.Split(text, "`")
	if len(parts)%2 == 0 { // an odd backtick: the last one is text
		last := len(parts) - 1
		parts = append(parts[:last-1], parts[last-1]+"`"+parts[last])
	}
	pairs := 0
	for i := 0; i < len(parts); i += 2 {
		pairs += strings.Count(parts[i], "**")
	}
	pairs -= pairs % 2 // likewise an odd "**"
	var out []span
	strong := false
	for i, p := range parts {
		if i%2 == 1 {
			out = append(out, span{Text: p, Code: true, Strong: strong})
			continue
		}
		for j, run := range strings.Split(p, "**") {
			if j > 0 && pairs > 0 {
				strong, pairs = !strong, pairs-1
			} else if j > 0 {
				run = "**" + run
			}
			if run != "" {
				out = append(out, span{Text: run, Strong: strong})
			}
		}
	}
	return out
}

// apiReference is what the page shows: the operations grouped by tag, and the
// object schemas they name.
type apiReference struct {
	Title, Version, Description string
	Tags                        []refTag
	Schemas                     []refSchema
}

type refTag struct {
	Name, Description string
	Ops               []refOp
}

type refOp struct {
	// Anchor is the operation's fragment id: its operationId, or its
	// method and path where it has none.
	Anchor                                 string
	ID, Method, Path, Summary, Description string
	// Security is how to authenticate: the alternatives, empty for none.
	Security []string
	// Cost is x-credits-cost, empty where the document gives none (free).
	Cost        string
	Permissions []string
	Params      []refField
	Body        *refContent
	Responses   []refContent
	// Example is the operation's example, nil where the document has none.
	Example *refExample
}

// refExample is an operation's example as a person tries it: a curl
// command against the base address the page was asked at, and the answer.
type refExample struct {
	Curl              string
	Status, MediaType string
	Response          string
}

// refField is a parameter or a property of a schema. Type is its type in
// words; Ref, when set, is the object schema Type links to.
type refField struct {
	Name, In, Type, Ref, Bounds, Description string
	Required                                 bool
}

// refContent is a request body or a response.
type refContent struct {
	Status, Description string
	Required            bool
	MediaTypes          []string
	Type, Ref           string
	Fields              []refField
}

type refSchema struct {
	Name, Description string
	Fields            []refField
}

// newReference walks the document. Maps are sorted, so the page is the
// same on every start; the examples are read from raw, as written.
func newReference(doc *openapi3.T, raw []byte) apiReference {
	ref := apiReference{Title: doc.Info.Title, Version: doc.Info.Version, Description: doc.Info.Description}
	byTag := map[string][]refOp{}
	written := rawOperations(raw)
	paths := doc.Paths.Map()
	for _, p := range slices.Sorted(maps.Keys(paths)) {
		item := paths[p]
		for _, m := range methodOrder {
			if op := item.GetOperation(m); op != nil {
				tag := "Other"
				if len(op.Tags) > 0 {
					tag = op.Tags[0]
				}
				byTag[tag] = append(byTag[tag], newOp(doc, written[p][strings.ToLower(m)], m, p, item, op))
			}
		}
	}
	for _, t := range doc.Tags {
		ref.Tags = append(ref.Tags, refTag{Name: t.Name, Description: t.Description, Ops: byTag[t.Name]})
		delete(byTag, t.Name)
	}
	for _, name := range slices.Sorted(maps.Keys(byTag)) {
		ref.Tags = append(ref.Tags, refTag{Name: name, Ops: byTag[name]})
	}
	if doc.Components != nil {
		for _, name := range slices.Sorted(maps.Keys(doc.Components.Schemas)) {
			if s := doc.Components.Schemas[name]; isObject(s) {
				ref.Schemas = append(ref.Schemas, refSchema{Name: name, Description: s.Value.Description, Fields: fieldsOf("", s, 0)})
			}
		}
	}
	return ref
}

var methodOrder = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodOptions}

// newOp draws op; raw is the operation as the document writes it.
func newOp(doc *openapi3.T, raw json.RawMessage, method, path string, item *openapi3.PathItem, op *openapi3.Operation) refOp {
	o := refOp{
		Anchor: cmp.Or(op.OperationID, anchor(method+" "+path)),
		ID:     op.OperationID, Method: method, Path: path, Summary: op.Summary, Description: op.Description,
		Security: security(doc, op), Params: params(item.Parameters, op.Parameters),
	}
	if c, ok := op.Extensions["x-credits-cost"]; ok {
		o.Cost = fmt.Sprint(c)
	}
	if ps, ok := op.Extensions["x-required-permissions"].([]any); ok {
		for _, p := range ps {
			o.Permissions = append(o.Permissions, fmt.Sprint(p))
		}
	}
	o.Example = example(raw, method, op, credentialHeader(doc, op))
	if op.RequestBody != nil && op.RequestBody.Value != nil {
		b := op.RequestBody.Value
		body := content(b.Content)
		body.Description, body.Required = b.Description, b.Required
		o.Body = &body
	}
	if op.Responses != nil {
		resps := op.Responses.Map()
		for _, code := range slices.SortedFunc(maps.Keys(resps), byStatus) {
			r := resps[code].Value
			if r == nil {
				continue
			}
			c := content(r.Content)
			c.Status = code
			if r.Description != nil {
				c.Description = *r.Description
			}
			o.Responses = append(o.Responses, c)
		}
	}
	return o
}

// byStatus orders statuses by number, "default" (and any other word) last.
func byStatus(a, b string) int {
	na, ea := strconv.Atoi(a)
	nb, eb := strconv.Atoi(b)
	switch {
	case ea == nil && eb == nil:
		return cmp.Compare(na, nb)
	case ea == nil:
		return -1
	case eb == nil:
		return 1
	}
	return strings.Compare(a, b)
}

// security names the credentials an operation takes, in the operation's
// words if it has its own requirement, else the document's.
func security(doc *openapi3.T, op *openapi3.Operation) []string {
	reqs := doc.Security
	if op.Security != nil {
		reqs = *op.Security
	}
	var out []string
	for _, req := range reqs {
		var all []string
		for _, name := range slices.Sorted(maps.Keys(req)) {
			all = append(all, schemeName(doc, name))
		}
		if len(all) > 0 {
			out = append(out, strings.Join(all, " and "))
		}
	}
	return out
}

func schemeName(doc *openapi3.T, name string) string {
	if doc.Components == nil || doc.Components.SecuritySchemes[name] == nil || doc.Components.SecuritySchemes[name].Value == nil {
		return name
	}
	s := doc.Components.SecuritySchemes[name].Value
	switch {
	case s.Type == "apiKey":
		return fmt.Sprintf("API key in the %s %s (%s)", s.Name, s.In, name)
	case s.Type == "http" && strings.EqualFold(s.Scheme, "bearer"):
		return fmt.Sprintf("Authorization: Bearer token (%s)", name)
	}
	return fmt.Sprintf("%s (%s)", s.Type, name)
}

// params merges the path's parameters with the operation's, which override
// one of the same name and location.
func params(shared, own openapi3.Parameters) []refField {
	var out []refField
	seen := map[string]int{}
	for _, p := range append(slices.Clone(shared), own...) {
		if p == nil || p.Value == nil {
			continue
		}
		v := p.Value
		f := refField{Name: v.Name, In: v.In, Required: v.Required, Description: v.Description}
		if v.Schema != nil {
			f.Type, f.Ref = typeOf(v.Schema)
			f.Bounds = bounds(v.Schema.Value)
		}
		key := v.In + " " + v.Name
		if i, ok := seen[key]; ok {
			out[i] = f
			continue
		}
		seen[key] = len(out)
		out = append(out, f)
	}
	return out
}

// content describes a body: its media types and the schema of the first
// one that has a schema (every media type of an operation here shares it).
func content(c openapi3.Content) refContent {
	var out refContent
	for _, mt := range slices.Sorted(maps.Keys(c)) {
		out.MediaTypes = append(out.MediaTypes, mt)
		if s := c[mt].Schema; s != nil && out.Type == "" {
			out.Type, out.Ref = typeOf(s)
			if out.Ref == "" {
				out.Fields = fieldsOf("", s, 0)
			}
		}
	}
	return out
}

// maxDepth bounds how deep inline objects are spelled out; a named object
// is linked instead, so a recursive schema ends too.
const maxDepth = 4

// fieldsOf lists an object's properties, required ones flagged, those of
// inline objects (and arrays of them) under dotted names.
func fieldsOf(prefix string, s *openapi3.SchemaRef, depth int) []refField {
	if s == nil || s.Value == nil || depth > maxDepth {
		return nil
	}
	var out []refField
	for _, part := range s.Value.AllOf {
		out = append(out, fieldsOf(prefix, part, depth+1)...)
	}
	v := s.Value
	for _, name := range slices.Sorted(maps.Keys(v.Properties)) {
		p := v.Properties[name]
		f := refField{Name: prefix + name, Required: slices.Contains(v.Required, name)}
		f.Type, f.Ref = typeOf(p)
		if p.Value != nil {
			f.Description, f.Bounds = p.Value.Description, bounds(p.Value)
		}
		out = append(out, f)
		if p.Ref != "" || p.Value == nil {
			continue
		}
		if isObject(p) {
			out = append(out, fieldsOf(prefix+name+".", p, depth+1)...)
		} else if it := p.Value.Items; it != nil && it.Ref == "" && isObject(it) {
			out = append(out, fieldsOf(prefix+name+"[].", it, depth+1)...)
		}
	}
	return out
}

// isObject reports whether a schema has fields to list.
func isObject(s *openapi3.SchemaRef) bool {
	if s == nil || s.Value == nil {
		return false
	}
	return len(s.Value.Properties) > 0 || slices.ContainsFunc(s.Value.AllOf, isObject)
}

// typeOf puts a schema's type in words, and names the object schema it
// refers to, for a link. A named scalar (Cik, AsOfDate) is shown as its
// type: a link would show less than the type does.
func typeOf(s *openapi3.SchemaRef) (words, ref string) {
	if s == nil || s.Value == nil {
		return "any", ""
	}
	name := s.Ref[strings.LastIndex(s.Ref, "/")+1:]
	v := s.Value
	switch {
	case name != "" && isObject(s):
		words, ref = name, name
	case v.Items != nil:
		item, r := typeOf(v.Items)
		words, ref = "array of "+item, r
	case len(v.AllOf) == 1:
		words, ref = typeOf(v.AllOf[0])
	case len(v.AnyOf) > 0 || len(v.OneOf) > 0:
		var alts []string
		for _, a := range append(slices.Clone(v.AnyOf), v.OneOf...) {
			w, r := typeOf(a)
			alts, ref = append(alts, w), cmp.Or(ref, r)
		}
		words = strings.Join(alts, " or ")
	case v.Type != nil && !v.Type.IsEmpty():
		words = strings.Join(v.Type.Slice(), " or ")
	case isObject(s):
		words = "object"
	default:
		words = "any"
	}
	if v.Format != "" {
		words += " (" + v.Format + ")"
	}
	if v.Nullable {
		words += ", nullable"
	}
	return words, ref
}

// bounds puts a schema's constraints in words: range, length, items,
// pattern, values and default.
func bounds(v *openapi3.Schema) string {
	if v == nil {
		return ""
	}
	var out []string
	if r := numRange(v); r != "" {
		out = append(out, r)
	}
	if v.MinLength > 0 || v.MaxLength != nil {
		out = append(out, sizeRange(v.MinLength, v.MaxLength, "characters"))
	}
	if v.MinItems > 0 || v.MaxItems != nil {
		out = append(out, sizeRange(v.MinItems, v.MaxItems, "items"))
	}
	if v.Pattern != "" {
		out = append(out, "pattern "+v.Pattern)
	}
	if len(v.Enum) > 0 {
		vals := make([]string, len(v.Enum))
		for i, e := range v.Enum {
			vals[i] = fmt.Sprint(e)
		}
		out = append(out, "one of "+strings.Join(vals, ", "))
	}
	if v.Default != nil {
		out = append(out, fmt.Sprintf("default %v", v.Default))
	}
	return strings.Join(out, "; ")
}

func numRange(v *openapi3.Schema) string {
	lo, hi := "≥ ", "≤ "
	if v.ExclusiveMin.Bool != nil && *v.ExclusiveMin.Bool {
		lo = "> "
	}
	if v.ExclusiveMax.Bool != nil && *v.ExclusiveMax.Bool {
		hi = "< "
	}
	num := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	switch {
	case v.Min != nil && v.Max != nil && lo == "≥ " && hi == "≤ ":
		return num(*v.Min) + " to " + num(*v.Max)
	case v.Min != nil && v.Max != nil:
		return lo + num(*v.Min) + ", " + hi + num(*v.Max)
	case v.Min != nil:
		return lo + num(*v.Min)
	case v.Max != nil:
		return hi + num(*v.Max)
	}
	return ""
}

func sizeRange(lo uint64, hi *uint64, unit string) string {
	switch {
	case hi == nil:
		return fmt.Sprintf("at least %d %s", lo, unit)
	case lo == 0:
		return fmt.Sprintf("at most %d %s", *hi, unit)
	}
	return fmt.Sprintf("%d to %d %s", lo, *hi, unit)
}
