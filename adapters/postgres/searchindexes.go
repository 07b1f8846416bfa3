package postgres

import (
	"context"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/quarrydata/quarry/domain/filing"
	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/ports"
)

// SectionSearch is the SectionIndex every node shares: the sections'
// text in search_sections with an English tsvector indexed with GIN,
// matched by the words of the query (any of them), ranked by ts_rank_cd,
// and the passage of each hit found by ts_headline in the kept text.
type SectionSearch struct {
	textIndex
}

var _ ports.SectionIndex = (*SectionSearch)(nil)

// NewSectionSearch returns the section index kept in the database of pool,
// which Migrate has brought up to date.
func NewSectionSearch(pool *pgxpool.Pool) *SectionSearch {
	return &SectionSearch{textIndex{pool: pool, table: "search_sections", name: "sections"}}
}

// sectionColumns are search_sections' columns as Index writes them.
var sectionColumns = []string{"id", "ticker", "cik", "form", "item", "filed", "body"}

// Index adds or replaces sections by id.
func (x *SectionSearch) Index(ctx context.Context, secs []filing.Section) error {
	rows := make([][]string, len(secs))
	for i, s := range secs {
		rows[i] = []string{s.ID, s.Ticker, s.CIK, s.Form, s.ItemNumber, s.Filed.Format(time.DateOnly), indexedText(s.Text)}
	}
	return x.upsert(ctx, sectionColumns, rows)
}

// Search returns one page of hits, best first (ties by id), and the exact
// number of sections matching.
func (x *SectionSearch) Search(ctx context.Context, q ports.SectionQuery) ([]ports.IndexHit, int, error) {
	var fs []filter
	for where, value := range map[string]string{"d.ticker = $%d": q.Ticker, "d.cik = $%d": q.CIK, "d.form = $%d": q.Form, "d.item = $%d": q.ItemNumber} {
		if value != "" {
			fs = append(fs, filter{where, value})
		}
	}
	fs = append(fs, dateFilters("d.filed", q.FiledFrom, q.FiledTo)...)
	return x.search(ctx, q.Text, fs, q.Limit, q.Offset)
}

// JudgmentSearch is the JudgmentIndex every node shares, kept as
// SectionSearch is, in search_judgments.
type JudgmentSearch struct {
	textIndex
}

var _ ports.JudgmentIndex = (*JudgmentSearch)(nil)

// NewJudgmentSearch returns the judgment index kept in the database of
// pool, which Migrate has brought up to date.
func NewJudgmentSearch(pool *pgxpool.Pool) *JudgmentSearch {
	return &JudgmentSearch{textIndex{pool: pool, table: "search_judgments", name: "judgments"}}
}

// judgmentColumns are search_judgments' columns as Index writes them.
var judgmentColumns = []string{"id", "court", "decided", "body"}

// Index adds or replaces judgments by id.
func (x *JudgmentSearch) Index(ctx context.Context, js []judgment.Judgment) error {
	rows := make([][]string, len(js))
	for i, j := range js {
		rows[i] = []string{j.ID, strings.ToLower(j.Court), j.DecisionDate, indexedText(j.Text)}
	}
	return x.upsert(ctx, judgmentColumns, rows)
}

// Search returns one page of hits, best first (ties by id), and the exact
// number of judgments matching.
func (x *JudgmentSearch) Search(ctx context.Context, q ports.JudgmentQuery) ([]ports.IndexHit, int, error) {
	var fs []filter
	if q.Court != "" {
		fs = append(fs, filter{"d.court = $%d", strings.ToLower(q.Court)})
	}
	fs = append(fs, dateFilters("d.decided", q.DecidedFrom, q.DecidedTo)...)
	return x.search(ctx, q.Text, fs, q.Limit, q.Offset)
}

// dateFilters bound a YYYY-MM-DD column inclusively; a zero time is
// unbounded.
func dateFilters(column string, from, to time.Time) []filter {
	var fs []filter
	if !from.IsZero() {
		fs = append(fs, filter{column + " >= $%d", from.Format(time.DateOnly)})
	}
	if !to.IsZero() {
		fs = append(fs, filter{column + " <= $%d", to.Format(time.DateOnly)})
	}
	return fs
}
