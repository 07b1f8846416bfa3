package mongo

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/quarrydata/quarry/domain/holdings"
)

// A write of filings rewrites every (CUSIP, period) document of
// us_fund_holdings its filings touch and lays each out for lookups
// (fundholderpages.go). It does so one document at a time, in CUSIP and
// period order, and sends what it has rewritten once that weighs
// holderWriteBytes, so that it holds one document, one CUSIP's ladder and
// a few megabytes of writes however many documents it rewrites: a popular
// security's document holds every fund's rows in it for the quarter, and
// holding them all (and FerretDB decoding them in bulk writes of 32) took
// most of a large run's memory. Everything is written under the write's
// mark, so readers still see the write whole or not at all.
//
// The documents are packed (packed.go) in field "b": FerretDB decodes a
// document of thousands of rows field by field, a binary as one string.
// A document written before packing (fields rows and reports) is read as
// it is and packed when a write next rewrites it.

// holderWriteBytes is how many bytes of packed documents a write of
// filings gathers before sending them.
var holderWriteBytes = 4 << 20

// holdingGroupDoc is a (CUSIP, period) document: every fund's rows in the
// security for the quarter, and the reports of every fund with rows in it.
type holdingGroupDoc struct {
	ID      string
	CUSIP   string
	Period  string
	Rows    []storedHolding
	Reports []reportDoc
}

// groupBody is what a group document packs.
type groupBody struct {
	Rows    []storedHolding `bson:"r"`
	Reports []reportDoc     `bson:"p,omitempty"`
}

// storedGroup is a group document as read: packed, or as written before
// packing.
type storedGroup struct {
	Packed  []byte          `bson:"b"`
	Rows    []storedHolding `bson:"rows"`
	Reports []reportDoc     `bson:"reports"`
}

// groupKey names a (CUSIP, period) document.
type groupKey struct{ cusip, period string }

func (k groupKey) id() string { return fundGroupID(k.cusip, k.period) }

func compareGroupKeys(a, b groupKey) int {
	return cmp.Or(cmp.Compare(a.cusip, b.cusip), cmp.Compare(a.period, b.period))
}

// groupChanges is what a write changes in the (CUSIP, period) documents:
// the rows it adds to each, the filings it replaces, and the fund report
// lists to copy into each.
type groupChanges struct {
	added    map[groupKey][]*holdings.Holding
	replaced map[string]bool
	// funds are the report lists, attached the ones touching each
	// document (as loaded or as rewritten), and now each list's CUSIPs.
	funds    map[string]*fundReportsDoc
	attached map[groupKey][]string
	now      map[string][]string
}

// changesOf gathers what the write changes and the documents it touches
// (the filings' CUSIPs now and in the versions held, and every CUSIP a
// rewritten report list names or named), in order.
func changesOf(filings []holdings.Filing, w fundWrite, funds map[string]*fundReportsDoc, before map[string][]string) (groupChanges, []groupKey) {
	c := groupChanges{added: map[groupKey][]*holdings.Holding{}, replaced: map[string]bool{},
		funds: funds, attached: map[groupKey][]string{}, now: map[string][]string{}}
	touched := map[groupKey]bool{}
	for i := range filings {
		f := &filings[i]
		c.replaced[f.Accession] = true
		for _, old := range w.held(f.Accession) {
			for _, cusip := range old.CUSIPs {
				touched[groupKey{cusip, old.ReportPeriod}] = true
			}
		}
		for j := range f.Holdings {
			h := &f.Holdings[j]
			k := groupKey{h.CUSIP, h.ReportPeriod}
			touched[k] = true
			c.added[k] = append(c.added[k], h)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(funds)) {
		d := funds[id]
		c.now[id] = d.cusips()
		for _, cusip := range slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(before[id]), c.now[id]...)))) {
			k := groupKey{cusip, d.Period}
			touched[k] = true
			c.attached[k] = append(c.attached[k], id)
		}
	}
	return c, slices.SortedFunc(maps.Keys(touched), compareGroupKeys)
}

// apply rewrites a loaded document as the write leaves it: the replaced
// filings' rows marked, the new ones added (fundWrite.rows), and the
// report lists of the funds touching it copied in, or out of a document
// a fund no longer reports.
func (c groupChanges) apply(g *holdingGroupDoc, w fundWrite) {
	k := groupKey{g.CUSIP, g.Period}
	g.Rows = w.rows(g.Rows, c.replaced, c.added[k])
	for _, id := range c.attached[k] {
		d := c.funds[id]
		g.Reports = slices.DeleteFunc(g.Reports, func(r reportDoc) bool { return r.FundCIK == d.FundCIK })
		if !slices.Contains(c.now[id], g.CUSIP) {
			continue
		}
		for _, r := range d.Reports {
			r.CUSIPs = nil
			g.Reports = append(g.Reports, r)
		}
	}
	slices.SortFunc(g.Reports, func(a, b reportDoc) int {
		return cmp.Or(cmp.Compare(a.FundCIK, b.FundCIK), cmp.Compare(a.FilingDate, b.FilingDate), cmp.Compare(a.Accession, b.Accession))
	})
}

