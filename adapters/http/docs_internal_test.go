package http

import (
	"context"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// A document small enough to say what each part of the page must show.
const tinyDocument = `{
  "openapi": "3.0.3",
  "info": {"title": "T", "version": "1", "description": "Intro <script>alert(1)</script>\n\n## Auth\n\nUse a \u0060key\u0060, **carefully**."},
  "tags": [{"name": "Data <b>", "description": "About <i>data</i>."}],
  "paths": {
    "/things/{id}": {
      "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string", "pattern": "^t_[0-9]+$"}}],
      "post": {
        "tags": ["Data <b>"], "operationId": "post_thing", "summary": "Make <a thing>",
        "description": "Body <img src=x onerror=alert(1)>.",
        "security": [{"Key": []}], "x-credits-cost": 7, "x-required-permissions": ["things:write"],
        "parameters": [{"name": "limit", "in": "query", "description": "Page \u0060<size>\u0060.", "schema": {"type": "integer", "minimum": 1, "maximum": 500, "default": 50}}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {
          "type": "object", "required": ["name"],
          "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 64, "description": "A <name>."},
                         "meta": {"type": "object", "properties": {"note": {"type": "string", "nullable": true}}}}}}}},
        "responses": {
          "201": {"description": "Made.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}},
          "401": {"description": "No key."}
        }
      },
      "get": {"summary": "Read", "responses": {"200": {"description": "Yes."}}}
    }
  },
  "components": {
    "securitySchemes": {"Key": {"type": "apiKey", "in": "header", "name": "X-API-KEY"}},
    "schemas": {
      "Thing": {"type": "object", "properties": {"id": {"$ref": "#/components/schemas/Id"}, "kind": {"type": "string", "enum": ["a", "b"]}}},
      "Id": {"type": "string", "description": "An id."}
    }
  }
}`

func TestReferenceShowsTheDocumentAndEscapesItsMarkup(t *testing.T) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData([]byte(tinyDocument))
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatal(err)
	}
	b, err := renderReference(doc, []byte(tinyDocument))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, bad := range []string{"<script", "<img", "<a thing>", "<b>", "<i>", "<name>", "<size>"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page holds %q unescaped", bad)
		}
	}
	for _, want := range []string{
		"Intro &lt;script&gt;alert(1)&lt;/script&gt;", "<h3>Auth</h3>", "<p>Use a <code>key</code>, <strong>carefully</strong>.</p>",
		`id="tag-data-b"`, "Data &lt;b&gt;", "About &lt;i&gt;data&lt;/i&gt;.",
		"Make &lt;a thing&gt;", "Body &lt;img src=x onerror=alert(1)&gt;.",
		// Security, cost and permissions, then none of them on the GET.
		"API key in the X-API-KEY header (Key)", "7 credits per request", "<code>things:write</code>",
		"<dt>Authentication</dt><dd>none</dd>", "<dt>Cost</dt><dd>free</dd>",
		// Parameters: the path's and the operation's, with their bounds.
		`<td data-label=""><code>id</code> <span class="req">required</span></td><td data-label="In">path</td><td data-label="Type">string</td><td data-label="Constraints">pattern ^t_[0-9]&#43;$</td>`,
		`<td data-label=""><code>limit</code></td><td data-label="In">query</td><td data-label="Type">integer</td><td data-label="Constraints">1 to 500; default 50</td><td data-label="" class="prose">Page <code>&lt;size&gt;</code>.</td>`,
		// The body's fields, an inline object's under a dotted name.
		`<td data-label=""><code>name</code> <span class="req">required</span></td><td data-label="Type">string</td><td data-label="Constraints">1 to 64 characters</td>`,
		`<td data-label=""><code>meta.note</code></td><td data-label="Type">string, nullable</td>`,
		// Responses in order, linking the named object; the object listed
		// among the schemas, its named scalar shown as its type.
		`<strong class="status s2xx">201</strong> Made.`, `<a href="#schema-Thing">Thing</a>`,
		`<strong class="status s4xx">401</strong> No key.`,
		`id="schema-Thing"`, `<td data-label=""><code>id</code></td><td data-label="Type">string</td>`, "one of a, b",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Contains(page, `id="schema-Id"`) {
		t.Error("a scalar schema is listed among the objects")
	}
	if i, j := strings.Index(page, `id="op-get-things-id"`), strings.Index(page, `id="op-post_thing"`); i < 0 || j < 0 || i < j {
		t.Error("the untagged operation without an id is not listed, anchored by its method and path, after the document's tags")
	}
}
