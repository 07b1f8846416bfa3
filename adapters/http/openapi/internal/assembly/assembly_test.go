package assembly

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/quarrydata/quarry/domain/dataset"
)

const (
	sharedPart = `{
  "openapi": "3.0.3",
  "info": {"title": "T", "version": "1"},
  "paths": {
    "/healthz": {"get": {}}
  },
  "components": {
    "schemas": {
      "Meta": {"type": "object"}
    }
  }
}
`
	onePart = `{
  "paths": {
    "/one": {
      "get": {"summary": "a <one> & only"}
    }
  },
  "components": {
    "parameters": {
      "OneLimit": {"name": "limit"}
    },
    "schemas": {
      "One": {"type": "string"}
    }
  }
}
`
	twoPart = `{
  "paths": {
    "/two": {"post": {}}
  },
  "components": {
    "schemas": {
      "Two": {"type": "integer"}
    }
  }
}
`
	// assembled is sharedPart, onePart and twoPart assembled in that order.
	assembled = `{
  "openapi": "3.0.3",
  "info": {"title": "T", "version": "1"},
  "paths": {
    "/healthz": {"get": {}},
    "/one": {
      "get": {"summary": "a <one> & only"}
    },
    "/two": {"post": {}}
  },
  "components": {
    "schemas": {
      "Meta": {"type": "object"},
      "One": {"type": "string"},
      "Two": {"type": "integer"}
    },
    "parameters": {
      "OneLimit": {"name": "limit"}
    }
  }
}
`
)

func parts(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, text := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(text)}
	}
	return fsys
}

// TestAssembleKeepsOrderAndBytes checks that the shared part comes first,
// the datasets' parts follow in the order given, a new components section
// is added after the shared part's, and each member's bytes are kept.
func TestAssembleKeepsOrderAndBytes(t *testing.T) {
	got, err := Assemble(parts(map[string]string{Shared: sharedPart, "one.json": onePart, "two.json": twoPart}), []dataset.ID{"one", "two"})
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != assembled {
		t.Fatalf("assembled:\n%s\nwant:\n%s", got, assembled)
	}
}

// TestAssembleRefuses checks each way the parts can be inconsistent.
func TestAssembleRefuses(t *testing.T) {
	for name, c := range map[string]struct {
		files map[string]string
		want  string
	}{
		"a missing part":      {map[string]string{Shared: sharedPart, "one.json": onePart}, "two.json"},
		"a stray part":        {map[string]string{Shared: sharedPart, "one.json": onePart, "two.json": twoPart, "gone.json": twoPart}, "gone.json is the part of no catalog dataset"},
		"a path twice":        {map[string]string{Shared: sharedPart, "one.json": onePart, "two.json": onePart}, `"/one" is defined by two parts`},
		"a component twice":   {map[string]string{Shared: sharedPart, "one.json": onePart, "two.json": strings.Replace(twoPart, `"Two"`, `"Meta"`, 1)}, `"Meta" is defined by two parts`},
		"info in a dataset":   {map[string]string{Shared: sharedPart, "one.json": onePart, "two.json": `{"info": {}}`}, `member "info" belongs in shared.json`},
		"not JSON":            {map[string]string{Shared: sharedPart, "one.json": onePart, "two.json": `{"paths": `}, "two.json"},
		"paths not an object": {map[string]string{Shared: sharedPart, "one.json": onePart, "two.json": `{"paths": []}`}, "not a JSON object"},
		"data after":          {map[string]string{Shared: sharedPart, "one.json": onePart, "two.json": twoPart + "{}"}, "data after the object"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Assemble(parts(c.files), []dataset.ID{"one", "two"})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want one naming %q", err, c.want)
			}
		})
	}
}

// FuzzAssemble feeds arbitrary bytes as a shared and a dataset part: the
// assembly never panics, and what it returns is JSON that assembles, as a
// shared part alone, to itself.
func FuzzAssemble(f *testing.F) {
	f.Add([]byte(sharedPart), []byte(onePart))
	f.Add([]byte(sharedPart), []byte(`{"paths": {}}`))
	f.Fuzz(func(t *testing.T, shared, one []byte) {
		got, err := Assemble(fstest.MapFS{Shared: {Data: shared}, "one.json": {Data: one}}, []dataset.ID{"one"})
		if err != nil {
			return
		}
		if !json.Valid(got) {
			t.Fatalf("not JSON: %s", got)
		}
		again, err := Assemble(fstest.MapFS{Shared: {Data: got}}, nil)
		if err != nil || string(again) != string(got) {
			t.Fatalf("reassembled: %v\n%s\nwant\n%s", err, again, got)
		}
	})
}
