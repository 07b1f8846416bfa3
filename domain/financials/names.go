package financials

import (
	"strings"
	"unicode"
)

// NameKey is the form a company name is matched in: lower-cased, every run
// of characters that are neither letters nor digits made one space, ends
// trimmed. "Apple Inc." and "APPLE INC" have the key "apple inc".
func NameKey(name string) string {
	words := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	return strings.Join(words, " ")
}

// NameMatches reports whether a company whose name has the key key is named
// by a question's words with the key asked: the whole name, or its first
// words ("apple" names "apple inc", "nvidia" names "nvidia corp", but "app"
// names neither).
func NameMatches(key, asked string) bool {
	return asked != "" && (key == asked || strings.HasPrefix(key, asked+" "))
}
