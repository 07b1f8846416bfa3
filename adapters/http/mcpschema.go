package http

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/quarrydata/quarry/domain/dataset"
)

// mcpOperation is one data operation as an MCP tool: its route, and where
// each argument goes in the HTTP request the tool call becomes.
type mcpOperation struct {
	route       dataset.Route
	licence     dataset.Licence
	summary     string
	description string
	// params are the operation's parameters by name: path, query or header.
	params map[string]*openapi3.Parameter
	// hasBody says that the arguments that are not parameters make up the
	// JSON request body.
	hasBody bool
	// schema is the tool's input schema, derived from the parameters and
	// the request body; it admits no other argument.
	schema map[string]any
	// output is the tool's output schema: an outline of the 200 response's
	// JSON schema, or the file descriptor of a route answering a file.
	output map[string]any
	// notes are the arguments' descriptions, most needed first, which the
	// tool carries as far as its size allows (tool).
	notes []mcpNote
	// outputRef is the JSON schema of the 200 response, outlined as deep as
	// the tool's size allows; nil for a file.
	outputRef *openapi3.SchemaRef
}

// mcpNote is the description of one argument: the lead sentence of its
// description in the OpenAPI document, without its parenthetical remarks.
type mcpNote struct {
	name, text string
}

// mcpOperations derives one tool per data route of the catalog from the
// OpenAPI document: the name is the operationId, the input schema the
// operation's parameters and the members of its JSON request body side by
// side. A route the document lacks, or a body member named like a
// parameter, is an error.
func mcpOperations(doc *openapi3.T) ([]mcpOperation, error) {
	var out []mcpOperation
	for _, ds := range dataset.Catalog() {
		for _, rt := range ds.Routes {
			op, err := mcpOperationOf(doc, rt)
			if err != nil {
				return nil, err
			}
			op.licence = ds.Licence
			out = append(out, op)
		}
	}
	return out, nil
}

func mcpOperationOf(doc *openapi3.T, rt dataset.Route) (mcpOperation, error) {
	item := doc.Paths.Find(rt.Path)
	if item == nil || item.GetOperation(rt.Method) == nil {
		return mcpOperation{}, fmt.Errorf("mcp: the OpenAPI document has no %s %s", rt.Method, rt.Path)
	}
	o := item.GetOperation(rt.Method)
	if o.OperationID != rt.OperationID {
		return mcpOperation{}, fmt.Errorf("mcp: %s %s is %q in the document, %q in the catalog", rt.Method, rt.Path, o.OperationID, rt.OperationID)
	}
	op := mcpOperation{route: rt, summary: o.Summary, description: o.Description, params: map[string]*openapi3.Parameter{}}
	op.output, op.outputRef = mcpOutput(o)
	props, required := map[string]any{}, []string{}
	var notes []mcpNote
	for _, ref := range append(slices.Clone(item.Parameters), o.Parameters...) {
		p := ref.Value
		props[p.Name], op.params[p.Name] = withoutDescriptions(jsonSchema(doc, p.Schema, 0)), p
		notes = append(notes, mcpNote{p.Name, note(p.Description)})
		if p.Required {
			required = append(required, p.Name)
		}
	}
	if body := jsonBody(o); body != nil {
		op.hasBody = true
		bodyNotes, bodyRequired, err := bodyArguments(doc, o, body, props)
		if err != nil {
			return mcpOperation{}, err
		}
		notes, required = append(notes, bodyNotes...), append(required, bodyRequired...)
	}
	op.schema = map[string]any{"type": "object", "additionalProperties": false, "properties": props}
	if len(required) > 0 {
		slices.Sort(required)
		op.schema["required"] = required
	}
	op.notes = byNeed(notes, required)
	return op, nil
}

