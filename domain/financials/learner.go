package financials

import (
	"maps"
	"slices"
	"time"
)

// learner holds a company's facts as known at the end of one filing date,
// and learns the next date's: what Know selects, kept up to date rather
// than selected again for every date.
type learner struct {
	// days are the filing dates in order, byDay each date's facts in the
	// company's order.
	days   []string
	byDay  map[string][]Fact
	labels labels
	// best is the known fact of each key (KnownAt).
	best map[factKey]Fact
	// counts are the known amounts per currency, currency the most used.
	counts   map[string]int
	currency string
	// kinds classifies each known span (Known.periods); closes holds, per
	// period kind, the ends of the known durations of that kind.
	kinds  map[Span]Period
	closes map[Period]map[string]bool
	// ends are the sorted ends of the known periods of one to four fiscal
	// quarters (periodEnds), isEnd the same as a set.
	ends  []string
	isEnd map[string]bool
	// series are the known facts per concept and unit, by end then start,
	// as trailingRows groups them.
	series map[[2]string][]Fact
	// byEnd lists the known keys of each end.
	byEnd map[string][]factKey
}

// change is what learning one filing date changed.
type change struct {
	// keys are the keys whose known fact is new or replaced.
	keys []factKey
	// closes lists, per period kind, the ends that newly close a known
	// duration of that kind.
	closes map[Period][]string
	// currency reports that the reporting currency changed.
	currency bool
}

func newLearner(c Company) *learner {
	l := &learner{
		byDay: map[string][]Fact{}, labels: labelsOf(c.Facts), best: map[factKey]Fact{},
		counts: map[string]int{}, kinds: map[Span]Period{},
		closes: map[Period]map[string]bool{Annual: {}, Quarterly: {}},
		isEnd:  map[string]bool{}, series: map[[2]string][]Fact{}, byEnd: map[string][]factKey{},
	}
	for _, f := range c.Facts {
		// As KnownAt: a fact without a YYYY-MM-DD filing date is never known.
		if len(f.Filed) != len(time.DateOnly) {
			continue
		}
		if _, ok := l.byDay[f.Filed]; !ok {
			l.days = append(l.days, f.Filed)
		}
		l.byDay[f.Filed] = append(l.byDay[f.Filed], f)
	}
	slices.Sort(l.days)
	return l
}

// learn adds the facts filed on day d, which follows every day learnt
// before, and says what changed.
func (l *learner) learn(d string) change {
	ch := change{closes: map[Period][]string{}}
	for _, f := range l.byDay[d] {
		k := factKey{f.Concept, f.Unit, f.Start, f.End}
		cur, known := l.best[k]
		if known && !later(f, cur) {
			continue
		}
		l.best[k] = f
		ch.keys = append(ch.keys, k)
		if known {
			l.replace(f)
		} else {
			l.add(f, k, &ch)
		}
	}
	before := l.currency
	l.currency = mostUsed(l.counts)
	ch.currency = l.currency != before
	return ch
}

// add files a fact of a key not known before.
func (l *learner) add(f Fact, k factKey, ch *change) {
	if c, ok := Currency(f.Unit); ok {
		l.counts[c]++
	}
	s := Span{f.Start, f.End}
	if _, done := l.kinds[s]; !done {
		kind, _ := classify(f.Start, f.End)
		l.kinds[s] = kind
		if closes, ok := l.closes[kind]; ok && !closes[f.End] {
			closes[f.End] = true
			ch.closes[kind] = append(ch.closes[kind], f.End)
		}
	}
	if _, ok := quarters(f.Start, f.End); ok && !l.isEnd[f.End] {
		l.isEnd[f.End] = true
		at, _ := slices.BinarySearch(l.ends, f.End)
		l.ends = slices.Insert(l.ends, at, f.End)
	}
	sk := [2]string{f.Concept, f.Unit}
	at, _ := slices.BinarySearchFunc(l.series[sk], f, compareSpans)
	l.series[sk] = slices.Insert(l.series[sk], at, f)
	l.byEnd[f.End] = append(l.byEnd[f.End], k)
}

// replace puts a later filing's fact in place of the one known for its key.
func (l *learner) replace(f Fact) {
	s := l.series[[2]string{f.Concept, f.Unit}]
	at, _ := slices.BinarySearchFunc(s, f, compareSpans)
	s[at] = f
}

// compareSpans orders facts of one concept and unit as KnownAt does: by
// end, then start.
func compareSpans(a, b Fact) int {
	if a.End != b.End {
		if a.End < b.End {
			return -1
		}
		return 1
	}
	switch {
	case a.Start < b.Start:
		return -1
	case a.Start > b.Start:
		return 1
	}
	return 0
}

// fiscalYearAt is fiscalYearAt over the known facts ending at end.
func (l *learner) fiscalYearAt(end string) int {
	return fiscalYearAt(l.labels, func(yield func(Fact) bool) {
		for _, k := range l.byEnd[end] {
			if !yield(l.best[k]) {
				return
			}
		}
	}, end)
}

