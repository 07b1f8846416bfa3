package mongo

import (
	"context"
	"slices"
	"strings"

	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/quarrydata/quarry/domain/filing"
)

// A write of filings and sections is one batch (see batches): the filings
// and sections it writes carry its mark, and a document it replaces keeps
// the version readers saw (Prev) until the mark is published, so a reader
// sees the old version of a filing whole, or the new one, never a mix.

func (d filingDoc) mark() string                 { return d.Batch }
func (d filingDoc) previous() *filingDoc         { return d.Prev }
func (d filingDoc) alone() filingDoc             { d.Prev = nil; return d }
func (d storedSection) mark() string             { return d.Batch }
func (d storedSection) previous() *storedSection { return d.Prev }
func (d storedSection) alone() storedSection     { d.Prev = nil; return d }

// UpsertFilings writes the filings and sections as one batch: the filings
// by ordered bulk replacements, then the sections (writeSections). A
// filing held the same with the same sections, under a published mark, is
// left out with its sections, so writing a batch again writes only what a
// stopped write left unpublished, or what changed.
func (s *Filings) UpsertFilings(ctx context.Context, fs []filing.Filing, secs []filing.Section) error {
	pending, err := s.batches.pendingMarks(ctx)
	if err != nil {
		return err
	}
	ids := make([]string, len(fs))
	for i, f := range fs {
		ids[i] = f.Accession
	}
	held, err := readEach[filingDoc](ctx, s.filings, ids)
	if err != nil {
		return err
	}
	docs, secs := changedFilings(fs, secs, held, pending)
	if len(docs) == 0 && len(secs) == 0 {
		return nil
	}
	// Sections of a filing never held were never written under a mark:
	// only those of filings held are read, to keep what readers see.
	var rewritten []string
	for _, sec := range secs {
		if _, ok := held[sec.Accession]; ok {
			rewritten = append(rewritten, sec.ID)
		}
	}
	stored, err := readEach[storedSection](ctx, s.sections, rewritten)
	if err != nil {
		return err
	}
	return s.batches.publish(ctx, func(mark string) error {
		models := make([]mongodrv.WriteModel, len(docs))
		for i, d := range docs {
			d.Batch = mark
			if h, ok := held[d.Accession]; ok {
				d.Prev = keptVersion(h, pending)
			}
			models[i] = replaceModel(d.Accession, d)
		}
		if err := bulkWrite(ctx, s.filings, "upsert filings", models); err != nil {
			return err
		}
		return s.writeSections(ctx, secs, stored, pending, mark)
	})
}

// changedFilings returns the documents of the filings of fs, with their
// digests, that held does not hold the same under a published mark, and
// the sections of secs but those of the filings left out.
func changedFilings(fs []filing.Filing, secs []filing.Section, held map[string]filingDoc, pending map[string]bool) ([]filingDoc, []filing.Section) {
	own := map[string][]sectionDoc{}
	for _, sec := range secs {
		own[sec.Accession] = append(own[sec.Accession], sectionDoc(sec))
	}
	var out []filingDoc
	same := map[string]bool{}
	for _, f := range fs {
		d := toFilingDoc(f)
		d.Digest = filingDigest(d, own[f.Accession])
		if h, ok := held[f.Accession]; ok && h.Digest == d.Digest && !pending[h.Batch] {
			same[f.Accession] = true
			continue
		}
		out = append(out, d)
	}
	return out, slices.DeleteFunc(slices.Clone(secs), func(sec filing.Section) bool { return same[sec.Accession] })
}

// filingDigest sums a filing's document and its sections, in id order
// (own is sorted in place).
func filingDigest(d filingDoc, own []sectionDoc) string {
	slices.SortFunc(own, func(a, b sectionDoc) int { return strings.Compare(a.ID, b.ID) })
	v, err := withDigest(struct {
		Filing   filingDoc    `bson:"f"`
		Sections []sectionDoc `bson:"s"`
	}{d, own})
	if err != nil {
		return "" // never a stored digest: the filing is written
	}
	return v.Digest
}

// UpsertSections writes the sections as one batch (writeSections).
func (s *Filings) UpsertSections(ctx context.Context, secs []filing.Section) error {
	if len(secs) == 0 {
		return nil
	}
	pending, err := s.batches.pendingMarks(ctx)
	if err != nil {
		return err
	}
	ids := make([]string, len(secs))
	for i, sec := range secs {
		ids[i] = sec.ID
	}
	stored, err := readEach[storedSection](ctx, s.sections, ids)
	if err != nil {
		return err
	}
	return s.batches.publish(ctx, func(mark string) error { return s.writeSections(ctx, secs, stored, pending, mark) })
}

// writeSections replaces sections by id with ordered bulk writes, stamping
// them with the batch mark and a sequence number reserved for this write,
// each keeping the version of its stored document readers see. The write
// is registered as under way until it ends, and its registration is
// renewed after every chunk, so readers of SectionsSince keep its sections
// coming until they are all written.
func (s *Filings) writeSections(ctx context.Context, secs []filing.Section, stored map[string]storedSection, pending map[string]bool, mark string) error {
	if len(secs) == 0 {
		return nil
	}
	seq, err := s.writes.begin(ctx)
	if err != nil {
		return err
	}
	for start := 0; start < len(secs); start += sectionsBatch {
		batch := secs[start:min(start+sectionsBatch, len(secs))]
		models := make([]mongodrv.WriteModel, len(batch))
		for i, sec := range batch {
			d := storedSection{Doc: sectionDoc(sec), Seq: seq, Batch: mark}
			if h, ok := stored[sec.ID]; ok {
				d.Prev = keptVersion(h, pending)
			}
			models[i] = replaceModel(sec.ID, d)
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
