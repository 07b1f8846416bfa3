package mongo

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/quarrydata/quarry/domain/filing"
	"github.com/quarrydata/quarry/ports"
)

// Collections of the US filing datasets. Both are keyed by _id only (the
// accession number, the section id), the one filter FerretDB pushes down, so
// neither needs a secondary index.
const (
	filingsCollection  = "us_filings"
	sectionsCollection = "us_filing_sections"
	// writesCollection numbers the writes of sections, one document a
	// write (see writelog.go).
	writesCollection = "us_filing_section_writes"
	// filingPendingCollection holds the marks of the batches of filings
	// and sections not yet published (see batches).
	filingPendingCollection = "us_filing_pending"
)

type filingFileDoc struct {
	Name        string `bson:"name"`
	Role        string `bson:"role"`
	Stored      bool   `bson:"stored"`
	ContentType string `bson:"content_type"`
	SHA256      string `bson:"sha256,omitempty"`
	Size        int64  `bson:"size"`
}

type filingDoc struct {
	Accession       string          `bson:"_id"`
	CIK             string          `bson:"cik"`
	Ticker          string          `bson:"ticker"`
	Form            string          `bson:"form"`
	Filed           time.Time       `bson:"filed"`
	PrimaryDocument string          `bson:"primary_document"`
	Files           []filingFileDoc `bson:"files"`
	RetrievedAt     time.Time       `bson:"retrieved_at"`
	// Batch is the mark of the write that stored the filing: hidden while
	// us_filing_pending holds it. Filings written before marks have none.
	Batch string `bson:"b,omitempty"`
	// Digest sums the filing and the sections written with it, so that
	// writing them again unchanged writes nothing.
	Digest string `bson:"digest,omitempty"`
	// Prev is the version readers see until Batch is published.
	Prev *filingDoc `bson:"prev,omitempty"`
}

// storedSection is a section as stored: its fields, the sequence number
// of the write that last wrote it, that write's batch mark and the version
// readers see until it is published.
type storedSection struct {
	Doc   sectionDoc     `bson:",inline"`
	Seq   int64          `bson:"seq"`
	Batch string         `bson:"b,omitempty"`
	Prev  *storedSection `bson:"prev,omitempty"`
}

// sectionDoc mirrors filing.Section field for field, so the two convert
// directly and a new domain field fails to compile until it is stored.
type sectionDoc struct {
	ID          string    `bson:"_id"`
	Accession   string    `bson:"accession"`
	CIK         string    `bson:"cik"`
	Ticker      string    `bson:"ticker"`
	Form        string    `bson:"form"`
	Filed       time.Time `bson:"filed"`
	ItemNumber  string    `bson:"item_number"`
	ItemName    string    `bson:"item_name"`
	Text        string    `bson:"text"`
	RetrievedAt time.Time `bson:"retrieved_at"`
}

// Filings is the store of the US filing indexes and their item sections.
// Each write is a batch (see batches): a filing and its sections carry the
// write's mark and are hidden until it is published.
type Filings struct {
	filings, sections *mongodrv.Collection
	writes            writeLog
	batches           *batches
}

var (
	_ ports.FilingStore  = (*Filings)(nil)
	_ ports.SectionStore = (*Filings)(nil)
)

// NewFilings returns the filings and sections store of db.
func NewFilings(db *mongodrv.Database) *Filings {
	return &Filings{
		filings:  db.Collection(filingsCollection),
		sections: db.Collection(sectionsCollection),
		writes:   writeLog{c: db.Collection(writesCollection), what: "section"},
		batches:  newBatches(db.Collection(filingPendingCollection), "filing"),
	}
}

// Filing returns the filing with that accession number, or
// ports.ErrNotFound, also while the batch writing it is not published.
func (s *Filings) Filing(ctx context.Context, accession string) (filing.Filing, error) {
	var d filingDoc
	if err := s.filings.FindOne(ctx, bson.D{{Key: "_id", Value: accession}}).Decode(&d); err != nil {
		return filing.Filing{}, translate("find filing "+accession, err)
	}
	pending, err := s.batches.unpublished(ctx, marksOf(d))
	if err != nil {
		return filing.Filing{}, err
	}
	seen, ok := seenVersion(d, pending)
	if !ok {
		return filing.Filing{}, fmt.Errorf("mongo: find filing %s: %w: its write is not published", accession, ports.ErrNotFound)
	}
	return fromFilingDoc(seen), nil
}

// HoldsFilings reports whether any filing is held.
func (s *Filings) HoldsFilings(ctx context.Context) (bool, error) {
	return holdsAny(ctx, s.filings, "filings")
}

// sectionsBatch is how many sections are written between renewals of the
// write's registration.
const sectionsBatch = 256

// SectionsSince reads the sections written after mark a page at a time, up
// to the settled mark: the highest sequence number below which no write is
// under way, read before the sections are. The write numbers of the
// sections are read once, with their ids only, and each page's sections by
// _id (findByIDs): the filter on seq reads every section on FerretDB (and
// on MongoDB, which has no index on seq), so it is one scan for the whole
// read, not one a page, and none when no write has settled since mark,
// which a server's periodic refresh must not pay while nothing was written.
func (s *Filings) SectionsSince(ctx context.Context, mark ports.SectionMark, limit int, page func([]filing.Section, ports.SectionMark) error) (ports.SectionMark, error) {
	settled, err := s.writes.settled(ctx, time.Now())
	if err != nil {
		return mark, err
	}
	if mark != (ports.SectionMark{}) && mark.After == "" && settled <= mark.Write {
		return mark, nil
	}
	order, err := s.writtenAfter(ctx, mark, settled)
	if err != nil {
		return mark, err
	}
	end := mark
	if settled >= mark.Write {
		end = ports.SectionMark{Write: settled}
	}
	at := func(w sectionWrite) ports.SectionMark { return ports.SectionMark{Write: w.Seq, After: w.ID} }
	for chunk, next := range ports.SectionPages(order, at, end, limit) {
		if err := s.readPage(ctx, chunk, next, page); err != nil {
			return mark, err
		}
		mark = next
	}
	return end, nil
}

