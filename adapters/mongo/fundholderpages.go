package mongo

import (
	"cmp"
	"container/heap"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/quarrydata/quarry/domain/holdings"
	"github.com/quarrydata/quarry/ports"
)

// A lookup of a security's holders reads its ladder and the pages its
// answer reaches, each by _id:
//
//   - us_fund_holder_pages: a (CUSIP, period)'s positions (a filing's rows
//     of one position combined, holdings.Combine) in the lookup's order
//     (holdings.ComparePositions), holderPageSize to a document,
//     "037833100|2023-12-31|0", packed. Each position carries the filing date
//     from which a later complete report of its fund supersedes it
//     (holdings.SupersededOn), so that any as_of is answered from the
//     position alone;
//   - us_fund_holder_ladders: one document per CUSIP, packed, listing for
//     each period the first position of each page and how many positions
//     are visible from each filing date on (the total of a lookup).
//
// A write lays out each period it touches under its batch mark (page _ids
// carry it) as the period's next version, beside the version readers see,
// and a reader takes the next one once its mark is published (fundbatch.go),
// so that a period is seen whole before or after a write. The next write
// of the period settles it: a published next version becomes the one seen
// and the pages of the one it replaces are deleted; one left by a write
// that stopped is dropped.
//
// A lookup merges the pages of the periods within its bounds, largest value
// first, and reads a page only once its first position would be next: a
// first page of Apple's holders over 40 quarters reads the ladder and
// about one page a quarter, however many funds held it. Deep offsets read
// every position before them. Pages and ladders are packed (packed.go).
const (
	holderPagesCollection   = "us_fund_holder_pages"
	holderLaddersCollection = "us_fund_holder_ladders"
)

// holderPageSize is how many positions a page document holds.
var holderPageSize = 128

// positionDoc is one position of a page, with the filing date a later
// complete report supersedes it from, if any.
type positionDoc struct {
	Holding holdingDoc `bson:"h"`
	Until   string     `bson:"u,omitempty"`
}

// visibleAt reports whether the position is part of its fund's current
// report at t (see holdings.Current).
func (p positionDoc) visibleAt(t time.Time) bool {
	return holdings.KnownOn(p.Holding.FilingDate, t) && (p.Until == "" || !holdings.KnownOn(p.Until, t))
}

type pageBody struct {
	Positions []positionDoc `bson:"p"`
}

// packedDoc is a document whose contents are one packed BSON value.
type packedDoc struct {
	ID     string `bson:"_id"`
	Packed []byte `bson:"b"`
}

type ladderDoc struct {
	Periods []periodVersions `bson:"p"`
}

// periodVersions is a period's layout as readers see it, and the one a
// write laid out that readers see once it is published.
type periodVersions struct {
	Period string        `bson:"period"`
	Seen   periodLadder  `bson:"seen"`
	Next   *periodLadder `bson:"next,omitempty"`
}

// periodLadder is one layout of a (CUSIP, period).
type periodLadder struct {
	// Mark is the batch of the write that laid it out.
	Mark string `bson:"mark,omitempty"`
	// Heads are the first position of each page, in page order.
	Heads []pageHead `bson:"heads"`
	// Steps count the positions visible from each filing date on, by date.
	Steps []countStep `bson:"steps"`
}

// seenBy returns the layout a reader sees, given the marks not published.
func (v periodVersions) seenBy(pending map[string]bool) periodLadder {
	if v.Next != nil && !pending[v.Next.Mark] {
		return *v.Next
	}
	return v.Seen
}

// pageHead is what orders a page's first position among others.
type pageHead struct {
	Value     int64  `bson:"v"`
	FundCIK   string `bson:"f"`
	Accession string `bson:"a"`
	Row       int64  `bson:"r"`
}

func headOf(h holdingDoc) pageHead {
	return pageHead{Value: h.Value, FundCIK: h.FundCIK, Accession: h.Accession, Row: h.Row}
}

func (h pageHead) holding() holdings.Holding {
	return holdings.Holding{Value: h.Value, FundCIK: h.FundCIK, Accession: h.Accession, Row: h.Row}
}

type countStep struct {
	Date  string `bson:"d"`
	Count int    `bson:"n"`
}

// countAt returns how many of the period's positions are visible at t.
func (l periodLadder) countAt(t time.Time) int {
	n := 0
	for _, st := range l.Steps {
		if !holdings.KnownOn(st.Date, t) {
			break
		}
		n = st.Count
	}
	return n
}

func holderPageID(cusip, period, mark string, i int) string {
	return cusip + "|" + period + "|" + mark + "|" + strconv.Itoa(i)
}

// pageIDs returns the _ids of the layout's pages.
func (l periodLadder) pageIDs(cusip, period string) []string {
	out := make([]string, len(l.Heads))
	for i := range l.Heads {
		out[i] = holderPageID(cusip, period, l.Mark, i)
	}
	return out
}

