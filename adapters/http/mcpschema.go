package http

import (
	"encoding/json"
	"fmt"
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
	// the request body.
	schema map[string]any
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
	props, required := map[string]any{}, []string{}
	for _, ref := range append(slices.Clone(item.Parameters), o.Parameters...) {
		p := ref.Value
		prop := jsonSchema(doc, p.Schema, 0)
		if p.Description != "" {
			prop["description"] = p.Description
		}
		props[p.Name], op.params[p.Name] = prop, p
		if p.Required {
			required = append(required, p.Name)
		}
	}
	schema := map[string]any{"type": "object"}
	if body := jsonBody(o); body != nil {
		op.hasBody = true
		b := jsonSchema(doc, body, 0)
		members, _ := b["properties"].(map[string]any)
		for name, s := range members {
			if _, clash := props[name]; clash {
				return mcpOperation{}, fmt.Errorf("mcp: %s has a parameter and a body member both named %q", rt.OperationID, name)
			}
			props[name] = s
		}
		if req, ok := b["required"].([]any); ok && o.RequestBody.Value.Required {
			for _, name := range req {
				required = append(required, name.(string))
			}
		}
		if ap, ok := b["additionalProperties"]; ok {
			schema["additionalProperties"] = ap
		}
	}
	schema["properties"] = props
	if len(required) > 0 {
		slices.Sort(required)
		schema["required"] = required
	}
	op.schema = schema
	return op, nil
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
