package indiajudgments

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/quarrydata/quarry/app/usecase"

	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/ports"
)

// JudgmentsVersion is the normalization_version of judgments and of India
// search results: how a judgment's source files became the stored,
// tokenized document (domain/judgment, domain/pii).
const Version = "india-judgments-v1"

// Judgments serves India court judgments, their PDFs and the full-text
// search of their tokenized text. Judgments are held by the store; the
// search index is derived from it and rebuilt at start. Nothing here sees
// a name or a PAN in clear: ingestion stored tokens only.
type Service struct {
	store    ports.JudgmentStore
	index    ports.JudgmentIndex
	renderer ports.JudgmentRenderer
	mu       sync.RWMutex
	// refreshing serialises Refresh.
	refreshing sync.Mutex
	// indexed holds the version of every judgment in the index.
	indexed map[string]string
	// mark is what the store's JudgmentVersions returned last: the next
	// Refresh asks for the judgments written since. It starts at 0 in
	// each process, so the first Refresh compares every judgment's version
	// with the checkpoint's.
	mark int64
	// stored says a Refresh was told of a judgment in the store.
	stored bool
	// resumed says whether the index's checkpoint was read: the first
	// Refresh resumes from it.
	resumed bool
	// held says whether the index held a checkpoint when it was resumed.
	held      bool
	retrieved time.Time
	now       usecase.Clock
}

// NewJudgments wires the India judgments use cases.
func New(s ports.JudgmentStore, x ports.JudgmentIndex, r ports.JudgmentRenderer, now usecase.Clock) *Service {
	return &Service{store: s, index: x, renderer: r, indexed: map[string]string{}, now: now}
}

// ParseJudgmentID validates a requested judgment id (422 when malformed).
func ParseID(raw string) (string, error) {
	id, err := judgment.ParseID(raw)
	if err != nil {
		return "", fmt.Errorf("%w: judgment_id: %w", usecase.ErrValidation, err)
	}
	return id, nil
}

// Judgment returns the judgment with that id, or ports.ErrNotFound.
func (u *Service) Judgment(ctx context.Context, id string) (judgment.Judgment, error) {
	j, err := u.store.Judgment(ctx, id)
	if errors.Is(err, ports.ErrNotFound) {
		return judgment.Judgment{}, fmt.Errorf("%w: no judgment has id %s", ports.ErrNotFound, id)
	}
	return j, err
}

// PDF returns the judgment with that id and how to write it as a document
// rendered from its tokenized text; the judgment is read first, so an
// unknown id fails before any byte is written.
func (u *Service) PDF(ctx context.Context, id string) (judgment.Judgment, func(context.Context, io.Writer) error, error) {
	j, err := u.Judgment(ctx, id)
	if err != nil {
		return judgment.Judgment{}, nil, err
	}
	return j, func(ctx context.Context, w io.Writer) error { return u.renderer.Render(ctx, w, j) }, nil
}

// MediaType is the media type of the judgments' documents.
func (u *Service) MediaType() string { return u.renderer.MediaType() }

// Store writes judgments and indexes them, and says how many were new or
// changed.
func (u *Service) Store(ctx context.Context, js []judgment.Judgment) (int, error) {
	n, err := u.store.UpsertJudgments(ctx, js)
	if err != nil {
		return n, err
	}
	if _, err := u.Refresh(ctx); err != nil {
		return n, err
	}
	return n, nil
}

// Indexed says how many judgments the search index holds: what start-up
// reports, since Refresh counts only what it added (none after Store,
// which refreshes the index itself).
func (u *Service) Indexed(ctx context.Context) (int64, error) { return u.index.Count(ctx) }

