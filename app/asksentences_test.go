package app

import (
	"testing"

	"github.com/quarrydata/quarry/domain/filing"
)

// TestSentenceMemoFollowsTheText reads one section twice, then the same
// section with another text: the memo answers the second read from what it
// kept, and the third from the new text.
func TestSentenceMemoFollowsTheText(t *testing.T) {
	m := newSentenceMemo()
	first := sectionDoc(filing.Section{ID: "0000320193-24-000123/7", Text: "Services net sales grew by thirteen percent this year. iPhone sales were flat."})
	a, b := m.of(first), m.of(first)
	if len(a) != 2 || &a[0] != &b[0] {
		t.Fatalf("the same text split again or wrongly: %d sentences, kept %v", len(a), &a[0] == &b[0])
	}
	if a[1].span != "iPhone sales were flat." || a[1].start != 55 || a[1].end != 78 || !a[0].proseEnough || a[1].proseEnough {
		t.Errorf("sentences: %+v", a)
	}
	changed := sectionDoc(filing.Section{ID: "0000320193-24-000123/7", Text: "Wearables net sales fell by seven percent this year."})
	if c := m.of(changed); len(c) != 1 || c[0].said != "Wearables net sales fell by seven percent this year." {
		t.Errorf("after the text changed: %+v", c)
	}
}
