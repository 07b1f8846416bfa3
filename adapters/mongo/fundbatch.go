package mongo

import (
	"github.com/quarrydata/quarry/domain/holdings"
)

// A write of 13F filings is one batch (see batches). Rows and reports
// live in documents shared by many filings, so each carries the marks
// that bound when it is seen: from the publication of the write that
// stored it until that of the write that replaced its filing. A write
// keeps the rows and reports of the filings it replaces, marked replaced
// by it, beside the new ones, so that until it is published readers see
// the old version of a filing whole, and then the new one whole; it drops
// what no reader will see again (replaced by a published write, or
// written by one not published). The filing documents keep the version
// readers see (Prev) as the US filings do.

// marks bound when a row or a report is seen.
type marks struct {
	// Batch is the mark of the write that stored it.
	Batch string `bson:"b,omitempty"`
	// Until is the mark of the write that replaced its filing.
	Until string `bson:"x,omitempty"`
}

// seen reports whether a reader sees what carries m, given the marks not
// published.
func (m marks) seen(pending map[string]bool) bool {
	return !pending[m.Batch] && (m.Until == "" || pending[m.Until])
}

// storedHolding is a row as stored: its fields and its marks.
type storedHolding struct {
	Doc   holdingDoc `bson:",inline"`
	Marks marks      `bson:",inline"`
}

func (d thirteenFFilingDoc) mark() string                  { return d.Batch }
func (d thirteenFFilingDoc) previous() *thirteenFFilingDoc { return d.Prev }
func (d thirteenFFilingDoc) alone() thirteenFFilingDoc     { d.Prev = nil; return d }

// fundWrite is one write of filings: its mark, the marks pending before
// it, the filing documents held and the digests of the filings written.
type fundWrite struct {
	mark    string
	pending map[string]bool
	olds    map[string]thirteenFFilingDoc
	digests map[string]string
}

// changedThirteenFs returns the filings not held the same under a
// published mark, and the digest of each filing. A filing held without
// its rows was written before the lookup layout (fundholderpages.go) and
// is written again, so that loading the same files lays it out.
func changedThirteenFs(filings []holdings.Filing, olds map[string]thirteenFFilingDoc, pending map[string]bool) ([]holdings.Filing, map[string]string) {
	digests := map[string]string{}
	var out []holdings.Filing
	for _, f := range filings {
		v, err := withDigest(f)
		digests[f.Accession] = v.Digest
		if old, ok := olds[f.Accession]; ok && err == nil && old.Digest == v.Digest && !pending[old.Batch] && old.Rows != nil {
			continue
		}
		out = append(out, f)
	}
	return out, digests
}

// held returns the versions of a filing the store holds: its document's
// own and the one it keeps for readers.
func (w fundWrite) held(accession string) []thirteenFFilingDoc {
	old, ok := w.olds[accession]
	if !ok {
		return nil
	}
	out := []thirteenFFilingDoc{old.alone()}
	if old.Prev != nil {
		out = append(out, *old.Prev)
	}
	return out
}

// next returns the marks of a row or report of filing accession as the
// write leaves them, and whether it is kept: what the write added stays,
// what no reader will see again goes, and what replaced names is marked
// replaced by the write.
func (w fundWrite) next(accession string, m marks, replaced map[string]bool) (marks, bool) {
	switch {
	case m.Batch == w.mark:
		return m, true
	case w.pending[m.Batch]:
		return m, false
	case m.Until != "" && m.Until != w.mark && !w.pending[m.Until]:
		return m, false
	case replaced[accession]:
		m.Until = w.mark
	}
	return m, true
}

// rows returns a group's rows as the write leaves them (next), with added
// stored under the write's mark.
func (w fundWrite) rows(rows []storedHolding, replaced map[string]bool, added []*holdings.Holding) []storedHolding {
	out := make([]storedHolding, 0, len(rows)+len(added))
	for _, r := range rows {
		if m, ok := w.next(r.Doc.Accession, r.Marks, replaced); ok {
			r.Marks = m
			out = append(out, r)
		}
	}
	for _, h := range added {
		out = append(out, storedHolding{Doc: holdingDoc(*h), Marks: marks{Batch: w.mark}})
	}
	return out
}

// reports returns a fund's reports as the write leaves them (next), with
// added stored under the write's mark.
func (w fundWrite) reports(reports []reportDoc, replaced map[string]bool, added []reportDoc) []reportDoc {
	out := make([]reportDoc, 0, len(reports)+len(added))
	for _, r := range reports {
		if m, ok := w.next(r.Accession, r.Marks, replaced); ok {
			r.Marks = m
			out = append(out, r)
		}
	}
	for _, r := range added {
		r.Marks = marks{Batch: w.mark}
		out = append(out, r)
	}
	return out
}