// Refresh indexes the judgments that are new or changed in the store since
// it last looked, in this process or another sharing the store (quarry
// ingest), and says how many it indexed. It asks the store for the
// versions of the judgments written since its mark only, and compares
// them, so it reads the text of changed judgments only, and nothing when
// nothing was written; it reads and indexes them RefreshPage at a time.
// Calls are serialised.
func (u *Service) Refresh(ctx context.Context) (int, error) {
	u.refreshing.Lock()
	defer u.refreshing.Unlock()
	if err := u.resume(ctx); err != nil {
		return 0, err
	}
	versions, next, err := u.store.JudgmentVersions(ctx, u.mark)
	if err != nil {
		return 0, err
	}
	if len(versions) > 0 {
		u.mu.Lock()
		u.stored = true
		u.mu.Unlock()
	}
	u.mu.RLock()
	var changed []string
	for id, v := range versions {
		if u.indexed[id] != v {
			changed = append(changed, id)
		}
	}
	u.mu.RUnlock()
	if len(changed) == 0 {
		u.mark = next
		return 0, nil
	}
	n := 0
	for page := range slices.Chunk(changed, RefreshPage) {
		indexed, err := u.indexPage(ctx, page, versions)
		n += indexed
		if err != nil {
			return n, err
		}
	}
	u.mu.Lock()
	cp := judgmentCheckpoint{Indexed: maps.Clone(u.indexed), Retrieved: u.retrieved}
	u.mu.Unlock()
	if err := usecase.SaveCheckpoint(ctx, u.index, cp); err != nil {
		return n, err
	}
	u.mark = next
	return n, nil
}

// RefreshPage is how many judgments Refresh reads and indexes at a time, so
// that it holds one page of texts however many judgments changed (20,000
// generated ones, about 240 MB of text, were read at once). Pages of 500
// made more and smaller index segments, and the index's build a quarter
// slower.
const RefreshPage = 1000

