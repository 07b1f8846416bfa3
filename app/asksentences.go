package app

import (
	"github.com/maypok86/otter/v2"
)

// sentenceMemoBytes bounds the documents whose sentences are kept, by about
// the memory they take (three times their text: the text, its spans and
// their stems).
const sentenceMemoBytes = 64 << 20

// sentenceMemo keeps each retrieved document's sentences as passages
// weighs them: splitting a section or judgment, and stemming every sentence
// of it, was most of a text question's CPU, and depends on the text alone.
// An entry is used only for the very text it was made from, compared on
// every use.
type sentenceMemo struct {
	entries *otter.Cache[string, *docSentences]
}

// docSentences is one document's text and its sentences.
type docSentences struct {
	text      string
	sentences []docSentence
}

// docSentence is one sentence of a document: its code-point range, the span
// as the text has it and as an answer says it, the content stems of what is
// said, and whether it reads as prose.
type docSentence struct {
	start, end  int
	span, said  string
	stems       []string
	proseEnough bool
}

func newSentenceMemo() *sentenceMemo {
	return &sentenceMemo{entries: otter.Must(&otter.Options[string, *docSentences]{
		MaximumWeight: sentenceMemoBytes,
		Weigher:       func(_ string, d *docSentences) uint32 { return uint32(min(3*len(d.text), 1<<31)) },
	})}
}

// of returns d's sentences, made once per document and text.
func (m *sentenceMemo) of(d retrieved) []docSentence {
	if e, ok := m.entries.GetIfPresent(d.id); ok && e.text == d.text {
		return e.sentences
	}
	rs := []rune(d.text)
	spans := d.split(d.text)
	e := &docSentences{text: d.text, sentences: make([]docSentence, len(spans))}
	for i, sp := range spans {
		span := string(rs[sp[0]:sp[1]])
		said := d.say(span)
		e.sentences[i] = docSentence{start: sp[0], end: sp[1], span: span, said: said, stems: contentStems(said), proseEnough: proseSentence(said)}
	}
	m.entries.Set(d.id, e)
	return e.sentences
}
