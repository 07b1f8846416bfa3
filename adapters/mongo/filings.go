package mongo

import (
	"context"
	"fmt"
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

// CountFilings returns how many filings are held.
func (s *Filings) CountFilings(ctx context.Context) (int64, error) {
	n, err := s.filings.CountDocuments(ctx, bson.D{})
	return n, translate("count filings", err)
}

// sectionsBatch is how many sections are written between renewals of the
// write's registration.
const sectionsBatch = 256

// SectionsSince returns the sections written after mark, ordered by id, and
// the mark to pass next time: the highest sequence number below which no
// write is under way, read before the sections are. When no write has
// settled since mark, the sections are not read: a section written after
// mark comes from a write still under way, and comes again once it has
// settled, and the filter on seq reads every section on FerretDB (and on
// MongoDB, which has no index on seq), which a server's periodic refresh
// must not do while nothing was written.
func (s *Filings) SectionsSince(ctx context.Context, mark int64) ([]filing.Section, int64, error) {
	next, err := s.writes.settled(ctx, time.Now())
	if err != nil {
		return nil, 0, err
	}
	if mark > 0 && next <= mark {
		return []filing.Section{}, next, nil
	}
	// Sections written before sequence numbers existed carry none; they
	// come with mark 0, which asks for everything.
	filter := bson.D{}
	if mark > 0 {
		filter = bson.D{{Key: "seq", Value: bson.D{{Key: "$gt", Value: mark}}}}
	}
	docs, err := s.findSections(ctx, filter)
	return fromStoredSections(docs), next, err
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

func (s *Filings) findSections(ctx context.Context, filter bson.D) ([]storedSection, error) {
	cur, err := s.sections.Find(ctx, filter, options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		return nil, translate("find sections", err)
	}
	var docs []storedSection
	if err := cur.All(ctx, &docs); err != nil {
		return nil, translate("read sections", err)
	}
	return docs, nil
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
