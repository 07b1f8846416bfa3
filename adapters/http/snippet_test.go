package http

import (
	"testing"
	"unicode/utf8"
)

// wholeSnippet is snippet as it was first written, decoding the whole
// text: the reference the windowed one is held to.
func wholeSnippet(text string, start, end int) string {
	runes := []rune(text)
	from, to := max(start-snippetContext, 0), min(end+snippetContext, len(runes))
	for from > 0 && from < start && runes[from-1] != ' ' {
		from++
	}
	for to < len(runes) && to > end && runes[to] != ' ' {
		to--
	}
	return string(runes[from:to])
}

// FuzzSnippet holds snippet to the whole-text reference for every passage
// a hit can name: start <= end <= the text's length in code points.
func FuzzSnippet(f *testing.F) {
	text := "Revenue from iPhone increased. Services net sales grew 13% to $96.2 billion, driven by advertising, the App Store and cloud services — 稳步增长 ok."
	f.Add(text, 31, 60)
	f.Add(text, 0, 5)
	f.Add(text, 120, utf8.RuneCountInString(text))
	f.Add("short", 1, 2)
	f.Add("\xff\xfe bad bytes \xff", 2, 4)
	f.Fuzz(func(t *testing.T, text string, start, end int) {
		n := utf8.RuneCountInString(text)
		if start < 0 || end < start || end > n {
			return
		}
		if got, want := snippet(text, start, end), wholeSnippet(text, start, end); got != want {
			t.Fatalf("snippet(%q, %d, %d) = %q, want %q", text, start, end, got, want)
		}
	})
}
