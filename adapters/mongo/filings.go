package mongo

import (
	"context"
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
	filings, sections *mongodrv.Collection
	writes            writeLog
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
	seq, err := s.writes.begin(ctx)
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
		if err := s.writes.renew(ctx, seq); err != nil {
			return err
		}
	}
	return s.writes.end(ctx, seq)
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
	secs, err := s.findSections(ctx, filter)
	return secs, next, err
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

func (s *Filings) findSections(ctx context.Context, filter bson.D) ([]filing.Section, error) {
	cur, err := s.sections.Find(ctx, filter, options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		return nil, translate("find sections", err)
	}
	var docs []storedSection
	if err := cur.All(ctx, &docs); err != nil {
		return nil, translate("read sections", err)
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
