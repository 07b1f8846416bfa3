package mongo

import (
	"context"
	"errors"
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
	// versionsCollection holds one document, sectionsVersionID, whose
	// version every completed UpsertSections moves on.
	versionsCollection = "us_filing_versions"
	sectionsVersionID  = "sections"
)

type sectionsVersionDoc struct {
	Version int64 `bson:"version"`
}

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
	filings, sections, versions *mongodrv.Collection
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
		versions: db.Collection(versionsCollection),
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

// UpsertSections replaces sections by id, like UpsertFilings.
func (s *Filings) UpsertSections(ctx context.Context, secs []filing.Section) error {
	models := make([]mongodrv.WriteModel, len(secs))
	for i, sec := range secs {
		models[i] = mongodrv.NewReplaceOneModel().
			SetFilter(bson.D{{Key: "_id", Value: sec.ID}}).
			SetReplacement(sectionDoc(sec)).SetUpsert(true)
	}
	if err := bulkWrite(ctx, s.sections, "upsert sections", models); err != nil {
		return err
	}
	_, err := s.versions.UpdateOne(ctx, bson.D{{Key: "_id", Value: sectionsVersionID}},
		bson.D{{Key: "$inc", Value: bson.D{{Key: "version", Value: int64(1)}}}}, options.UpdateOne().SetUpsert(true))
	return translate("move the sections version on", err)
}

// Sections returns every section, ordered by id; the search index is built
// from them at start.
func (s *Filings) Sections(ctx context.Context) ([]filing.Section, error) {
	return s.findSections(ctx, bson.D{})
}

// SectionsByID returns the sections held under ids, ordered by id: the
// sections of one page of search hits.
func (s *Filings) SectionsByID(ctx context.Context, ids []string) ([]filing.Section, error) {
	if len(ids) == 0 {
		return []filing.Section{}, nil
	}
	return s.findSections(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}}})
}

func (s *Filings) findSections(ctx context.Context, filter bson.D) ([]filing.Section, error) {
	cur, err := s.sections.Find(ctx, filter, options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		return nil, translate("find sections", err)
	}
	var docs []sectionDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, translate("read sections", err)
	}
	out := make([]filing.Section, len(docs))
	for i, d := range docs {
		d.Filed, d.RetrievedAt = d.Filed.UTC(), d.RetrievedAt.UTC()
		out[i] = filing.Section(d)
	}
	return out, nil
}

// SectionsVersion reads the version UpsertSections moves on.
func (s *Filings) SectionsVersion(ctx context.Context) (int64, error) {
	var d sectionsVersionDoc
	err := s.versions.FindOne(ctx, bson.D{{Key: "_id", Value: sectionsVersionID}}).Decode(&d)
	if errors.Is(err, mongodrv.ErrNoDocuments) {
		return 0, nil
	}
	return d.Version, translate("read the sections version", err)
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
