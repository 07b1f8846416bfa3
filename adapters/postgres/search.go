package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/quarrydata/quarry/ports"
)

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
// matching, and each hit's passage in bytes of its text, found in Go in
// the page's texts (ts_headline, asked to mark every match, was far
// slower: docs/benchmarks.md, "Figures behind the design").
func (x textIndex) search(ctx context.Context, text string, filters []filter, limit, offset int) ([]ports.IndexHit, int, error) {
	args := []any{text}
	where := []string{"d.tsv @@ (SELECT q FROM q)"}
	for _, f := range filters {
		args = append(args, f.arg)
		where = append(where, fmt.Sprintf(f.where, len(args)))
	}
	args = append(args, max(limit, 0), max(offset, 0))
	n := len(args)
	sql := fmt.Sprintf(`WITH q AS MATERIALIZED (SELECT %[1]s AS q),
		m AS MATERIALIZED (SELECT d.id, ts_rank_cd(d.tsv, (SELECT q FROM q), %[2]d) AS score
			FROM %[3]s d WHERE %[4]s),
		page AS (SELECT id, score FROM m ORDER BY score DESC, id LIMIT $%[5]d OFFSET $%[6]d)
		SELECT (SELECT count(*) FROM m), tsvector_to_array(to_tsvector('english', $1)), p.id, p.score, d.body
		FROM (SELECT 1) AS one
		LEFT JOIN (page p JOIN %[3]s d ON d.id = p.id) ON true
		ORDER BY p.score DESC, p.id`,
		queryExpr, rankNormalization, x.table, strings.Join(where, " AND "), n-1, n)
	rows, err := x.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, 0, searchError(x.table, err)
	}
	defer rows.Close()
	var hits []ports.IndexHit
	var bodies, lexemes []string
	total := 0
	for rows.Next() {
		var id, body *string
		var score *float32
		if err := rows.Scan(&total, &lexemes, &id, &score, &body); err != nil {
			return nil, 0, searchError(x.table, err)
		}
		if id == nil {
			continue
		}
		hits = append(hits, ports.IndexHit{ID: *id, Score: float64(*score)})
		bodies = append(bodies, *body)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, searchError(x.table, err)
	}
	if err := x.passages(ctx, hits, bodies, lexemes); err != nil {
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

// passages sets each hit's passage: the densest run (ports.DensestPassage)
// of the words of its text whose English lexemes are among the query's.
// The text is cut into words as PostgreSQL's parser cuts most of it (runs
// of letters and digits); the words that may stem to a query lexeme (they
// begin with it, its last letter aside) are parsed by PostgreSQL in one
// more query, so a word matches exactly when its lexeme does.
func (x textIndex) passages(ctx context.Context, hits []ports.IndexHit, bodies, queryLexemes []string) error {
	wanted := map[string]bool{}
	var stems []string
	for _, l := range queryLexemes {
		wanted[l] = true
		stem := l
		if _, size := utf8.DecodeLastRuneInString(l); size < len(l) {
			stem = l[:len(l)-size]
		}
		stems = append(stems, stem)
	}
	words := make([][]textWord, len(bodies))
	var candidates []string
	seen := map[string]bool{}
	for i, body := range bodies {
		for _, w := range splitWords(body) {
			if !mayStemTo(w.word, stems) {
				continue
			}
			words[i] = append(words[i], w)
			if !seen[w.word] {
				seen[w.word] = true
				candidates = append(candidates, w.word)
			}
		}
	}
	if len(candidates) == 0 {
		return nil
	}
	lexemes, err := x.lexemes(ctx, candidates)
	if err != nil {
		return err
	}
	for i := range hits {
		var locs []ports.TermLocation
		for _, w := range words[i] {
			for _, l := range lexemes[w.word] {
				if wanted[l] {
					locs = append(locs, ports.TermLocation{Term: l, Start: w.start, End: w.end})
					break
				}
			}
		}
		hits[i].Start, hits[i].End = ports.DensestPassage(locs)
	}
	return nil
}

// mayStemTo says whether word, lower case, begins with one of stems: a
// Snowball stem is its word's beginning but for its last letter (company,
// compani).
func mayStemTo(word string, stems []string) bool {
	for _, s := range stems {
		if strings.HasPrefix(word, s) {
			return true
		}
	}
	return false
}

// lexemes maps each word to its English lexemes.
func (x textIndex) lexemes(ctx context.Context, words []string) (map[string][]string, error) {
	rows, err := x.pool.Query(ctx, `SELECT w, tsvector_to_array(to_tsvector('english', w)) FROM unnest($1::text[]) AS w`, words)
	if err != nil {
		return nil, searchError(x.table, err)
	}
	defer rows.Close()
	out := make(map[string][]string, len(words))
	for rows.Next() {
		var w string
		var lex []string
		if err := rows.Scan(&w, &lex); err != nil {
			return nil, searchError(x.table, err)
		}
		out[w] = lex
	}
	if err := rows.Err(); err != nil {
		return nil, searchError(x.table, err)
	}
	return out, nil
}

// textWord is one word of a text, lower case, where it lies in bytes.
type textWord struct {
	word       string
	start, end int
}

// splitWords cuts text into its runs of letters and digits.
func splitWords(text string) []textWord {
	var out []textWord
	start := -1
	for i, r := range text {
		inWord := unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case inWord && start < 0:
			start = i
		case !inWord && start >= 0:
			out = append(out, textWord{strings.ToLower(text[start:i]), start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, textWord{strings.ToLower(text[start:]), start, len(text)})
	}
	return out
}

// indexedText is text as the tables keep it: each NUL and byte of
// invalid UTF-8, which PostgreSQL's text refuses, replaced by one space,
// so that every byte offset into it is the same offset into text.
func indexedText(text string) string {
	if utf8.ValidString(text) && !strings.ContainsRune(text, 0) {
		return text
	}
	b := []byte(text)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size == 1, r == 0:
			b[i] = ' '
		}
		i += size
	}
	return string(b)
}
