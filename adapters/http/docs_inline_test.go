package http

import (
	"reflect"
	"strings"
	"testing"
)

func TestInlineSpans(t *testing.T) {
	for in, want := range map[string][]span{
		"plain":                   {{Text: "plain"}},
		"send `X-API-KEY` always": {{Text: "send "}, {Text: "X-API-KEY", Code: true}, {Text: " always"}},
		"**Point in time.** Each": {{Text: "Point in time.", Strong: true}, {Text: " Each"}},
		"**uses `x` here** then":  {{Text: "uses ", Strong: true}, {Text: "x", Code: true, Strong: true}, {Text: " here", Strong: true}, {Text: " then"}},
		"a ` alone":               {{Text: "a ` alone"}},
		"`a**b` and ** alone":     {{Text: "a**b", Code: true}, {Text: " and "}, {Text: "** alone"}},
		"2 ** 3 ** 4 **":          {{Text: "2 "}, {Text: " 3 ", Strong: true}, {Text: " 4 "}, {Text: "**"}},
	} {
		if got := inline(in); !reflect.DeepEqual(got, want) {
			t.Errorf("inline(%q) = %+v, want %+v", in, got, want)
		}
	}
}

// FuzzInline: the spans hold every character of the text in order, less
// only the markers they stand for.
func FuzzInline(f *testing.F) {
	for _, s := range []string{"", "`", "**", "***", "`**`", "a `b` **c** d", "**`x`** `**`"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var got strings.Builder
		for _, s := range inline(text) {
			if s.Code && strings.Contains(s.Text, "`") {
				t.Fatalf("a code span holds a backtick: %+v", s)
			}
			got.WriteString(s.Text)
		}
		strip := strings.NewReplacer("`", "", "*", "")
		if strip.Replace(got.String()) != strip.Replace(text) || got.Len() > len(text) {
			t.Fatalf("inline(%q) keeps %q", text, got.String())
		}
	})
}
