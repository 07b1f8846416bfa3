package pii

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"strings"
	"sync"
)

// englishWords is SCOWL's American English word list as Debian's
// wamerican 2020.12.07 ships it, its lower-case words of two letters or
// more only (proper nouns left out), gzipped: a word in it is an ordinary
// English word, which a run of letters that is a person's name or a PAN's
// letters seldom is. Its licence is in sampledata/README.md.
//
//go:embed english.txt.gz
var englishWords []byte

// dictionary is the set of englishWords, read once.
var dictionary = sync.OnceValue(func() map[string]struct{} {
	zr, err := gzip.NewReader(bytes.NewReader(englishWords))
	if err != nil {
		panic("pii: the embedded word list is corrupt: " + err.Error())
	}
	words := make(map[string]struct{}, 64_000)
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		words[sc.Text()] = struct{}{}
	}
	if sc.Err() != nil {
		panic("pii: the embedded word list is corrupt: " + sc.Err().Error())
	}
	return words
})

// isEnglish reports whether w, in any case, is an ordinary English word,
// or words joined by hyphens each of which is ("Sub-Section").
func isEnglish(w string) bool {
	words := dictionary()
	for _, part := range strings.Split(strings.ToLower(w), "-") {
		if _, ok := words[part]; !ok {
			return false
		}
	}
	return true
}
