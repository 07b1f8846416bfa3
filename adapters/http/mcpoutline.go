package http

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// What an agent reads of a tool (spec-gaps B175): a description of a few
// sentences, an input schema that admits only the operation's arguments,
// and an output schema outlining the operation's 200 response, all derived
// from the OpenAPI document, whose full text stays in the
// quarry://openapi.json resource. A tool is at most maxToolJSON bytes of
// JSON as far as its arguments' descriptions and the outline's depth go.

// maxToolJSON bounds one tool as tools/list writes it, in bytes: an
// argument's description is left out, and the output schema is outlined
// less deep, where they would pass it; the bare schemas and the
// description are kept whatever their size.
const maxToolJSON = 800

// maxLead bounds the lead a tool's description takes from its
// operation's description: its first sentence, and the next ones of the
// first paragraph while they fit; a first sentence longer than this gives
// way to the operation's summary.
const maxLead = 160

// maxMoreLead bounds the lead with the sentences after the first.
const maxMoreLead = 140

// tool is op as an MCP tool: its arguments' descriptions added, most
// needed first, while the tool stays within maxToolJSON, then its output
// outlined as deep as stays within it.
func (op mcpOperation) tool() *mcp.Tool {
	t := &mcp.Tool{Name: op.route.OperationID, Description: mcpToolDescription(op),
		InputSchema: cloneSchema(op.schema), OutputSchema: op.output, Annotations: mcpAnnotations(op.route)}
	props := t.InputSchema.(map[string]any)["properties"].(map[string]any)
	for _, n := range op.notes {
		prop := props[n.name].(map[string]any)
		prop["description"] = n.text
		if toolSize(t) > maxToolJSON {
			delete(prop, "description")
		}
	}
	if op.outputRef != nil {
		deepenOutput(t, op.outputRef)
	}
	return t
}

// deepenOutput outlines ref as t's output schema one level deeper at a
// time while t stays within maxToolJSON and the outline grows.
func deepenOutput(t *mcp.Tool, ref *openapi3.SchemaRef) {
	size := toolSize(t)
	for depth := 2; depth <= maxSchemaDepth; depth++ {
		shallower := t.OutputSchema
		t.OutputSchema = outline(ref, depth)
		n := toolSize(t)
		if n > maxToolJSON || n == size {
			t.OutputSchema = shallower
			return
		}
		size = n
	}
}

// cloneSchema is a copy of a schema that a tool may change.
func cloneSchema(m map[string]any) map[string]any {
	var out map[string]any
	b, _ := json.Marshal(m)
	_ = json.Unmarshal(b, &out)
	return out
}

func toolSize(t *mcp.Tool) int {
	b, err := json.Marshal(t)
	if err != nil {
		return 0
	}
	return len(b)
}

// mcpToolDescription is what a tool says of itself: the lead of its
// operation's description without parenthetical remarks, then what a call
// costs and needs.
func mcpToolDescription(op mcpOperation) string {
	lead := note(op.description)
	if lead == "" || len(lead) > maxLead {
		lead = strings.TrimSuffix(op.summary, ".") + "."
	}
	rest, _, _ := strings.Cut(strings.TrimSpace(op.description), "\n\n")
	rest = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest), leadSentence(rest)))
	for rest != "" {
		next := note(rest)
		if len(lead)+1+len(next) > maxMoreLead {
			break
		}
		lead += " " + next
		rest = strings.TrimSpace(strings.TrimPrefix(rest, leadSentence(rest)))
	}
	perms := make([]string, len(op.route.Permissions))
	for i, p := range op.route.Permissions {
		perms[i] = string(p)
	}
	unit := "credits"
	if op.route.Cost == 1 {
		unit = "credit"
	}
	return fmt.Sprintf("%s Costs %d %s; needs %s.", lead, op.route.Cost, unit, list(perms))
}