// pack packs v into a document with id.
func pack(id string, v any) (packedDoc, error) {
	b, err := packBSON(v)
	if err != nil {
		return packedDoc{}, fmt.Errorf("mongo: pack %s: %w", id, err)
	}
	return packedDoc{ID: id, Packed: b}, nil
}

// readPacked reads the packed document id into out, reporting whether it
// exists.
func readPacked(ctx context.Context, c *mongodrv.Collection, id string, out any) (bool, error) {
	var d packedDoc
	err := fundFindByID(ctx, c, id, &d)
	if errors.Is(err, mongodrv.ErrNoDocuments) {
		return false, nil
	}
	if err != nil {
		return false, translate("find "+id, err)
	}
	if err := unpackBSON(d.Packed, out); err != nil {
		return false, fmt.Errorf("mongo: unpack %s: %w", id, err)
	}
	return true, nil
}

// rowsBody is a filing's rows, packed into its document.
type rowsBody struct {
	Rows []holdingDoc `bson:"r"`
}

// packRows packs a filing's rows for its document.
func packRows(rows []holdings.Holding) ([]byte, error) {
	body := rowsBody{Rows: make([]holdingDoc, len(rows))}
	for i, h := range rows {
		body.Rows[i] = holdingDoc(h)
	}
	b, err := packBSON(body)
	if err != nil {
		return nil, fmt.Errorf("mongo: pack 13F rows: %w", err)
	}
	return b, nil
}

// ladderOf reads the CUSIP's ladder; a CUSIP without one has none.
func (s *FundHoldings) ladderOf(ctx context.Context, cusip string) (ladderDoc, error) {
	var l ladderDoc
	_, err := readPacked(ctx, s.fundCollection(holderLaddersCollection), cusip, &l)
	return l, err
}

// settled returns the period as a new write finds it, the next version
// published made the one seen or the one a stopped write left dropped, and
// the layout no reader will use again.
func (v periodVersions) settled(pending map[string]bool) (periodVersions, periodLadder) {
	if v.Next == nil {
		return v, periodLadder{}
	}
	next := *v.Next
	v.Next = nil
	if pending[next.Mark] {
		return v, next
	}
	dead := v.Seen
	v.Seen = next
	return v, dead
}

func deleteByID(id string) mongodrv.WriteModel {
	return mongodrv.NewDeleteOneModel().SetFilter(bson.D{{Key: "_id", Value: id}})
}

// period returns the ladder's entry for period, empty when it has none.
func (l *ladderDoc) period(period string) periodVersions {
	for _, p := range l.Periods {
		if p.Period == period {
			return p
		}
	}
	return periodVersions{Period: period}
}

// set replaces the entry of v's period and keeps the periods in order.
func (l *ladderDoc) set(v periodVersions) {
	l.Periods = slices.DeleteFunc(l.Periods, func(p periodVersions) bool { return p.Period == v.Period })
	l.Periods = append(l.Periods, v)
	slices.SortFunc(l.Periods, func(a, b periodVersions) int { return cmp.Compare(a.Period, b.Period) })
}

// layOut returns a (CUSIP, period)'s layout as readers will see it once
// the write is published, and its pages, packed.
func layOut(g *holdingGroupDoc, w fundWrite) (periodLadder, []packedDoc, error) {
	var reports []holdings.Report
	for _, r := range g.Reports {
		if r.Marks.seen(w.pending) {
			reports = append(reports, r.report())
		}
	}
	until := holdings.SupersededOn(reports)
	var rows []holdings.Holding
	for _, r := range g.Rows {
		if r.Marks.seen(w.pending) {
			rows = append(rows, holdings.Holding(r.Doc))
		}
	}
	positions := holdings.Combine(rows)
	slices.SortFunc(positions, holdings.ComparePositions)
	entry := periodLadder{Mark: w.mark, Steps: countSteps(positions, until)}
	var docs []packedDoc
	for start := 0; start < len(positions); start += holderPageSize {
		var body pageBody
		for _, h := range positions[start:min(start+holderPageSize, len(positions))] {
			body.Positions = append(body.Positions, positionDoc{Holding: holdingDoc(h), Until: until[h.Accession]})
		}
		d, err := pack(holderPageID(g.CUSIP, g.Period, w.mark, len(docs)), body)
		if err != nil {
			return periodLadder{}, nil, err
		}
		entry.Heads = append(entry.Heads, headOf(body.Positions[0].Holding))
		docs = append(docs, d)
	}
	return entry, docs, nil
}

// countSteps counts the positions visible from each filing date on: each
// is visible from its filing date until the date it is superseded on.
func countSteps(positions []holdings.Holding, until map[string]string) []countStep {
	delta := map[string]int{}
	for _, h := range positions {
		delta[h.FilingDate]++
		if u, ok := until[h.Accession]; ok {
			delta[u]--
		}
	}
	var steps []countStep
	n := 0
	for _, d := range slices.Sorted(maps.Keys(delta)) {
		n += delta[d]
		steps = append(steps, countStep{Date: d, Count: n})
	}
	return steps
}

