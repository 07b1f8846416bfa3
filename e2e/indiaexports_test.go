package e2e

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/xuri/excelize/v2"

	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/ingest"
)

// exportCol is a column an export should hold: its name, its kind (string,
// date, decimal, int) and whether it may be empty.
type exportCol struct {
	name, kind string
	nullable   bool
}

// exportDate is a date cell, YYYY-MM-DD; other cells are a string, a
// float64, an int64 or nil for a null.
type exportDate string

var indiaPriceCols = []exportCol{
	{"symbol", "string", false}, {"series", "string", false}, {"isin", "string", false}, {"date", "date", false},
	{"open", "decimal", false}, {"high", "decimal", false}, {"low", "decimal", false}, {"close", "decimal", false},
	{"last", "decimal", true}, {"prev_close", "decimal", false}, {"volume", "int", false},
	{"turnover", "decimal", false}, {"trades", "int", false},
}

var judgmentCols = []exportCol{
	{"judgment_id", "string", false}, {"court", "string", false}, {"bench", "string", true},
	{"case_number", "string", false}, {"title", "string", false}, {"parties", "string", false},
	{"judges", "string", false}, {"decision_date", "date", false}, {"citations", "string", false},
	{"language", "string", false}, {"page_count", "int", true},
}

var exportMediaTypes = map[string]string{
	"csv":     "text/csv; charset=utf-8; header=present",
	"xlsx":    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	"parquet": "application/vnd.apache.parquet",
}

// exportCase is one export and the rows the JSON routes answer for it.
type exportCase struct {
	name    string
	dataset string
	filters map[string]string
	stem    string
	want    [][]any
}

