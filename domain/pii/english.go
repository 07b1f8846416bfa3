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
	for _, part := range strings.Split(strings.ToLower(w), "-") {
		if !inDictionary(part) {
			return false
		}
	}
	return true
}

// inDictionary reports whether the lower-case word w is in the list, as
// it is or spelt the American way: Indian judgments spell British
// ("labour", "defence", "organisation", "judgement", "programme"), and
// the list is American.
func inDictionary(w string) bool {
	words := dictionary()
	if _, ok := words[w]; ok {
		return true
	}
	american := w
	for _, r := range britishSpellings {
		if a := r.Replace(w); a != w {
			if _, ok := words[a]; ok {
				return true
			}
			american = r.Replace(american)
		}
	}
	_, ok := words[american]
	return ok
}

// britishSpellings turn a British spelling into the American one, each
// on its own; inDictionary also tries all of them together
// ("organisational").
var britishSpellings = []*strings.Replacer{
	strings.NewReplacer("isation", "ization", "ise", "ize", "ising", "izing", "yse", "yze", "ysing", "yzing"),
	strings.NewReplacer("our", "or"),
	strings.NewReplacer("ence", "ense"),
	strings.NewReplacer("tre", "ter", "tres", "ters"),
	strings.NewReplacer("lled", "led", "lling", "ling", "ller", "ler", "llor", "lor"),
	strings.NewReplacer("ogue", "og", "mme", "m", "dgement", "dgment", "cheque", "check", "ae", "e", "oe", "e", "grey", "gray", "tyre", "tire"),
}