// indexPage reads the judgments of ids and indexes them at the versions
// given.
func (u *Service) indexPage(ctx context.Context, ids []string, versions map[string]string) (int, error) {
	js, err := u.store.JudgmentsByID(ctx, ids)
	if err != nil {
		return 0, err
	}
	if err := u.index.Index(ctx, js); err != nil {
		return 0, err
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, j := range js {
		u.indexed[j.ID] = versions[j.ID]
		if j.RetrievedAt.After(u.retrieved) {
			u.retrieved = j.RetrievedAt
		}
	}
	return len(js), nil
}

// judgmentCheckpoint is what the judgment index keeps of Judgments: the
// version of every judgment it holds and the newest retrieval time.
type judgmentCheckpoint struct {
	Indexed   map[string]string `json:"indexed"`
	Retrieved time.Time         `json:"retrieved"`
}

// Resume reads the checkpoint kept with the index, once, and says whether
// there was one: an index kept on disk is resumed, not rebuilt, and
// catching up with what the store took since may be left to the next
// Refresh instead of holding up the first request.
func (u *Service) Resume(ctx context.Context) (bool, error) {
	u.refreshing.Lock()
	defer u.refreshing.Unlock()
	if err := u.resume(ctx); err != nil {
		return false, err
	}
	u.mu.RLock()
	defer u.mu.RUnlock()
	return u.held, nil
}

// Forget drops what Refresh knew of the index's checkpoint, so that the
// next Refresh (or Resume) reads it again: an index other processes write
// too (the one every node shares in PostgreSQL) may have indexed judgments
// since this process last looked, and their versions are then taken from
// the checkpoint instead of being indexed again.
func (u *Service) Forget() {
	u.refreshing.Lock()
	defer u.refreshing.Unlock()
	u.resumed = false
}

// resume reads the index's checkpoint once, before the first Refresh.
func (u *Service) resume(ctx context.Context) error {
	if u.resumed {
		return nil
	}
	var cp judgmentCheckpoint
	found, err := usecase.ReadCheckpoint(ctx, u.index, &cp)
	if err != nil {
		return err
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	u.resumed, u.held = true, found
	if found {
		maps.Copy(u.indexed, cp.Indexed)
		if cp.Retrieved.After(u.retrieved) {
			u.retrieved = cp.Retrieved
		}
	}
	return nil
}

// RetrievedAt is when the newest indexed judgment was retrieved.
func (u *Service) RetrievedAt() time.Time {
	u.mu.RLock()
	defer u.mu.RUnlock()
	return u.retrieved
}

// IndiaSearchRequest is an India search as the client sent it.
type SearchRequest struct {
	Query       string
	Court       string
	DecidedFrom string
	DecidedTo   string
	Limit       *int
	Offset      *int
}

// ParseIndiaSearch validates a search request: a malformed value is
// ErrValidation (422), decided_from after decided_to ErrInvalidRequest
// (400).
func ParseSearch(r SearchRequest) (ports.JudgmentQuery, error) {
	q := ports.JudgmentQuery{Text: r.Query, Limit: 10}
	if n := utf8.RuneCountInString(r.Query); strings.TrimSpace(r.Query) == "" || n > usecase.MaxQueryChars {
		return q, fmt.Errorf("%w: query must hold 1 to %d characters, not only spaces", usecase.ErrValidation, usecase.MaxQueryChars)
	}
	var err error
	if q.Court, q.DecidedFrom, q.DecidedTo, err = parseJudgmentFilters(r.Court, r.DecidedFrom, r.DecidedTo); err != nil {
		return q, err
	}
	page := ports.SectionQuery{Limit: q.Limit}
	if err := usecase.ParsePage(r.Limit, r.Offset, &page); err != nil {
		return q, err
	}
	q.Limit, q.Offset = page.Limit, page.Offset
	return q, nil
}

// parseJudgmentFilters validates the court and decision-date filters of
// India search and of a judgments export: the court, at most 200
// characters, has its white space runs made one space; a malformed date
// is ErrValidation, decided_from after decided_to ErrInvalidRequest.
func parseJudgmentFilters(court, decidedFrom, decidedTo string) (string, time.Time, time.Time, error) {
	if utf8.RuneCountInString(court) > 200 {
		return "", time.Time{}, time.Time{}, fmt.Errorf("%w: court must hold at most 200 characters", usecase.ErrValidation)
	}
	from, _, err := usecase.ParseDate("decided_from", decidedFrom)
	if err != nil {
		return "", time.Time{}, time.Time{}, err
	}
	to, _, err := usecase.ParseDate("decided_to", decidedTo)
	if err != nil {
		return "", time.Time{}, time.Time{}, err
	}
	if !from.IsZero() && !to.IsZero() && from.After(to) {
		return "", time.Time{}, time.Time{}, fmt.Errorf("%w: decided_from %s is after decided_to %s", usecase.ErrInvalidRequest, decidedFrom, decidedTo)
	}
	return strings.Join(strings.Fields(court), " "), from, to, nil
}

// Search runs a validated query and returns one page of hits and the
// total. The index keeps no text, so the page's judgments are read from
// the store and the passages' byte ranges turned into code points there.
func (u *Service) Search(ctx context.Context, q ports.JudgmentQuery) ([]ports.JudgmentHit, int, error) {
	return usecase.Hits(ctx, q, u.index.Search, u.store.JudgmentsByID,
		func(j judgment.Judgment) (string, string) { return j.ID, j.Text },
		func(j judgment.Judgment, p usecase.Passage) ports.JudgmentHit {
			return ports.JudgmentHit{Judgment: j, Score: p.Score, Start: p.Start, End: p.End}
		})
}

// Retrieve returns the judgments best matching a question, decided on or
// before q.AsOf's date, with their text (ports.JudgmentRetriever, for Ask).
func (u *Service) Retrieve(ctx context.Context, q ports.RetrievalQuery) ([]ports.JudgmentHit, error) {
	y, m, d := q.AsOf.UTC().Date()
	hits, _, err := u.Search(ctx, ports.JudgmentQuery{Text: q.Text, DecidedTo: time.Date(y, m, d, 0, 0, 0, 0, time.UTC), Limit: q.Limit})
	return hits, err
}

// JudgmentsProbe reports the judgments dataset available once a judgment
// is held: at once when a Refresh was told of one, as the one at start is
// of every judgment held; else by asking the store for every judgment's
// version, which reads every judgment on FerretDB and is cheap only while
// none is held: a cold server's first requests wait for the probe.
func (u *Service) JudgmentsProbe() usecase.DatasetProbe {
	return usecase.DatasetProbe{Dataset: dataset.IndiaJudgments, Probe: func(ctx context.Context) (bool, error) {
		u.mu.RLock()
		stored := u.stored
		u.mu.RUnlock()
		if stored {
			return true, nil
		}
		v, _, err := u.store.JudgmentVersions(ctx, 0)
		return len(v) > 0, err
	}}
}

// SearchProbe reports India search available once a judgment is indexed.
func (u *Service) SearchProbe() usecase.DatasetProbe {
	return usecase.DatasetProbe{Dataset: dataset.IndiaSearch, Probe: func(ctx context.Context) (bool, error) {
		n, err := u.index.Count(ctx)
		return n > 0, err
	}}
}