// bodyArguments adds the members of the JSON body to the arguments props
// and returns their descriptions, in name order, and the required ones
// when the body is required. A member named like a parameter is an error.
func bodyArguments(doc *openapi3.T, o *openapi3.Operation, body *openapi3.SchemaRef, props map[string]any) ([]mcpNote, []string, error) {
	b := jsonSchema(doc, body, 0)
	members, _ := b["properties"].(map[string]any)
	var notes []mcpNote
	for _, name := range slices.Sorted(maps.Keys(members)) {
		if _, clash := props[name]; clash {
			return nil, nil, fmt.Errorf("mcp: %s has a parameter and a body member both named %q", o.OperationID, name)
		}
		m := members[name].(map[string]any)
		d, _ := m["description"].(string)
		props[name] = withoutDescriptions(m)
		notes = append(notes, mcpNote{name, note(d)})
	}
	var required []string
	if req, ok := b["required"].([]any); ok && o.RequestBody.Value.Required {
		for _, name := range req {
			required = append(required, name.(string))
		}
	}
	return notes, required, nil
}

// byNeed are the arguments' descriptions that say something, those of
// required arguments first, the others in the document's order.
func byNeed(notes []mcpNote, required []string) []mcpNote {
	optional := func(n mcpNote) int {
		if slices.Contains(required, n.name) {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(notes, func(a, b mcpNote) int { return cmp.Compare(optional(a), optional(b)) })
	return slices.DeleteFunc(notes, func(n mcpNote) bool { return n.text == "" })
}

// jsonBody is the schema of an operation's JSON request body, or nil.
func jsonBody(o *openapi3.Operation) *openapi3.SchemaRef {
	if o.RequestBody == nil || o.RequestBody.Value == nil {
		return nil
	}
	mt := o.RequestBody.Value.Content.Get("application/json")
	if mt == nil {
		return nil
	}
	return mt.Schema
}

// maxSchemaDepth bounds how deep references are inlined; the document's
// request schemas are a few levels deep and not recursive.
const maxSchemaDepth = 16

// jsonSchema turns an OpenAPI 3.0 schema into the JSON Schema an MCP tool
// declares: references inlined, `nullable` as a "null" type, and the
// OpenAPI-only `example` left out. Every other keyword is kept as written.
func jsonSchema(doc *openapi3.T, ref *openapi3.SchemaRef, depth int) map[string]any {
	if ref == nil || depth > maxSchemaDepth {
		return map[string]any{}
	}
	if name, ok := strings.CutPrefix(ref.Ref, "#/components/schemas/"); ok && doc.Components.Schemas[name] != nil {
		return jsonSchema(doc, &openapi3.SchemaRef{Value: doc.Components.Schemas[name].Value}, depth+1)
	}
	raw, err := json.Marshal(ref.Value)
	if err != nil {
		return map[string]any{}
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return map[string]any{}
	}
	delete(m, "example")
	if m["nullable"] == true {
		delete(m, "nullable")
		if t, ok := m["type"].(string); ok {
			m["type"] = []any{t, "null"}
		}
	}
	s := ref.Value
	if len(s.Properties) > 0 {
		props := map[string]any{}
		for name, p := range s.Properties {
			props[name] = jsonSchema(doc, p, depth+1)
		}
		m["properties"] = props
	}
	if s.Items != nil {
		m["items"] = jsonSchema(doc, s.Items, depth+1)
	}
	if s.AdditionalProperties.Schema != nil {
		m["additionalProperties"] = jsonSchema(doc, s.AdditionalProperties.Schema, depth+1)
	}
	for kw, list := range map[string]openapi3.SchemaRefs{"anyOf": s.AnyOf, "oneOf": s.OneOf, "allOf": s.AllOf} {
		if len(list) > 0 {
			out := make([]any, len(list))
			for i, sub := range list {
				out[i] = jsonSchema(doc, sub, depth+1)
			}
			m[kw] = out
		}
	}
	return m
}

// withoutDescriptions is a schema with every description left out; a
// property named "description" stays.
func withoutDescriptions(m map[string]any) map[string]any {
	delete(m, "description")
	for k, v := range m {
		switch v := v.(type) {
		case map[string]any:
			if k != "properties" {
				m[k] = withoutDescriptions(v)
				continue
			}
			for name, p := range v {
				if sub, ok := p.(map[string]any); ok {
					v[name] = withoutDescriptions(sub)
				}
			}
		case []any:
			for i, e := range v {
				if sub, ok := e.(map[string]any); ok {
					v[i] = withoutDescriptions(sub)
				}
			}
		}
	}
	return m
}
