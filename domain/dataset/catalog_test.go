package dataset

import "testing"

// TestAskPairsAreMutual checks the datasets Ask reads only together: each
// names the other, and Ask reads both.
func TestAskPairsAreMutual(t *testing.T) {
	pairs := 0
	for _, d := range Catalog() {
		if d.AskWith == "" {
			continue
		}
		pairs++
		other, ok := Lookup(d.AskWith)
		switch {
		case !ok:
			t.Errorf("%s is read with %s, which is no catalog dataset", d.ID, d.AskWith)
		case other.AskWith != d.ID:
			t.Errorf("%s is read with %s, which is read with %q", d.ID, d.AskWith, other.AskWith)
		case !d.Ask || !other.Ask:
			t.Errorf("%s and %s are read together, but Ask does not read both", d.ID, other.ID)
		}
	}
	if pairs == 0 {
		t.Fatal("no dataset is read with another: India judgments and India search are")
	}
}