// TestIndiaExports exports both datasets in every format on both stacks,
// reads every file back with a reader independent of the writer
// (encoding/csv, excelize's reader, arrow-go's Parquet reader) and
// compares it value by value with the JSON routes for the same filters.
func TestIndiaExports(t *testing.T) {
	for name, s := range stacks {
		t.Run(name, func(t *testing.T) {
			c, _ := startApp(t, s)
			session, key := signIn(t, c, "meera@example.com")
			cases := []exportCase{
				{name: "a renamed security's whole history", dataset: "india.prices", filters: map[string]string{"symbol": "niittech"},
					stem: "NSE_NIITTECH_EQ_all_all"},
				{name: "a debt row without a last price", dataset: "india.prices", stem: "NSE_INE881J08623_NT_2021-06-01_2021-06-04",
					filters: map[string]string{"isin": "INE881J08623", "series": "NT", "start_date": "2021-06-01", "end_date": "2021-06-04"}},
				{name: "no row known at as_of", dataset: "india.prices", filters: map[string]string{"isin": coforge, "as_of": "2026-11-25"},
					stem: "NSE_INE591G01017_EQ_all_all"},
				{name: "every judgment", dataset: "india.judgments", stem: "india_judgments_all_all_all"},
				{name: "one court, any case", dataset: "india.judgments", filters: map[string]string{"court": "supreme  court of INDIA"},
					stem: "india_judgments_supreme_court_of_INDIA_all_all"},
				{name: "a court with parentheses and a range", dataset: "india.judgments",
					filters: map[string]string{"court": "High Court of Judicature at Bombay (Ordinary Original Civil Jurisdiction)", "decided_from": "2008-01-01", "decided_to": "2015-06-30"},
					stem:    "india_judgments_High_Court_of_Judicature_at_Bombay_Ordinary_Original_Civil_Jurisdiction_2008-01-01_2015-06-30"},
				{name: "no judgment of the court", dataset: "india.judgments", filters: map[string]string{"court": "High Court of Madras"},
					stem: "india_judgments_High_Court_of_Madras_all_all"},
			}
			for i := range cases {
				if cases[i].dataset == "india.prices" {
					cases[i].want = priceRowsFromJSON(t, c, key, cases[i].filters)
				} else {
					cases[i].want = judgmentRowsFromJSON(t, c, key, cases[i].filters)
				}
			}
			if len(cases[0].want) != 11 || len(cases[1].want) == 0 || len(cases[2].want) != 0 || len(cases[3].want) != 21 ||
				len(cases[4].want) != 6 || len(cases[5].want) == 0 || len(cases[6].want) != 0 {
				t.Fatalf("unexpected JSON answers: %d, %d, %d, %d, %d, %d, %d rows", len(cases[0].want), len(cases[1].want),
					len(cases[2].want), len(cases[3].want), len(cases[4].want), len(cases[5].want), len(cases[6].want))
			}
			for _, tc := range cases {
				cols := indiaPriceCols
				if tc.dataset == "india.judgments" {
					cols = judgmentCols
				}
				for _, format := range []string{"csv", "xlsx", "parquet"} {
					t.Run(tc.name+"/"+format, func(t *testing.T) {
						before := credits(t, c, session).Balance
						r := c.do("POST", "/india/exports", map[string]any{"dataset": tc.dataset, "format": format, "filters": tc.filters}, apiKey(key)).
							expect(t, http.StatusOK)
						if got := r.Header.Get("Content-Type"); got != exportMediaTypes[format] {
							t.Errorf("Content-Type %q", got)
						}
						if got := r.Header.Get("Content-Disposition"); got != "attachment; filename="+tc.stem+"."+format {
							t.Errorf("Content-Disposition %q", got)
						}
						if _, err := time.Parse(time.RFC3339Nano, r.Header.Get("X-As-Of")); err != nil {
							t.Errorf("X-As-Of: %v", err)
						}
						// An empty export is a header-only file, charged as any.
						if r.Header.Get("X-Credits-Cost") != "50" || before-credits(t, c, session).Balance != 50 {
							t.Errorf("cost %q", r.Header.Get("X-Credits-Cost"))
						}
						got := readExport(t, format, r.Body, cols)
						want := tc.want
						if format == "xlsx" {
							want = excelPrecision(want)
						}
						if !reflect.DeepEqual(got, want) {
							t.Fatalf("the file holds\n%v\nthe JSON routes answer\n%v", got, want)
						}
					})
				}
			}
			t.Run("the same rows again at X-As-Of", func(t *testing.T) {
				body := map[string]any{"dataset": "india.prices", "format": "csv", "filters": map[string]string{"symbol": "COFORGE"}}
				first := c.do("POST", "/india/exports", body, apiKey(key)).expect(t, http.StatusOK)
				body["filters"] = map[string]string{"symbol": "COFORGE", "as_of": first.Header.Get("X-As-Of")}
				again := c.do("POST", "/india/exports", body, apiKey(key)).expect(t, http.StatusOK)
				if !bytes.Equal(first.Body, again.Body) || again.Header.Get("X-As-Of") != first.Header.Get("X-As-Of") {
					t.Fatalf("as_of %s gave other rows:\n%s\n%s", first.Header.Get("X-As-Of"), first.Body, again.Body)
				}
			})
		})
	}
}

// TestIndiaExportsIdempotencyKey replays an export byte for byte at no
// cost, refuses the key with another body, and keeps keys per account,
// on both stacks (PostgreSQL keeps the file with the key).
func TestIndiaExportsIdempotencyKey(t *testing.T) {
	for name, s := range stacks {
		t.Run(name, func(t *testing.T) {
			c, _ := startApp(t, s)
			session, key := signIn(t, c, "kabir@example.com")
			otherSession, otherKey := signIn(t, c, "leela@example.com")
			for _, format := range []string{"csv", "xlsx", "parquet"} {
				idem := header{"Idempotency-Key", "export-" + format + "-1"}
				body := map[string]any{"dataset": "india.judgments", "format": format, "filters": map[string]string{"court": "Supreme Court of India"}}
				first := c.do("POST", "/india/exports", body, apiKey(key), idem).expect(t, http.StatusOK)
				balance := credits(t, c, session).Balance
				// Spacing and member order do not make another request.
				raw := []byte(`{ "filters": {"court": "Supreme Court of India"}, "format": "` + format + `", "dataset": "india.judgments" }`)
				replay := c.do("POST", "/india/exports", raw, apiKey(key), idem).expect(t, http.StatusOK)
				if sha256.Sum256(replay.Body) != sha256.Sum256(first.Body) || replay.Header.Get("Idempotent-Replayed") != "true" ||
					replay.Header.Get("X-Credits-Cost") != "0" || replay.Header.Get("X-As-Of") != first.Header.Get("X-As-Of") ||
					replay.Header.Get("Content-Disposition") != first.Header.Get("Content-Disposition") {
					t.Fatalf("%s replay: %d bytes, headers %v", format, len(replay.Body), replay.Header)
				}
				if first.Header.Get("Idempotent-Replayed") != "" || credits(t, c, session).Balance != balance {
					t.Fatalf("%s: the replay was charged or the first marked replayed", format)
				}
				body["filters"] = map[string]string{"court": "High Court of Delhi"}
				r := c.do("POST", "/india/exports", body, apiKey(key), idem).expect(t, http.StatusUnprocessableEntity)
				if !strings.Contains(string(r.Body), "idempotency_key_reused") || r.Header.Get("X-Credits-Cost") != "0" || credits(t, c, session).Balance != balance {
					t.Fatalf("%s: another body under the key: %s %v", format, r.Body, r.Header)
				}
				// Another account's identical key is another request, charged to it.
				otherBefore := credits(t, c, otherSession).Balance
				other := c.do("POST", "/india/exports", body, apiKey(otherKey), idem).expect(t, http.StatusOK)
				if other.Header.Get("Idempotent-Replayed") != "" || other.Header.Get("X-Credits-Cost") != "50" ||
					otherBefore-credits(t, c, otherSession).Balance != 50 || bytes.Equal(other.Body, first.Body) {
					t.Fatalf("%s: the other account's request: %v", format, other.Header)
				}
			}
		})
	}
}

