package assembly

import (
	"strings"
	"testing"
	"testing/fstest"
)

// withOperation is an assembled document of one operation with an inline
// success response and a referenced error response, and a path item
// without an example, written compactly.
const withOperation = `{
  "paths": {
    "/things": {
      "post": {
        "operationId": "make_thing",
        "requestBody": {"content": {"application/json": {"schema": {"type": "object"}}}},
        "responses": {
          "201": {"description": "Made.", "content": {"application/json": {"schema": {"type": "object"}}}},
          "404": {"$ref": "#/components/responses/NotFound"}
        }
      }
    },
    "/other": {"get": {"operationId": "other", "responses": {}}}
  }
}
`

func TestPlaceExamples(t *testing.T) {
	example := `{"request": {"target": "/things?a=1&b=2"}, "body": {"name": "x"}, "status": 201, "media_type": "application/json", "response": {"id": "t1"}}`
	got, err := PlaceExamples([]byte(withOperation), fstest.MapFS{"make_thing.json": {Data: []byte(example)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"x-example-request": {"target":"/things?a=1&b=2"}`,
		"\"application/json\": {\n              \"schema\": {\"type\": \"object\"},\n              \"example\": {\n                \"name\": \"x\"\n              }\n",
		"\"example\": {\n                  \"id\": \"t1\"\n                }",
		`"404": {"$ref": "#/components/responses/NotFound"}`,
		`"/other": {"get": {"operationId": "other", "responses": {}}}`,
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("the document lacks %s:\n%s", want, got)
		}
	}
	if again, err := PlaceExamples([]byte(withOperation), fstest.MapFS{}); err != nil || string(again) != withOperation {
		t.Errorf("without examples the document changed: %v\n%s", err, again)
	}
}

func TestPlaceExamplesRefuses(t *testing.T) {
	for name, files := range map[string]fstest.MapFS{
		"an example of no operation": {"gone.json": {Data: []byte(`{"request": {"target": "/"}, "status": 200, "media_type": "application/json", "response": {}}`)}},
		"a referenced response":      {"make_thing.json": {Data: []byte(`{"request": {"target": "/things"}, "status": 404, "media_type": "application/json", "response": {}}`)}},
		"an undocumented status":     {"make_thing.json": {Data: []byte(`{"request": {"target": "/things"}, "status": 200, "media_type": "application/json", "response": {}}`)}},
		"an unknown member":          {"make_thing.json": {Data: []byte(`{"request": {"target": "/things"}, "status": 201, "media_type": "application/json", "response": {}, "note": 1}`)}},
	} {
		if _, err := PlaceExamples([]byte(withOperation), files); err == nil {
			t.Errorf("%s: placed", name)
		}
	}
}
