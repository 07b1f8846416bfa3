package edgarfiling

import (
	"bytes"
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/net/html"

	"github.com/quarrydata/quarry/domain/filing"
)

// ItemText is the text of one item of a report, as SplitItems finds it.
type ItemText struct {
	Number string
	Text   string
}

// itemHeading matches a line that opens an item: "Item 1A. Risk Factors",
// "ITEM 7 - MANAGEMENT'S ...", or a bare "Item 1B." line.
var itemHeading = regexp.MustCompile(`(?i)^item\s+(\d{1,2}[a-c]?)\b\s*[.:\-–—]?`)

// partLine matches a part heading left at the end of the item before it.
var partLine = regexp.MustCompile(`(?i)^part\s+(i{1,3}|iv)\.?$`)

// maxHeadingLine is the longest line taken for a heading; a longer line that
// starts with "Item 7" is a sentence referring to the item.
const maxHeadingLine = 200

// SplitItems turns a report's primary document (HTML, inline XBRL or plain
// text) into the text of its items. A 10-K repeats every heading in its table
// of contents, so the body is the last run of headings that starts at the
// first item: from the last heading of the lowest item found, each next item
// is its first heading after the one before.
func SplitItems(doc []byte, isHTML bool) []ItemText {
	text := string(doc)
	if isHTML {
		text = htmlText(doc)
	}
	lines := normalizeLines(text)
	heads := bodyHeadings(lines)
	out := make([]ItemText, 0, len(heads))
	for i, h := range heads {
		end := len(lines)
		if i+1 < len(heads) {
			end = heads[i+1].line
		}
		body := lines[h.line:end]
		for len(body) > 1 && partLine.MatchString(body[len(body)-1]) {
			body = body[:len(body)-1]
		}
		out = append(out, ItemText{Number: h.number, Text: strings.Join(body, "\n")})
	}
	return out
}

type heading struct {
	line   int
	number string
	rank   int
}

func bodyHeadings(lines []string) []heading {
	var all []heading
	for i, l := range lines {
		m := itemHeading.FindStringSubmatch(l)
		if m == nil || len(l) > maxHeadingLine {
			continue
		}
		n := strings.ToUpper(m[1])
		if r := filing.ItemRank(n); r >= 0 {
			all = append(all, heading{line: i, number: n, rank: r})
		}
	}
	if len(all) == 0 {
		return nil
	}
	first := 0
	for i, h := range all {
		if h.rank < all[first].rank || h.rank == all[first].rank {
			first = i
		}
	}
	chosen := []heading{all[first]}
	for _, h := range all[first+1:] {
		if h.rank > chosen[len(chosen)-1].rank {
			chosen = append(chosen, h)
		}
	}
	return chosen
}

// normalizeLines trims every line, collapses runs of white space (no-break
// spaces included) to one space, and drops empty lines.
func normalizeLines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.Join(strings.FieldsFunc(l, unicode.IsSpace), " ")
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// hiddenElements hold no reading text: inline XBRL's header carries the
// hidden facts and contexts.
var hiddenElements = map[string]bool{"script": true, "style": true, "head": true, "title": true, "ix:header": true}

// blockElements end a line of text.
var blockElements = map[string]bool{
	"p": true, "div": true, "br": true, "tr": true, "li": true, "table": true, "h1": true, "h2": true,
	"h3": true, "h4": true, "h5": true, "h6": true, "hr": true, "ul": true, "ol": true, "body": true,
}

// htmlText extracts the reading text of an HTML document with the
// tokenizer, which never fails: it takes malformed markup as it comes.
func htmlText(doc []byte) string {
	var b strings.Builder
	z := html.NewTokenizer(bytes.NewReader(doc))
	hidden := 0
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			// io.EOF, or input the tokenizer cannot read on: either way
			// the text so far is all there is.
			return b.String()
		case html.TextToken:
			if hidden == 0 {
				b.Write(z.Text())
			}
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			tag := strings.ToLower(string(name))
			switch {
			case hiddenElements[tag] && tt == html.StartTagToken:
				hidden++
			case hiddenElements[tag] && tt == html.EndTagToken:
				hidden = max(hidden-1, 0)
			}
			switch {
			case blockElements[tag]:
				b.WriteByte('\n')
			case tag == "td" || tag == "th":
				b.WriteByte(' ')
			}
		}
	}
}