// TestIndiaExportsRefusals: the list routes' rules, the export's own, and
// a 404 refunded; none of them costs anything.
func TestIndiaExportsRefusals(t *testing.T) {
	c, _ := startApp(t, stack{})
	session, key := signIn(t, c, "tara@example.com")
	for _, tc := range []struct {
		body   string
		status int
		says   string
	}{
		{`{"dataset":"india.prices","format":"csv","filters":{"symbol":"TCS","isin":"INE467B01029"}}`, 400, "exactly one of symbol"},
		{`{"dataset":"india.prices","format":"csv","filters":{"symbol":"TCS","start_date":"2021-06-04","end_date":"2021-06-01"}}`, 400, "after end_date"},
		{`{"dataset":"india.prices","format":"csv","filters":{"symbol":"TCS","limit":"10"}}`, 400, "limit"},
		{`{"dataset":"india.prices","format":"csv","filters":{"isin":"INE467B01028"}}`, 422, "check digit"},
		{`{"dataset":"india.prices","format":"xlsx","filters":{"symbol":"TCS","as_of":"soon"}}`, 422, "as_of"},
		{`{"dataset":"india.prices","format":"parquet","filters":{"symbol":"NOSUCHCO"}}`, 404, "NOSUCHCO"},
		{`{"dataset":"india.judgments","format":"csv","filters":{"decided_from":"2018-13-01"}}`, 422, "decided_from"},
		{`{"dataset":"india.judgments","format":"csv","filters":{"decided_from":"2019-01-01","decided_to":"2018-01-01"}}`, 400, "after decided_to"},
		{`{"dataset":"india.judgments","format":"csv","filters":{"court":"` + strings.Repeat("x", 201) + `"}}`, 422, "court"},
		{`{"dataset":"india.judgments","format":"csv","filters":{"symbol":"TCS"}}`, 400, "symbol"},
		{`{"dataset":"india.judgments","format":"pdf"}`, 422, "format"},
	} {
		r := c.do("POST", "/india/exports", []byte(tc.body), apiKey(key))
		if r.Status != tc.status || !strings.Contains(string(r.Body), tc.says) || r.Header.Get("X-Credits-Cost") != "0" {
			t.Errorf("%s: %d cost %s %s, want %d saying %q", tc.body, r.Status, r.Header.Get("X-Credits-Cost"), r.Body, tc.status, tc.says)
		}
	}
	if st := credits(t, c, session); st.Balance != 100000 {
		t.Fatalf("refusals cost %d", 100000-st.Balance)
	}
}