// list joins words as a sentence does: "a", "a and b", "a, b and c".
func list(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// leadSentence is the first sentence of a description: up to the first
// full stop followed by a space or the end, outside backquotes and
// parentheses.
func leadSentence(s string) string {
	s = strings.TrimSpace(s)
	quoted, depth := false, 0
	for i, r := range s {
		switch {
		case r == '`':
			quoted = !quoted
		case quoted:
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case r == '.' && depth == 0 && (i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\n'):
			return s[:i+1]
		}
	}
	return s
}

// note is what a tool says of an argument: the lead sentence of its
// description, its parenthetical remarks left out.
func note(description string) string {
	lead := leadSentence(description)
	var b strings.Builder
	quoted, depth := false, 0
	for _, r := range lead {
		switch {
		case r == '`':
			quoted = !quoted
		case quoted:
		case r == '(':
			depth++
			continue
		case r == ')' && depth > 0:
			depth--
			continue
		}
		if depth == 0 {
			b.WriteRune(r)
		}
	}
	text := strings.Join(strings.Fields(b.String()), " ")
	return strings.NewReplacer(" ,", ",", " .", ".", " ;", ";", " :", ":").Replace(text)
}

// mcpOutput is an operation's output schema to begin with, and the JSON
// schema the tool outlines deeper if it can (nil for a file). A JSON
// answer is outlined one level deep; a file is described by the
// structured content its result carries beside it (mcpFileContent), its
// media type one of the route's.
func mcpOutput(o *openapi3.Operation) (map[string]any, *openapi3.SchemaRef) {
	resp := o.Responses.Status(http.StatusOK)
	if resp == nil || resp.Value == nil {
		return map[string]any{"type": "object"}, nil
	}
	if mt := resp.Value.Content.Get("application/json"); mt != nil {
		return outline(mt.Schema, 1), mt.Schema
	}
	var files []string
	for name := range resp.Value.Content {
		if mediaType, _, err := mime.ParseMediaType(name); err == nil {
			files = append(files, mediaType)
		}
	}
	slices.Sort(files)
	return fileOutput(files), nil
}

// fileOutput is the output schema of a route answering a file of one of
// the media types.
func fileOutput(mediaTypes []string) map[string]any {
	types := make([]any, len(mediaTypes))
	for i, t := range mediaTypes {
		types[i] = t
	}
	return map[string]any{"type": "object", "required": []any{"uri", "media_type", "size"},
		"properties": map[string]any{
			"uri":        map[string]any{"type": "string"},
			"media_type": map[string]any{"type": "string", "enum": types},
			"size":       map[string]any{"type": "integer", "minimum": 0},
		}}
}

// mcpFileContent is the structured content of a file result: where the
// embedded resource is, its media type and its size in bytes.
func mcpFileContent(uri, mediaType string, size int) map[string]any {
	return map[string]any{"uri": uri, "media_type": mediaType, "size": size}
}

// outline is the JSON Schema of an OpenAPI 3.0 schema with only what
// says the shape of a value (types, properties, items, enums, the schema
// of additional properties, compositions), listing the properties of depth
// levels of objects; below them an object is its type only. It admits
// every value the schema admits, and more: required members and closed
// objects are not said (the descriptions do), and oneOf becomes anyOf,
// since outlined alternatives may no longer exclude one another.
func outline(ref *openapi3.SchemaRef, depth int) map[string]any {
	if ref == nil || ref.Value == nil {
		return map[string]any{}
	}
	s, m := ref.Value, map[string]any{}
	if s.Type != nil && len(s.Type.Slice()) == 1 {
		m["type"] = s.Type.Slice()[0]
	}
	if depth > 0 {
		outlineStructure(s, m, depth)
	}
	if s.Nullable {
		return nullable(m)
	}
	return m
}

// outlineStructure sets into m what s says of its members, properties to
// depth-1 levels.
func outlineStructure(s *openapi3.Schema, m map[string]any, depth int) {
	if len(s.Enum) > 0 {
		m["enum"] = slices.Clone(s.Enum)
	}
	if len(s.Properties) > 0 {
		props := map[string]any{}
		for name, p := range s.Properties {
			props[name] = outline(p, depth-1)
		}
		m["properties"] = props
	}
	if s.Items != nil {
		m["items"] = outline(s.Items, depth)
	}
	if s.AdditionalProperties.Schema != nil {
		m["additionalProperties"] = outline(s.AdditionalProperties.Schema, depth-1)
	}
	for kw, list := range map[string]openapi3.SchemaRefs{"anyOf": append(slices.Clone(s.AnyOf), s.OneOf...), "allOf": s.AllOf} {
		if len(list) > 0 {
			out := make([]any, len(list))
			for i, sub := range list {
				out[i] = outline(sub, depth)
			}
			m[kw] = out
		}
	}
}

// nullable is the JSON Schema of m with null admitted too.
func nullable(m map[string]any) map[string]any {
	if enum, ok := m["enum"].([]any); ok {
		m["enum"] = append(enum, nil)
	}
	if t, ok := m["type"].(string); ok {
		m["type"] = []any{t, "null"}
		return m
	}
	if len(m) == 0 {
		return m
	}
	return map[string]any{"anyOf": []any{m, map[string]any{"type": "null"}}}
}