// errPageGone reports a page deleted after its ladder was read: a write
// settled the period meanwhile, and the ladder is read again.
var errPageGone = errors.New("fund holder page deleted under its reader")

// FundHolders reads the page the query asks for: a filing's rows from its
// document, or else the CUSIP's ladder and the pages the answer reaches.
func (s *FundHoldings) FundHolders(ctx context.Context, cusip string, q holdings.Query) ([]holdings.Holding, int, error) {
	if q.Accession != "" {
		return s.filingHolders(ctx, cusip, q)
	}
	for range 3 {
		page, total, err := s.holdersPage(ctx, cusip, q)
		if !errors.Is(err, errPageGone) {
			return page, total, err
		}
	}
	return nil, 0, fmt.Errorf("mongo: fund holders of %s: %w: %w", cusip, ports.ErrUnavailable, errPageGone)
}

// holdersPage merges the pages of the periods within the query's bounds,
// reading each only when its first position is next.
func (s *FundHoldings) holdersPage(ctx context.Context, cusip string, q holdings.Query) ([]holdings.Holding, int, error) {
	l, err := s.ladderOf(ctx, cusip)
	if err != nil {
		return nil, 0, err
	}
	pending, err := s.batches.unpublished(ctx, func(yield func(string) bool) {
		for _, p := range l.Periods {
			if p.Next != nil && !yield(p.Next.Mark) {
				return
			}
		}
	})
	if err != nil {
		return nil, 0, err
	}
	var queue holderQueue
	total := 0
	for _, p := range l.Periods {
		if (q.From != "" && p.Period < q.From) || (q.To != "" && p.Period > q.To) {
			continue
		}
		v := p.seenBy(pending)
		total += v.countAt(q.AsOf)
		for i, id := range v.pageIDs(cusip, p.Period) {
			queue = append(queue, holderCursor{head: v.Heads[i].holding(), page: id})
		}
	}
	heap.Init(&queue)
	want := q.Offset + q.Limit
	var out []holdings.Holding
	for queue.Len() > 0 && len(out) < want {
		c := heap.Pop(&queue).(holderCursor)
		if c.page == "" {
			out = append(out, c.head)
			continue
		}
		var body pageBody
		found, err := readPacked(ctx, s.fundCollection(holderPagesCollection), c.page, &body)
		if err != nil {
			return nil, 0, err
		}
		if !found {
			return nil, 0, errPageGone
		}
		for _, p := range body.Positions {
			if p.visibleAt(q.AsOf) {
				heap.Push(&queue, holderCursor{head: holdings.Holding(p.Holding)})
			}
		}
	}
	return out[min(q.Offset, len(out)):], total, nil
}

// filingHolders selects from the rows in the CUSIP of the filing's version
// readers see.
func (s *FundHoldings) filingHolders(ctx context.Context, cusip string, q holdings.Query) ([]holdings.Holding, int, error) {
	var d thirteenFFilingDoc
	err := fundFindByID(ctx, s.fundCollection(thirteenFFilingCollection), q.Accession, &d)
	if errors.Is(err, mongodrv.ErrNoDocuments) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, translate("find 13F filing "+q.Accession, err)
	}
	pending, err := s.batches.unpublished(ctx, marksOf(d))
	if err != nil {
		return nil, 0, err
	}
	seen, ok := seenVersion(d, pending)
	if !ok || seen.Rows == nil {
		return nil, 0, nil
	}
	var body rowsBody
	if err := unpackBSON(seen.Rows, &body); err != nil {
		return nil, 0, fmt.Errorf("mongo: unpack 13F rows of %s: %w", q.Accession, err)
	}
	var rows []holdings.Holding
	for _, r := range body.Rows {
		if r.CUSIP == cusip {
			rows = append(rows, holdings.Holding(r))
		}
	}
	page, total := holdings.Select(rows, nil, q)
	return page, total, nil
}

// holderCursor is a position, or a page not read yet under its first
// position.
type holderCursor struct {
	head holdings.Holding
	page string
}

// holderQueue orders cursors as a lookup pages positions; a page comes
// before its own first position, which is not in the queue until the page
// is read.
type holderQueue []holderCursor

func (q holderQueue) Len() int { return len(q) }
func (q holderQueue) Less(i, j int) bool {
	if c := holdings.ComparePositions(q[i].head, q[j].head); c != 0 {
		return c < 0
	}
	return q[i].page != ""
}
func (q holderQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *holderQueue) Push(x any)   { *q = append(*q, x.(holderCursor)) }
func (q *holderQueue) Pop() any {
	old := *q
	c := old[len(old)-1]
	*q = old[:len(old)-1]
	return c
}