// priceRowsFromJSON reads GET /india/prices for the filters as rows.
func priceRowsFromJSON(t *testing.T, c *client, key string, filters map[string]string) [][]any {
	t.Helper()
	q := url.Values{"limit": {"1000"}}
	for k, v := range filters {
		q.Set(k, v)
	}
	b := indiaGetter(t, c, key)("/india/prices?" + q.Encode())
	if b.Meta.NextOffset != nil {
		t.Fatalf("more than a page for %v", filters)
	}
	out := [][]any{}
	for _, r := range b.Rows {
		var last any
		if r.Last != nil {
			last = *r.Last
		}
		out = append(out, []any{r.Symbol, r.Series, r.ISIN, exportDate(r.Date), r.Open, r.High, r.Low, r.Close, last,
			r.PrevClose, r.Volume, r.Turnover, r.Trades})
	}
	return out
}

// judgmentRowsFromJSON selects the bundled sample's judgments the filters
// match, by decision date then id, and reads each from GET
// /india/judgments/{judgment_id} as a row.
func judgmentRowsFromJSON(t *testing.T, c *client, key string, filters map[string]string) [][]any {
	t.Helper()
	js, err := ingest.LoadJudgmentsSample()
	if err != nil {
		t.Fatal(err)
	}
	court := strings.Join(strings.Fields(filters["court"]), " ")
	slices.SortFunc(js, func(a, b judgment.Judgment) int {
		if a.DecisionDate != b.DecisionDate {
			return strings.Compare(a.DecisionDate, b.DecisionDate)
		}
		return strings.Compare(a.ID, b.ID)
	})
	out := [][]any{}
	for _, j := range js {
		if court != "" && !strings.EqualFold(j.Court, court) ||
			filters["decided_from"] != "" && j.DecisionDate < filters["decided_from"] ||
			filters["decided_to"] != "" && j.DecisionDate > filters["decided_to"] {
			continue
		}
		var b judgmentResponse
		c.do("GET", "/india/judgments/"+j.ID, nil, apiKey(key)).expect(t, http.StatusOK).JSON(t, &b)
		g := b.Judgment
		parties := make([]string, len(g.Parties))
		for i, p := range g.Parties {
			parties[i] = p.Token + " (" + p.Role + ")"
		}
		var bench, pages any
		if g.Bench != nil {
			bench = *g.Bench
		}
		if g.PageCount != nil {
			pages = int64(*g.PageCount)
		}
		out = append(out, []any{g.JudgmentID, g.Court, bench, g.CaseNumber, g.Title, strings.Join(parties, "; "),
			strings.Join(g.Judges, "; "), exportDate(g.DecisionDate), strings.Join(g.Citations, "; "), g.Language, pages})
	}
	return out
}

// excelPrecision rounds decimals to the 15 significant digits Excel keeps.
func excelPrecision(rows [][]any) [][]any {
	out := make([][]any, len(rows))
	for i, r := range rows {
		out[i] = slices.Clone(r)
		for j, v := range r {
			if f, ok := v.(float64); ok {
				out[i][j], _ = strconv.ParseFloat(strconv.FormatFloat(f, 'g', 15, 64), 64)
			}
		}
	}
	return out
}

// readExport reads a file back with a reader of its format that Quarry's
// writers do not use, checking its header and column types, and returns
// its rows as typed cells.
func readExport(t *testing.T, format string, body []byte, cols []exportCol) [][]any {
	t.Helper()
	switch format {
	case "csv":
		return readCSVExport(t, body, cols)
	case "xlsx":
		return readXLSXExport(t, body, cols)
	}
	return readParquetExport(t, body, cols)
}

func readCSVExport(t *testing.T, body []byte, cols []exportCol) [][]any {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
	if err != nil || len(recs) == 0 {
		t.Fatalf("CSV: %v (%d records)", err, len(recs))
	}
	checkHeader(t, recs[0], cols)
	out := [][]any{}
	for _, rec := range recs[1:] {
		row := make([]any, len(cols))
		for i, col := range cols {
			row[i] = parseText(t, col, rec[i])
		}
		out = append(out, row)
	}
	return out
}

func parseText(t *testing.T, col exportCol, s string) any {
	t.Helper()
	if s == "" && col.nullable {
		return nil
	}
	var v any
	var err error
	switch col.kind {
	case "date":
		_, err = time.Parse(time.DateOnly, s)
		v = exportDate(s)
	case "decimal":
		v, err = strconv.ParseFloat(s, 64)
	case "int":
		v, err = strconv.ParseInt(s, 10, 64)
	default:
		v = s
	}
	if err != nil {
		t.Fatalf("%s: %q: %v", col.name, s, err)
	}
	return v
}

