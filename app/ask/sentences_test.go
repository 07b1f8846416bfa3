package ask

import (
	"slices"
	"testing"
	"time"

	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/app/usecase"

	"github.com/quarrydata/quarry/domain/filing"
)

// TestSentenceMemoFollowsTheText reads one section twice, then the same
// section with another text: the memo answers the second read from what it
// kept, and the third from the new text.
func TestSentenceMemoFollowsTheText(t *testing.T) {
	shared, err := readcache.New(1<<20, time.Hour, usecase.SystemClock)
	if err != nil {
		t.Fatal(err)
	}
	m := newSentenceMemo(shared)
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

// TestSentencesByLayout splits one text by both layouts: a paragraph's
// sentence ends at every line break and at a stop before a space, a printed
// line's runs on past a line ending mid-sentence, ends at a stop before any
// white space, and not after an abbreviation; a printed span is said with
// its breaks as spaces.
func TestSentencesByLayout(t *testing.T) {
	text := "Apple Inc. designs phones.\tIt sells\nthem. Mr. Cook leads."
	for _, c := range []struct {
		layout Layout
		want   []string
		said   string
	}{
		{Paragraphs, []string{"Apple Inc.", "designs phones.\tIt sells", "them.", "Mr.", "Cook leads."}, "designs phones.\tIt sells"},
		{PrintedLines, []string{"Apple Inc. designs phones.", "It sells\nthem.", "Mr. Cook leads."}, "It sells them."},
	} {
		var got []string
		for _, sp := range Sentences(text, c.layout) {
			got = append(got, string([]rune(text)[sp[0]:sp[1]]))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("layout %d: got %q, want %q", c.layout, got, c.want)
		}
		if said := c.layout.said(c.want[1]); said != c.said {
			t.Errorf("layout %d says %q as %q, want %q", c.layout, c.want[1], said, c.said)
		}
	}
}
