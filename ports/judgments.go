package ports

import (
	"context"
	"io"
	"iter"
	"time"

	"github.com/quarrydata/quarry/domain/judgment"
)

// JudgmentStore holds India court judgments, tokenized, keyed by
// judgment id: the document store the judgment search index is built from.
type JudgmentStore interface {
	// Judgment returns the judgment with that id, or ErrNotFound.
	Judgment(ctx context.Context, id string) (judgment.Judgment, error)
	// JudgmentsByID returns the judgments held under ids, ordered by id;
	// an id that is not held is left out.
	JudgmentsByID(ctx context.Context, ids []string) ([]judgment.Judgment, error)
	// UpsertJudgments inserts or replaces judgments by id and says how
	// many it inserted or changed: writing the same judgments again
	// changes nothing and returns 0.
	UpsertJudgments(ctx context.Context, js []judgment.Judgment) (int, error)
	// JudgmentVersions returns, for every judgment written after mark, a
	// version that changes whenever the judgment does, and the mark to pass
	// next time; mark 0 asks for every judgment held. Every
	// UpsertJudgments call that completed before JudgmentVersions began is
	// in what it returns or in what an earlier call with a smaller mark
	// returned, in any process sharing the store; a write still under way
	// may be returned in part, and comes again from the next call. So an
	// index can tell what to read again without reading every text, and a
	// look after which nothing was written reads no judgment.
	JudgmentVersions(ctx context.Context, mark int64) (map[string]string, int64, error)
	// JudgmentList yields the judgments q selects, ordered by decision
	// date then id, without their text (Text is empty): an export lists
	// their metadata. It streams: however many judgments match, it keeps
	// a bounded number in memory and reads no text. Stopping early
	// releases what it holds.
	JudgmentList(ctx context.Context, q JudgmentListQuery) iter.Seq2[judgment.Judgment, error]
}

// JudgmentListQuery selects judgments by court and decision date. An
// empty Court matches every court, and a court matches regardless of case
// (as the search's court filter does); an empty date is unbounded, and
// the bounds, YYYY-MM-DD, are inclusive.
type JudgmentListQuery struct {
	Court                  string
	DecidedFrom, DecidedTo string
}

// JudgmentQuery is a full-text query over judgments with its filters. An
// empty court matches every court; a zero date is unbounded.
type JudgmentQuery struct {
	Text        string
	Court       string
	DecidedFrom time.Time
	DecidedTo   time.Time
	Limit       int
	Offset      int
}

// JudgmentHit is one ranked match: the judgment and where in its text the
// matched passage lies, in Unicode code points, end exclusive.
type JudgmentHit struct {
	Judgment judgment.Judgment
	Score    float64
	Start    int
	End      int
}

// JudgmentIndex is a ranked full-text index of judgments' tokenized text.
// A hit names its judgment by id and its passage in bytes of the text that
// was indexed (IndexHit). What every index keeps of matching, order,
// pages and passages is what SectionIndex says.
type JudgmentIndex interface {
	// Index adds or replaces judgments by id.
	Index(ctx context.Context, js []judgment.Judgment) error
	// Search returns one page of hits, best first (equal scores by id),
	// and the exact number of judgments matching in all.
	Search(ctx context.Context, q JudgmentQuery) ([]IndexHit, int, error)
	// Count returns how many judgments are indexed.
	Count(ctx context.Context) (int64, error)
	// Checkpoint returns what SaveCheckpoint last stored with the index,
	// nil if nothing. An index kept on disk says with it how far it has
	// read its store, so a restart resumes there instead of rebuilding.
	Checkpoint(ctx context.Context) ([]byte, error)
	// SaveCheckpoint stores cp with the index.
	SaveCheckpoint(ctx context.Context, cp []byte) error
}

// JudgmentRenderer writes a judgment as a document, such as a PDF,
// rendered from its tokenized fields and text only.
type JudgmentRenderer interface {
	// MediaType is the Content-Type of what Render writes.
	MediaType() string
	// Render writes j to w.
	Render(ctx context.Context, w io.Writer, j judgment.Judgment) error
}
