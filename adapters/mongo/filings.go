package mongo

import (
	"cmp"
	"context"
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
	// write (see sectionseq.go).
	writesCollection = "us_filing_section_writes"
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
}

// storedSection is a section as stored: its fields and the sequence number
// of the write that last wrote it.
type storedSection struct {
	Doc sectionDoc `bson:",inline"`
	Seq int64      `bson:"seq"`
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
type Filings struct {
	filings, sections, writes *mongodrv.Collection
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
		writes:   db.Collection(writesCollection),
	}
}

// Filing returns the filing with that accession number, or ports.ErrNotFound.
func (s *Filings) Filing(ctx context.Context, accession string) (filing.Filing, error) {
	var d filingDoc
	if err := s.filings.FindOne(ctx, bson.D{{Key: "_id", Value: accession}}).Decode(&d); err != nil {
		return filing.Filing{}, translate("find filing "+accession, err)
	}
	return fromFilingDoc(d), nil
}

// UpsertFilings replaces filings by accession number with ordered bulk
// writes; without transactions a failed batch may be partly applied, and
// applying it again completes it.
func (s *Filings) UpsertFilings(ctx context.Context, fs []filing.Filing) error {
	models := make([]mongodrv.WriteModel, len(fs))
	for i, f := range fs {
		models[i] = mongodrv.NewReplaceOneModel().
			SetFilter(bson.D{{Key: "_id", Value: f.Accession}}).
			SetReplacement(toFilingDoc(f)).SetUpsert(true)
	}
	return bulkWrite(ctx, s.filings, "upsert filings", models)
}

// CountFilings returns how many filings are held.
func (s *Filings) CountFilings(ctx context.Context) (int64, error) {
	n, err := s.filings.CountDocuments(ctx, bson.D{})
	return n, translate("count filings", err)
}

// UpsertSections replaces sections by id, like UpsertFilings, stamping
// them with a sequence number reserved for this write. The write is
// registered as under way until it ends, and its registration is renewed
// after every batch, so readers keep its sections coming until they are
// all written (see SectionsSince).
func (s *Filings) UpsertSections(ctx context.Context, secs []filing.Section) error {
	seq, err := s.beginWrite(ctx)
	if err != nil {
		return err
	}
	for start := 0; start < len(secs); start += sectionsBatch {
		batch := secs[start:min(start+sectionsBatch, len(secs))]
		models := make([]mongodrv.WriteModel, len(batch))
		for i, sec := range batch {
			models[i] = mongodrv.NewReplaceOneModel().
				SetFilter(bson.D{{Key: "_id", Value: sec.ID}}).
				SetReplacement(storedSection{Doc: sectionDoc(sec), Seq: seq}).SetUpsert(true)
		}
		if err := bulkWrite(ctx, s.sections, "upsert sections", models); err != nil {
			return err
		}
		if err := s.renewWrite(ctx, seq); err != nil {
			return err
		}
	}
	return s.endWrite(ctx, seq)
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
	settled, err := s.settledSeq(ctx, time.Now())
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
	limit = max(limit, 1)
	for start := 0; start < len(order); start += limit {
		chunk := order[start:min(start+limit, len(order))]
		next := ports.SectionMark{Write: chunk[len(chunk)-1].Seq, After: chunk[len(chunk)-1].ID}
		if start+len(chunk) == len(order) {
			next = end
		}
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

// SectionsByID returns the sections held under ids, ordered by id: the
// sections of one page of search hits, each read by its _id (findByIDs).
func (s *Filings) SectionsByID(ctx context.Context, ids []string) ([]filing.Section, error) {
	docs, err := findByIDs[storedSection](ctx, s.sections, "find section", ids)
	if err != nil {
		return nil, err
	}
	return fromStoredSections(docs), nil
}

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
