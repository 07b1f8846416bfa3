// Package assembly builds the OpenAPI document from its parts: a shared
// part (info, servers, tags, security schemes, the platform's paths and the
// components several datasets use) and one part per catalog dataset,
// holding its paths and the components only it uses.
//
// The parts are written in the document's own layout: a path at four
// spaces, a component at six. Assembly copies each member's bytes as they
// are, merges "paths" and each section of "components" in the order shared
// part first, then the datasets in catalog order, and refuses a name two
// parts define, so the assembled document is the same for the same parts.
package assembly

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"

	"github.com/quarrydata/quarry/domain/dataset"
)

// Shared is the file name of the shared part.
const Shared = "shared.json"

// PartName is the file name of the part of dataset id.
func PartName(id dataset.ID) string { return string(id) + ".json" }

// CatalogIDs lists the catalog's dataset ids in catalog order.
func CatalogIDs() []dataset.ID {
	var ids []dataset.ID
	for _, d := range dataset.Catalog() {
		ids = append(ids, d.ID)
	}
	return ids
}

// Assemble reads the shared part and the part of each dataset in ids from
// parts and returns the assembled document. A part parts holds for no
// dataset in ids, a missing part, a name defined twice or a dataset part
// with a member other than paths and components is an error.
func Assemble(parts fs.FS, ids []dataset.ID) ([]byte, error) {
	names := []string{Shared}
	for _, id := range ids {
		names = append(names, PartName(id))
	}
	if err := refuseStrays(parts, names, "%s is the part of no catalog dataset"); err != nil {
		return nil, err
	}
	var doc object
	for i, name := range names {
		part, err := readPart(parts, name)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			if k := part.outside("paths", "components"); k != "" {
				return nil, fmt.Errorf("%s: member %q belongs in %s; a dataset part holds paths and components only", name, k, Shared)
			}
		}
		if err := doc.merge(part); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	var out bytes.Buffer
	if err := doc.write(&out, 0); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	if !json.Valid(out.Bytes()) {
		return nil, errors.New("assembled document is not valid JSON")
	}
	return out.Bytes(), nil
}

// refuseStrays fails when files holds a JSON file not in names, such as
// the part of a dataset the catalog no longer lists or an example of no
// operation; stray, a format with one %s, says the file and why.
func refuseStrays(files fs.FS, names []string, stray string) error {
	found, err := fs.Glob(files, "*.json")
	if err != nil {
		return err
	}
	for _, f := range found {
		if !slices.Contains(names, path.Base(f)) {
			return fmt.Errorf(stray, f)
		}
	}
	return nil
}

func readPart(parts fs.FS, name string) (object, error) {
	b, err := fs.ReadFile(parts, name)
	if err != nil {
		return nil, fmt.Errorf("read part: %w", err)
	}
	o, err := parseTop(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return o, nil
}
