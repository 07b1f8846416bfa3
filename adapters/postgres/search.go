package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/quarrydata/quarry/ports"
)

// The markers ts_headline puts around each matched word. Indexed text
// never holds them (indexedText), so the passage is found by their byte
// positions.
const (
	markStart = "\x01"
	markStop  = "\x02"
)

// headlineOptions highlight every matched word of the whole text.
const headlineOptions = "HighlightAll=true, StartSel=" + markStart + ", StopSel=" + markStop

// queryExpr turns $1, the client's words, into the tsquery searched: the
// words are parsed as PostgreSQL's English configuration does (stemmed,
// stop words dropped), each whitespace-separated word a phrase of its parts
// (PRT_8f3a2b, market-share), and a document matches when it holds any of
// them, as bleve's match query does. A query of stop words only is NULL and
// matches nothing.
const queryExpr = `(SELECT ('(' || string_agg(phraseto_tsquery('english', w)::text, ') | (') || ')')::tsquery
	FROM regexp_split_to_table($1, '\s+') AS w WHERE phraseto_tsquery('english', w)::text <> '')`

// rankNormalization divides ts_rank_cd's cover density by 1 + the log of
// the document's length, so that a long document does not win by length
// alone.
const rankNormalization = 1

// batchBytes bounds the text of one INSERT.
const batchBytes = 4 << 20

// textIndex is what the section and judgment indexes share: a table of
// documents with a generated tsvector, and a row of search_checkpoints.
type textIndex struct {
	pool *pgxpool.Pool
	// table holds the documents; name is the index's checkpoint row.
	table, name string
}

// Checkpoint returns what SaveCheckpoint last stored, nil if nothing.
func (x textIndex) Checkpoint(ctx context.Context) ([]byte, error) {
	var cp []byte
	err := x.pool.QueryRow(ctx, `SELECT checkpoint FROM search_checkpoints WHERE index_name = $1`, x.name).Scan(&cp)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, translate("read search checkpoint", err)
	}
	return cp, nil
}

// SaveCheckpoint stores cp, shared by every node.
func (x textIndex) SaveCheckpoint(ctx context.Context, cp []byte) error {
	_, err := x.pool.Exec(ctx, `INSERT INTO search_checkpoints (index_name, checkpoint) VALUES ($1, $2)
		ON CONFLICT (index_name) DO UPDATE SET checkpoint = excluded.checkpoint, saved_at = now()`, x.name, cp)
	if err != nil {
		return translate("save search checkpoint", err)
	}
	return nil
}

// Count returns how many documents the table holds.
func (x textIndex) Count(ctx context.Context) (int64, error) {
	var n int64
	if err := x.pool.QueryRow(ctx, `SELECT count(*) FROM `+x.table).Scan(&n); err != nil {
		return 0, translate("count "+x.table, err)
	}
	return n, nil
}

// upsert writes rows, each its columns' values in the order of columns
// (the first the id, the last the text), in statements of at most
// batchBytes of text; a row the table holds unchanged is not rewritten.
func (x textIndex) upsert(ctx context.Context, columns []string, rows [][]string) error {
	for start := 0; start < len(rows); {
		end, held := start, 0
		for end < len(rows) && (end == start || held+len(rows[end][len(columns)-1]) <= batchBytes) {
			held += len(rows[end][len(columns)-1])
			end++
		}
		if err := x.upsertBatch(ctx, columns, rows[start:end]); err != nil {
			return err
		}
		start = end
	}
	return nil
}

// upsertBatch writes rows in one statement.
func (x textIndex) upsertBatch(ctx context.Context, columns []string, rows [][]string) error {
	arrays := make([]any, len(columns))
	casts := make([]string, len(columns))
	sets := make([]string, 0, len(columns)-1)
	for c := range columns {
		col := make([]string, len(rows))
		for r, row := range rows {
			col[r] = row[c]
		}
		arrays[c] = col
		casts[c] = fmt.Sprintf("$%d::text[]", c+1)
		if c > 0 {
			sets = append(sets, columns[c]+" = excluded."+columns[c])
		}
	}
	list := strings.Join(columns, ", ")
	sql := fmt.Sprintf(`INSERT INTO %[1]s AS t (%[2]s) SELECT * FROM unnest(%[3]s)
		ON CONFLICT (id) DO UPDATE SET %[4]s WHERE (%[5]s) IS DISTINCT FROM (%[6]s)`,
		x.table, list, strings.Join(casts, ", "), strings.Join(sets, ", "),
		prefixed("t.", columns[1:]), prefixed("excluded.", columns[1:]))
	if _, err := x.pool.Exec(ctx, sql, arrays...); err != nil {
		return translate("index into "+x.table, err)
	}
	return nil
}

// prefixed joins columns, each with prefix.
func prefixed(prefix string, columns []string) string {
	out := make([]string, len(columns))
	for i, c := range columns {
		out[i] = prefix + c
	}
	return strings.Join(out, ", ")
}

// filter is one condition of a search: where, with its one argument as
// $%d.
type filter struct {
	where string
	arg   string
}

