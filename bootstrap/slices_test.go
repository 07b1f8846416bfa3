package bootstrap

import (
	"testing"

	"github.com/quarrydata/quarry/domain/dataset"
)

// TestSlicesFollowTheCatalog holds the module list to the catalog: each
// slice is named for a catalog dataset, the slices come in catalog order,
// and every catalog dataset is a slice or filled by one.
func TestSlicesFollowTheCatalog(t *testing.T) {
	index := map[dataset.ID]int{}
	for i, d := range dataset.Catalog() {
		index[d.ID] = i
	}
	covered := map[dataset.ID]bool{}
	last := -1
	for _, w := range sliceModules {
		i, ok := index[dataset.ID(w.name)]
		if !ok {
			t.Errorf("slice %s names no catalog dataset", w.name)
			continue
		}
		if i < last {
			t.Errorf("slice %s comes after %s, out of catalog order", w.name, dataset.Catalog()[last].ID)
		}
		last = i
		covered[dataset.ID(w.name)] = true
		for _, id := range w.fills {
			covered[id] = true
		}
	}
	for _, d := range dataset.Catalog() {
		if !covered[d.ID] {
			t.Errorf("catalog dataset %s is no slice and no slice fills it", d.ID)
		}
	}
}