// sectionWrite is where a section stands in the order of writes: its id
// and the number of the write that last wrote it.
type sectionWrite struct {
	ID  string `bson:"_id"`
	Seq int64  `bson:"seq"`
}

// writtenAfter returns where the sections written after mark, up to write
// settled, stand in the order of writes, ordered so. Sections written
// before sequence numbers existed carry none (0); they come with the zero
// mark, which asks for everything.
func (s *Filings) writtenAfter(ctx context.Context, mark ports.SectionMark, settled int64) ([]sectionWrite, error) {
	filter := bson.D{}
	if mark != (ports.SectionMark{}) {
		filter = bson.D{{Key: "seq", Value: bson.D{{Key: "$gte", Value: mark.Write}, {Key: "$lte", Value: settled}}}}
	}
	cur, err := s.sections.Find(ctx, filter, options.Find().SetProjection(bson.D{{Key: "seq", Value: 1}}))
	if err != nil {
		return nil, translate("find section writes after a mark", err)
	}
	defer func() { _ = cur.Close(ctx) }()
	var out []sectionWrite
	for cur.Next(ctx) {
		var w sectionWrite
		if err := cur.Decode(&w); err != nil {
			return nil, translate("read section writes after a mark", err)
		}
		if w.Seq <= settled && mark.Precedes(w.Seq, w.ID) {
			out = append(out, w)
		}
	}
	if err := cur.Err(); err != nil {
		return nil, translate("read section writes after a mark", err)
	}
	slices.SortFunc(out, func(a, b sectionWrite) int {
		return cmp.Or(cmp.Compare(a.Seq, b.Seq), strings.Compare(a.ID, b.ID))
	})
	return out, nil
}

// readPage reads the sections of chunk by _id and passes them to page in
// the chunk's order, with next; a section is read as it is now, perhaps
// rewritten since, which a later read passes again.
func (s *Filings) readPage(ctx context.Context, chunk []sectionWrite, next ports.SectionMark, page func([]filing.Section, ports.SectionMark) error) error {
	ids := make([]string, len(chunk))
	for i, w := range chunk {
		ids[i] = w.ID
	}
	docs, err := findByIDs[storedSection](ctx, s.sections, "find section", ids)
	if err != nil {
		return err
	}
	byID := make(map[string]filing.Section, len(docs))
	for _, sec := range fromStoredSections(docs) {
		byID[sec.ID] = sec
	}
	secs := make([]filing.Section, 0, len(docs))
	for _, id := range ids {
		if sec, ok := byID[id]; ok {
			secs = append(secs, sec)
		}
	}
	return page(secs, next)
}

// SectionsByID returns the sections held under ids, ordered by id, without
// those of batches not published: the sections of one page of search
// hits, each read by its _id (findByIDs).
func (s *Filings) SectionsByID(ctx context.Context, ids []string) ([]filing.Section, error) {
	docs, err := findByIDs[storedSection](ctx, s.sections, "find section", ids)
	if err != nil {
		return nil, err
	}
	return s.published(ctx, docs)
}

// published returns the versions of docs readers see (seenVersion).
func (s *Filings) published(ctx context.Context, docs []storedSection) ([]filing.Section, error) {
	pending, err := s.batches.unpublished(ctx, marksOf(docs...))
	if err != nil {
		return nil, err
	}
	seen := make([]storedSection, 0, len(docs))
	for _, d := range docs {
		if v, ok := seenVersion(d, pending); ok {
			seen = append(seen, v)
		}
	}
	return fromStoredSections(seen), nil
}

// fromStoredSections returns the sections stored as docs.
func fromStoredSections(docs []storedSection) []filing.Section {
	out := make([]filing.Section, len(docs))
	for i, d := range docs {
		d.Doc.Filed, d.Doc.RetrievedAt = d.Doc.Filed.UTC(), d.Doc.RetrievedAt.UTC()
		out[i] = filing.Section(d.Doc)
	}
	return out
}

func toFilingDoc(f filing.Filing) filingDoc {
	files := make([]filingFileDoc, len(f.Files))
	for i, x := range f.Files {
		files[i] = filingFileDoc{Name: x.Name, Role: string(x.Role), Stored: x.Stored, ContentType: x.ContentType, SHA256: x.SHA256, Size: x.Size}
	}
	return filingDoc{
		Accession: f.Accession, CIK: f.CIK, Ticker: f.Ticker, Form: f.Form, Filed: f.Filed,
		PrimaryDocument: f.PrimaryDocument, Files: files, RetrievedAt: f.RetrievedAt,
	}
}

func fromFilingDoc(d filingDoc) filing.Filing {
	files := make([]filing.File, len(d.Files))
	for i, x := range d.Files {
		files[i] = filing.File{Name: x.Name, Role: filing.Role(x.Role), Stored: x.Stored, ContentType: x.ContentType, SHA256: x.SHA256, Size: x.Size}
	}
	return filing.Filing{
		Accession: d.Accession, CIK: d.CIK, Ticker: d.Ticker, Form: d.Form, Filed: d.Filed.UTC(),
		PrimaryDocument: d.PrimaryDocument, Files: files, RetrievedAt: d.RetrievedAt.UTC(),
	}
}