// search runs one page of text over the table with filters: the matching
// rows ranked by ts_rank_cd, best first, ties by id, the exact number
// matching, and each hit's passage in bytes of its text.
func (x textIndex) search(ctx context.Context, text string, filters []filter, limit, offset int) ([]ports.IndexHit, int, error) {
	args := []any{text}
	where := []string{"d.tsv @@ (SELECT q FROM q)"}
	for _, f := range filters {
		args = append(args, f.arg)
		where = append(where, fmt.Sprintf(f.where, len(args)))
	}
	args = append(args, max(limit, 0), max(offset, 0), headlineOptions)
	n := len(args)
	sql := fmt.Sprintf(`WITH q AS MATERIALIZED (SELECT %[1]s AS q),
		m AS MATERIALIZED (SELECT d.id, ts_rank_cd(d.tsv, (SELECT q FROM q), %[2]d) AS score
			FROM %[3]s d WHERE %[4]s),
		page AS (SELECT id, score FROM m ORDER BY score DESC, id LIMIT $%[5]d OFFSET $%[6]d)
		SELECT (SELECT count(*) FROM m), p.id, p.score, octet_length(d.body),
			ts_headline('english', d.body, (SELECT q FROM q), $%[7]d)
		FROM (SELECT 1) AS one
		LEFT JOIN (page p JOIN %[3]s d ON d.id = p.id) ON true
		ORDER BY p.score DESC, p.id`,
		queryExpr, rankNormalization, x.table, strings.Join(where, " AND "), n-2, n-1, n)
	rows, err := x.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, 0, searchError(x.table, err)
	}
	defer rows.Close()
	var hits []ports.IndexHit
	var marked []markedHit
	total := 0
	for rows.Next() {
		var id, headline *string
		var score *float32
		var length *int
		if err := rows.Scan(&total, &id, &score, &length, &headline); err != nil {
			return nil, 0, searchError(x.table, err)
		}
		if id == nil {
			continue
		}
		hits = append(hits, ports.IndexHit{ID: *id, Score: float64(*score)})
		marked = append(marked, markedHit{headline: *headline, length: *length})
	}
	if err := rows.Err(); err != nil {
		return nil, 0, searchError(x.table, err)
	}
	if err := x.passages(ctx, hits, marked); err != nil {
		return nil, 0, err
	}
	return hits, total, nil
}

// searchError keeps a cancelled search matchable as the context's error.
func searchError(table string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return translate("search "+table, err)
}

// markedHit is a hit's text as ts_headline returned it, every matched word
// between markStart and markStop, and the length of its text in bytes.
type markedHit struct {
	headline string
	length   int
}

// passages sets each hit's passage: the densest run of matched words
// (ports.DensestPassage), the words told apart by their English lexemes, which one
// more query reads for the distinct words matched.
func (x textIndex) passages(ctx context.Context, hits []ports.IndexHit, marked []markedHit) error {
	words := make([][]matchedWord, len(hits))
	var distinct []string
	seen := map[string]bool{}
	for i, m := range marked {
		words[i] = matchedWords(m.headline, m.length)
		for _, w := range words[i] {
			if !seen[w.word] {
				seen[w.word] = true
				distinct = append(distinct, w.word)
			}
		}
	}
	if len(distinct) == 0 {
		return nil
	}
	lexemes, err := x.lexemes(ctx, distinct)
	if err != nil {
		return err
	}
	for i := range hits {
		locs := make([]ports.TermLocation, len(words[i]))
		for j, w := range words[i] {
			locs[j] = ports.TermLocation{Term: lexemes[w.word], Start: w.start, End: w.end}
		}
		hits[i].Start, hits[i].End = ports.DensestPassage(locs)
	}
	return nil
}

// lexemes maps each word to its English lexemes, space-separated.
func (x textIndex) lexemes(ctx context.Context, words []string) (map[string]string, error) {
	rows, err := x.pool.Query(ctx, `SELECT w, array_to_string(tsvector_to_array(to_tsvector('english', w)), ' ')
		FROM unnest($1::text[]) AS w`, words)
	if err != nil {
		return nil, searchError(x.table, err)
	}
	out := make(map[string]string, len(words))
	for rows.Next() {
		var w, lex string
		if err := rows.Scan(&w, &lex); err != nil {
			rows.Close()
			return nil, searchError(x.table, err)
		}
		out[w] = lex
	}
	if err := rows.Err(); err != nil {
		return nil, searchError(x.table, err)
	}
	return out, nil
}

// matchedWord is one word ts_headline marked, where it lies in the text.
type matchedWord struct {
	word       string
	start, end int
}

// matchedWords reads the marked words out of headline, at their byte
// offsets in the text it was made from. A headline that, markers dropped,
// is not as long as the text (ts_headline rewrote something) gives none:
// the hit then has no passage rather than a wrong one.
func matchedWords(headline string, length int) []matchedWord {
	var out []matchedWord
	var text strings.Builder
	text.Grow(length)
	start := -1
	for i := 0; i < len(headline); i++ {
		switch headline[i] {
		case markStart[0]:
			start = text.Len()
		case markStop[0]:
			if start >= 0 {
				out = append(out, matchedWord{start: start, end: text.Len()})
			}
			start = -1
		default:
			text.WriteByte(headline[i])
		}
	}
	if text.Len() != length {
		return nil
	}
	plain := text.String()
	for i := range out {
		out[i].word = strings.ToLower(plain[out[i].start:out[i].end])
	}
	return out
}

// indexedText is text as the tables keep it: each NUL, highlight marker
// and byte of invalid UTF-8 (which PostgreSQL's text refuses or which
// would be taken for a marker) replaced by one space, so that every byte
// offset into it is the same offset into text.
func indexedText(text string) string {
	if utf8.ValidString(text) && !strings.ContainsAny(text, "\x00"+markStart+markStop) {
		return text
	}
	b := []byte(text)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size == 1, r == 0, r == rune(markStart[0]), r == rune(markStop[0]):
			b[i] = ' '
		}
		i += size
	}
	return string(b)
}