// endsWithin returns the known period ends from first to last, inclusive.
func (l *learner) endsWithin(first, last string) []string {
	from, _ := slices.BinarySearch(l.ends, first)
	to, found := slices.BinarySearch(l.ends, last)
	if found {
		to++
	}
	if to < from {
		return nil
	}
	return l.ends[from:to]
}

// book keeps one statement of one period kind as known so far, and writes
// down what each filing date changes in it.
type book struct {
	st       Statement
	p        Period
	fields   []Field
	concepts map[string]bool
	// seen holds the spans of the known facts of the statement's concepts,
	// the periods spans can list.
	seen map[Span]bool
	rows map[Span]Row
}

func newBook(st Statement, p Period) *book {
	b := &book{st: st, p: p, fields: FieldsOf(st), concepts: map[string]bool{}, seen: map[Span]bool{}, rows: map[Span]Row{}}
	for _, f := range b.fields {
		for _, c := range f.Concepts {
			b.concepts[c] = true
		}
	}
	return b
}

// update rebuilds the rows the day's change can touch and returns what
// differs from before, if anything does.
func (b *book) update(l *learner, ch change, d string) (Version, bool) {
	v := Version{Filed: d}
	for _, s := range b.affected(l, ch) {
		row, ok := b.row(l, s)
		old, had := b.rows[s]
		switch {
		case ok && (!had || !sameRow(old, row)):
			b.rows[s] = row
			v.Rows = append(v.Rows, row)
		case !ok && had:
			delete(b.rows, s)
			v.Gone = append(v.Gone, s)
		}
	}
	return v, len(v.Rows) > 0 || len(v.Gone) > 0
}

// affected lists, in order, the rows whose inputs the change touched.
func (b *book) affected(l *learner, ch change) []Span {
	set := map[Span]bool{}
	if b.p == TTM {
		b.trailingAffected(l, ch, set)
	} else {
		b.periodAffected(l, ch, set)
	}
	out := slices.Collect(maps.Keys(set))
	slices.SortFunc(out, func(a, b Span) int {
		return compareSpans(Fact{Start: a.Start, End: a.End}, Fact{Start: b.Start, End: b.End})
	})
	return out
}

// periodAffected adds the spans of the statement's changed facts, every
// span when the currency changed, and, for a balance sheet, the instants
// that came to close a period of the book's kind.
func (b *book) periodAffected(l *learner, ch change, set map[Span]bool) {
	for _, k := range ch.keys {
		if b.concepts[k.concept] {
			s := Span{k.start, k.end}
			b.seen[s], set[s] = true, true
		}
	}
	if ch.currency {
		maps.Copy(set, b.seen)
	}
	if b.st == Balance {
		for _, e := range ch.closes[b.p] {
			if s := (Span{End: e}); b.seen[s] {
				set[s] = true
			}
		}
	}
}

// trailingAffected adds the ends of the changed facts (a balance, a
// reported twelve months, the fiscal year's label) and, for a flow, every
// end whose trailing amount can cross a changed period of the statement:
// those from its end to two years after its start (see graph).
func (b *book) trailingAffected(l *learner, ch change, set map[Span]bool) {
	if ch.currency {
		for _, e := range l.ends {
			set[Span{End: e}] = true
		}
		return
	}
	for _, k := range ch.keys {
		if l.isEnd[k.end] {
			set[Span{End: k.end}] = true
		}
		if b.st == Balance || !b.concepts[k.concept] {
			continue
		}
		if _, ok := quarters(k.start, k.end); !ok {
			continue
		}
		for _, e := range l.endsWithin(k.end, daysAfter(k.start, 2*(maxYearDays+1))) {
			set[Span{End: e}] = true
		}
	}
}

// row builds the book's row of one span from the known facts, as Statement
// does; false when the span has none.
func (b *book) row(l *learner, s Span) (Row, bool) {
	if b.p == TTM {
		return b.trailingRow(l, s.End)
	}
	if b.st == Balance && (s.Start != "" || !l.closes[b.p][s.End]) || b.st != Balance && l.kinds[s] != b.p {
		return Row{}, false
	}
	row, ok := buildRow(l.best, b.fields, s, l.currency)
	if ok {
		row.FiscalYear, row.FiscalPeriod = l.labels.label(row.Accession, row.End, b.p)
	}
	return row, ok
}

// trailingRow builds the trailing twelve months row ending at end, as
// trailingRows does.
func (b *book) trailingRow(l *learner, end string) (Row, bool) {
	var row Row
	var ok bool
	if b.st == Balance {
		row, ok = buildRow(l.best, b.fields, Span{End: end}, l.currency)
	} else {
		row, ok = trailingRow(l.series, b.fields, end, l.currency)
	}
	if ok {
		row.FiscalYear, row.FiscalPeriod = l.fiscalYearAt(end), "TTM"
	}
	return row, ok
}

// sameRow reports whether two rows show the same.
func sameRow(a, b Row) bool {
	return a.Start == b.Start && a.End == b.End && a.FiscalYear == b.FiscalYear && a.FiscalPeriod == b.FiscalPeriod &&
		a.Currency == b.Currency && a.Accession == b.Accession && a.Filed == b.Filed && maps.Equal(a.Values, b.Values)
}
