package ask

import (
	"unsafe"

	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/domain/question"
)

// parsed is what the grammar (domain/question) reads in a question: whether
// it asks for a person's identifier, the listing it names, and the figure
// it asks for. It depends on the question's text alone.
type parsed struct {
	personal  bool
	listing   string
	isListing bool
	figure    question.Figure
	isFigure  bool
	// price, holders, index and judgment are what a question asks of a
	// stored record (a day's prices, a 13F position, a filing's index, a
	// judgment's fields), each read when its is... flag is set.
	price      question.Price
	isPrice    bool
	holders    question.Holders
	isHolders  bool
	index      question.FilingIndex
	isIndex    bool
	judgment   string
	isJudgment bool
}

// parse reads q with the grammar; a question asking for a person's
// identifier is read no further.
func parse(q string) parsed {
	var p parsed
	if p.personal = question.AsksPersonalIdentifier(q); p.personal {
		return p
	}
	p.listing, p.isListing = question.ListingSubject(q)
	p.figure, p.isFigure = question.ParseFigure(q)
	p.price, p.isPrice = question.ParsePrice(q)
	p.holders, p.isHolders = question.ParseHolders(q)
	p.index, p.isIndex = question.ParseFilingIndex(q)
	p.judgment, p.isJudgment = question.JudgmentField(q)
	return p
}

// parseMemo keeps each question's parse: the grammar's regular expressions
// (some forty passes over the question) were a third of a figure
// question's CPU, and the same questions are asked again and again. An
// entry is used only for the very question it was read from.
type parseMemo struct {
	memo *readcache.Memo[string, parsed]
}

// newParseMemo keeps parses in shared, nowhere when it is nil.
func newParseMemo(shared *readcache.Cache) parseMemo {
	return parseMemo{memo: readcache.NewMemo(shared, func(a, b string) bool { return a == b }, parsedWeight)}
}

// of returns q's parse, read once per question. It is shared: the caller
// must not change it.
func (m parseMemo) of(q string) parsed {
	return m.memo.Get(q, q, parse)
}

// parsedWeight is the bytes an entry holds: the question, as key and as
// source, and what was read from it.
func parsedWeight(q string, p parsed) int {
	f := p.figure
	n := 2*len(q) + int(unsafe.Sizeof(p)) + len(p.listing) + len(f.Field) + len(f.Metric) +
		cap(f.Periods)*int(unsafe.Sizeof(question.Period{}))
	for _, c := range f.Companies {
		n += int(unsafe.Sizeof(c)) + len(c)
	}
	for _, per := range f.Periods {
		n += len(per.End)
	}
	for _, d := range p.price.Days {
		n += int(unsafe.Sizeof(d)) + len(d)
	}
	for _, f := range p.price.Fields {
		n += int(unsafe.Sizeof(f)) + len(f)
	}
	return n + len(p.holders.Fund) + len(p.holders.Period) + len(p.index.Accession) + len(p.judgment)
}