func checkHeader(t *testing.T, got []string, cols []exportCol) {
	t.Helper()
	want := make([]string, len(cols))
	for i, c := range cols {
		want[i] = c.name
	}
	if !slices.Equal(got, want) {
		t.Fatalf("header %v, want %v", got, want)
	}
}

// readXLSXExport reads the one sheet with excelize, typed: a date must be
// a number formatted yyyy-mm-dd, a decimal or integer a number.
func readXLSXExport(t *testing.T, body []byte, cols []exportCol) [][]any {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if sheets := f.GetSheetList(); len(sheets) != 1 || sheets[0] != "data" {
		t.Fatalf("sheets %v", sheets)
	}
	rows, err := f.GetRows("data")
	if err != nil || len(rows) == 0 {
		t.Fatalf("rows: %v (%d)", err, len(rows))
	}
	checkHeader(t, rows[0], cols)
	out := [][]any{}
	for r := 2; r <= len(rows); r++ {
		row := make([]any, len(cols))
		for i, col := range cols {
			row[i] = xlsxCell(t, f, col, i+1, r)
		}
		out = append(out, row)
	}
	return out
}

func xlsxCell(t *testing.T, f *excelize.File, col exportCol, c, r int) any {
	t.Helper()
	name, _ := excelize.CoordinatesToCellName(c, r)
	raw, err := f.GetCellValue("data", name, excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	if raw == "" && col.nullable {
		return nil
	}
	typ, _ := f.GetCellType("data", name)
	number := typ == excelize.CellTypeUnset || typ == excelize.CellTypeNumber
	switch col.kind {
	case "date":
		style, _ := f.GetCellStyle("data", name)
		st, _ := f.GetStyle(style)
		serial, err := strconv.ParseFloat(raw, 64)
		d, dErr := excelize.ExcelDateToTime(serial, false)
		if !number || err != nil || dErr != nil || st.CustomNumFmt == nil || *st.CustomNumFmt != "yyyy-mm-dd" {
			t.Fatalf("%s: %q (type %v) is not a date", name, raw, typ)
		}
		return exportDate(d.Format(time.DateOnly))
	case "decimal", "int":
		v, err := strconv.ParseFloat(raw, 64)
		if !number || err != nil {
			t.Fatalf("%s: %q (type %v) is not a number", name, raw, typ)
		}
		if col.kind == "int" {
			return int64(v)
		}
		return v
	}
	return raw
}

// readParquetExport reads the file with arrow-go's reader, typed: DATE
// columns are date32, decimals float64, integers int64, nullability as
// the column's.
func readParquetExport(t *testing.T, body []byte, cols []exportCol) [][]any {
	t.Helper()
	rdr, err := file.NewParquetReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Close()
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{BatchSize: 1024}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	types := map[string]arrow.DataType{"string": arrow.BinaryTypes.String, "date": arrow.FixedWidthTypes.Date32,
		"decimal": arrow.PrimitiveTypes.Float64, "int": arrow.PrimitiveTypes.Int64}
	out := make([][]any, tbl.NumRows())
	for i := range out {
		out[i] = make([]any, len(cols))
	}
	for c, col := range cols {
		field := tbl.Schema().Field(c)
		if field.Name != col.name || !arrow.TypeEqual(field.Type, types[col.kind]) || field.Nullable != col.nullable {
			t.Fatalf("field %d: %s %s nullable=%v, want %+v", c, field.Name, field.Type, field.Nullable, col)
		}
		r := 0
		for _, chunk := range tbl.Column(c).Data().Chunks() {
			for j := 0; j < chunk.Len(); j, r = j+1, r+1 {
				out[r][c] = arrowValue(chunk, j)
			}
		}
	}
	return out
}

func arrowValue(a arrow.Array, j int) any {
	if a.IsNull(j) {
		return nil
	}
	switch a := a.(type) {
	case *array.String:
		return a.Value(j)
	case *array.Date32:
		return exportDate(a.Value(j).ToTime().Format(time.DateOnly))
	case *array.Float64:
		return a.Value(j)
	case *array.Int64:
		return a.Value(j)
	}
	return a.ValueStr(j)
}