// rewriteGroups rewrites and lays out every (CUSIP, period) document the
// write touches, one at a time (see above).
func (s *FundHoldings) rewriteGroups(ctx context.Context, filings []holdings.Filing, w fundWrite, funds map[string]*fundReportsDoc, before map[string][]string) error {
	changes, keys := changesOf(filings, w, funds, before)
	r := &groupRewrite{s: s, w: w}
	for _, k := range keys {
		g, err := s.loadGroup(ctx, k)
		if err != nil {
			return err
		}
		changes.apply(g, w)
		if err := r.add(ctx, g); err != nil {
			return err
		}
	}
	if err := r.finishCUSIP(); err != nil {
		return err
	}
	return r.flush(ctx)
}

// loadGroup reads a (CUSIP, period) document; one not stored is empty.
func (s *FundHoldings) loadGroup(ctx context.Context, k groupKey) (*holdingGroupDoc, error) {
	g := &holdingGroupDoc{ID: k.id(), CUSIP: k.cusip, Period: k.period}
	var d storedGroup
	err := fundFindByID(ctx, s.fundCollection(fundHoldingsCollection), g.ID, &d)
	switch {
	case errors.Is(err, mongodrv.ErrNoDocuments):
		return g, nil
	case err != nil:
		return nil, translate("find fund holdings "+g.ID, err)
	case d.Packed == nil:
		g.Rows, g.Reports = d.Rows, d.Reports
		return g, nil
	}
	var body groupBody
	if err := unpackBSON(d.Packed, &body); err != nil {
		return nil, fmt.Errorf("mongo: unpack fund holdings %s: %w", g.ID, err)
	}
	g.Rows, g.Reports = body.Rows, body.Reports
	return g, nil
}

// groupRewrite gathers a write's rewritten documents, pages and ladders,
// and sends them in that order once they weigh holderWriteBytes: a
// CUSIP's ladder is gathered once all its periods are laid out, after
// their pages, and the pages no reader will use again are deleted after
// the ladder that no longer names them.
type groupRewrite struct {
	s *FundHoldings
	w fundWrite
	// cusip is the security being laid out, and ladder and stale its
	// ladder and the pages it no longer names, so far.
	cusip  string
	ladder ladderDoc
	stale  []mongodrv.WriteModel
	// What is gathered and not sent yet, and its weight.
	groups, pages, ladders, deletes []mongodrv.WriteModel
	held                            int
}

// add gathers a rewritten document and its layout.
func (r *groupRewrite) add(ctx context.Context, g *holdingGroupDoc) error {
	if g.CUSIP != r.cusip {
		if err := r.finishCUSIP(); err != nil {
			return err
		}
		l, err := r.s.ladderOf(ctx, g.CUSIP)
		if err != nil {
			return err
		}
		r.cusip, r.ladder = g.CUSIP, l
	}
	if len(g.Rows) == 0 {
		r.groups = append(r.groups, deleteByID(g.ID))
	} else {
		d, err := pack(g.ID, groupBody{Rows: g.Rows, Reports: g.Reports})
		if err != nil {
			return err
		}
		r.groups = append(r.groups, fundReplaceByID(g.ID, d))
		r.held += len(d.Packed)
	}
	v, dead := r.ladder.period(g.Period).settled(r.w.pending)
	for _, id := range dead.pageIDs(g.CUSIP, g.Period) {
		r.stale = append(r.stale, deleteByID(id))
	}
	next, docs, err := layOut(g, r.w)
	if err != nil {
		return err
	}
	v.Next = &next
	r.ladder.set(v)
	for _, d := range docs {
		r.pages = append(r.pages, fundReplaceByID(d.ID, d))
		r.held += len(d.Packed)
	}
	if r.held < holderWriteBytes {
		return nil
	}
	return r.flush(ctx)
}

// finishCUSIP gathers the ladder of the CUSIP laid out and the deletion of
// the pages it no longer names.
func (r *groupRewrite) finishCUSIP() error {
	if r.cusip == "" {
		return nil
	}
	d, err := pack(r.cusip, r.ladder)
	if err != nil {
		return err
	}
	r.ladders = append(r.ladders, fundReplaceByID(r.cusip, d))
	r.deletes = append(r.deletes, r.stale...)
	r.held += len(d.Packed)
	r.cusip, r.ladder, r.stale = "", ladderDoc{}, nil
	return nil
}

// flush sends what is gathered: documents, pages, ladders, then deletions
// of pages.
func (r *groupRewrite) flush(ctx context.Context) error {
	writes := []struct {
		c      string
		op     string
		models []mongodrv.WriteModel
	}{
		{fundHoldingsCollection, "replace fund holdings", r.groups},
		{holderPagesCollection, "write fund holder pages", r.pages},
		{holderLaddersCollection, "write fund holder ladders", r.ladders},
		{holderPagesCollection, "delete fund holder pages", r.deletes},
	}
	for _, wr := range writes {
		if err := bulkWrite(ctx, r.s.fundCollection(wr.c), wr.op, wr.models); err != nil {
			return err
		}
	}
	r.groups, r.pages, r.ladders, r.deletes, r.held = nil, nil, nil, nil, 0
	return nil
}
