package exportfile

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"iter"
	"math"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/xuri/excelize/v2"

	"github.com/quarrydata/quarry/domain/table"
	"github.com/quarrydata/quarry/ports"
)

// fixture is a table held in memory, handed out through one reused Row as
// a real source does.
type fixture struct {
	cols []table.Column
	rows []table.Row
}

func (f fixture) Columns() []table.Column { return f.cols }

func (f fixture) Rows(context.Context) iter.Seq2[table.Row, error] {
	return func(yield func(table.Row, error) bool) {
		buf := make(table.Row, 0, len(f.cols))
		for _, r := range f.rows {
			buf = append(buf[:0], r...)
			if !yield(buf, nil) {
				return
			}
		}
	}
}

var testColumns = []table.Column{
	{Name: "symbol", Kind: table.String},
	{Name: "date", Kind: table.Date},
	{Name: "close", Kind: table.Decimal},
	{Name: "last", Kind: table.Decimal, Nullable: true},
	{Name: "volume", Kind: table.Int},
	{Name: "bench", Kind: table.String, Nullable: true},
	{Name: "decided", Kind: table.Date, Nullable: true},
}

func day(t *testing.T, s string) table.Day {
	t.Helper()
	d, err := table.ParseDay(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// testTable holds the values a file format could get wrong: text needing
// quotes, non-ASCII text, dates before 1900-03-01 (Excel's leap-year bug)
// and after 2038, decimals with no short binary form, large integers and
// nulls.
func testTable(t *testing.T) fixture {
	s := func(v string) table.Value { return table.Value{Str: v} }
	d := func(v string) table.Value { return table.Value{Day: day(t, v)} }
	n := func(v float64) table.Value { return table.Value{Num: v} }
	i := func(v int64) table.Value { return table.Value{Int: v} }
	null := table.Value{Null: true}
	return fixture{cols: testColumns, rows: []table.Row{
		{s("RELIANCE"), d("2024-07-01"), n(3128.55), n(3127.9), i(5_123_456), s("Bombay"), d("1950-01-26")},
		{s(`A,"B"`), d("2024-02-29"), n(0.1), null, i(math.MaxInt64), null, null},
		{s("line\r\nbreak"), d("1900-01-01"), n(1.0 / 3), n(-0.0001), i(-7), s(" leading space"), d("2040-12-31")},
		{s("मुंबई ₹"), d("1970-01-01"), n(123456789.125), n(1e-9), i(0), s(""), d("1900-03-01")},
	}}
}

func encode(t *testing.T, enc ports.TableEncoder, src ports.TableSource) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := enc.Encode(context.Background(), &buf, src); err != nil {
		t.Fatalf("%s: %v", enc.Format(), err)
	}
	return buf.Bytes()
}

func TestCSVReadBackByEncodingCSV(t *testing.T) {
	want := testTable(t)
	b := encode(t, CSV{}, want)
	if !bytes.HasSuffix(b, []byte("\r\n")) || !bytes.HasPrefix(b, []byte("symbol,date,close,last,volume,bench,decided\r\n")) {
		t.Fatalf("header or line ends not RFC 4180: %q", b[:min(len(b), 80)])
	}
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(want.rows)+1 {
		t.Fatalf("%d records, want %d", len(recs), len(want.rows)+1)
	}
	for r, row := range want.rows {
		got := recs[r+1]
		for c, col := range want.cols {
			checkText(t, r, col, row[c], got[c])
		}
	}
}

// checkText compares a CSV field with the value it should hold, typed.
func checkText(t *testing.T, r int, col table.Column, v table.Value, got string) {
	t.Helper()
	if v.Null {
		if got != "" {
			t.Errorf("row %d %s: %q, want empty for null", r, col.Name, got)
		}
		return
	}
	switch col.Kind {
	case table.String:
		// encoding/csv reads a quoted CRLF as LF, as RFC 4180 allows.
		if want := bytes.ReplaceAll([]byte(v.Str), []byte("\r\n"), []byte("\n")); got != string(want) {
			t.Errorf("row %d %s: %q, want %q", r, col.Name, got, want)
		}
	case table.Date:
		if d, err := table.ParseDay(got); err != nil || d != v.Day {
			t.Errorf("row %d %s: %q, want %s", r, col.Name, got, v.Day)
		}
	case table.Decimal:
		if f, err := strconv.ParseFloat(got, 64); err != nil || f != v.Num {
			t.Errorf("row %d %s: %q, want %v", r, col.Name, got, v.Num)
		}
	case table.Int:
		if n, err := strconv.ParseInt(got, 10, 64); err != nil || n != v.Int {
			t.Errorf("row %d %s: %q, want %d", r, col.Name, got, v.Int)
		}
	}
}

func TestXLSXReadBackByExcelize(t *testing.T) {
	want := testTable(t)
	f, err := excelize.OpenReader(bytes.NewReader(encode(t, NewXLSX(), want)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := f.GetSheetList(); len(got) != 1 || got[0] != "data" {
		t.Fatalf("sheets %v, want [data]", got)
	}
	checkSheet(t, f, "data", want.cols, want.rows)
}

// checkSheet compares a sheet with the rows it should hold, cell by cell
// and typed: a date must be a date-formatted number, a number a number.
func checkSheet(t *testing.T, f *excelize.File, sheet string, cols []table.Column, rows []table.Row) {
	t.Helper()
	for c, col := range cols {
		name, _ := excelize.CoordinatesToCellName(c+1, 1)
		if got, _ := f.GetCellValue(sheet, name); got != col.Name {
			t.Errorf("%s!%s: header %q, want %q", sheet, name, got, col.Name)
		}
	}
	for r, row := range rows {
		for c, col := range cols {
			name, _ := excelize.CoordinatesToCellName(c+1, r+2)
			checkCell(t, f, sheet, name, col, row[c])
		}
	}
	if n, _ := f.GetRows(sheet); len(n) != len(rows)+1 {
		t.Errorf("%s: %d rows, want %d", sheet, len(n), len(rows)+1)
	}
}

func checkCell(t *testing.T, f *excelize.File, sheet, name string, col table.Column, v table.Value) {
	t.Helper()
	typ, err := f.GetCellType(sheet, name)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := f.GetCellValue(sheet, name, excelize.Options{RawCellValue: true})
	if v.Null {
		if raw != "" {
			t.Errorf("%s: %q, want an empty cell", name, raw)
		}
		return
	}
	switch col.Kind {
	case table.String:
		if raw != v.Str {
			t.Errorf("%s: %q, want %q", name, raw, v.Str)
		}
	case table.Date:
		style, _ := f.GetCellStyle(sheet, name)
		st, _ := f.GetStyle(style)
		serial, _ := strconv.ParseFloat(raw, 64)
		got, err := excelize.ExcelDateToTime(serial, false)
		if typ != excelize.CellTypeUnset && typ != excelize.CellTypeNumber || err != nil ||
			st.CustomNumFmt == nil || *st.CustomNumFmt != "yyyy-mm-dd" || table.DayOf(got) != v.Day {
			t.Errorf("%s: %q (type %v, style %+v) is not the date %s", name, raw, typ, st, v.Day)
		}
	case table.Decimal, table.Int:
		if typ != excelize.CellTypeUnset && typ != excelize.CellTypeNumber {
			t.Errorf("%s: type %v, want a number", name, typ)
		}
		f, err := strconv.ParseFloat(raw, 64)
		// Excel holds a number as a double and keeps 15 significant
		// digits of it, and excelize writes what Excel keeps.
		want, _ := strconv.ParseFloat(strconv.FormatFloat(v.Num, 'g', 15, 64), 64)
		if col.Kind == table.Int {
			want = float64(v.Int)
		}
		if err != nil || f != want {
			t.Errorf("%s: %q, want %v", name, raw, want)
		}
	}
}

func TestXLSXSplitsSheetsAtTheRowLimit(t *testing.T) {
	want := testTable(t)
	f, err := excelize.OpenReader(bytes.NewReader(encode(t, XLSX{sheetRows: 3}, want)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := f.GetSheetList(); len(got) != 2 || got[0] != "data" || got[1] != "data_2" {
		t.Fatalf("sheets %v, want [data data_2]", got)
	}
	checkSheet(t, f, "data", want.cols, want.rows[:3])
	checkSheet(t, f, "data_2", want.cols, want.rows[3:])
	if SheetRows != 1_048_575 {
		t.Errorf("SheetRows = %d", SheetRows)
	}
}

func TestParquetReadBackByArrow(t *testing.T) {
	want := testTable(t)
	tbl := readArrow(t, encode(t, NewParquet(), want))
	defer tbl.Release()
	wantTypes := map[table.Kind]arrow.DataType{
		table.String: arrow.BinaryTypes.String, table.Date: arrow.FixedWidthTypes.Date32,
		table.Decimal: arrow.PrimitiveTypes.Float64, table.Int: arrow.PrimitiveTypes.Int64,
	}
	schema := tbl.Schema()
	for i, col := range want.cols {
		f := schema.Field(i)
		if f.Name != col.Name || !arrow.TypeEqual(f.Type, wantTypes[col.Kind]) || f.Nullable != col.Nullable {
			t.Errorf("field %d: %s %s nullable=%v, want %s %s nullable=%v", i, f.Name, f.Type, f.Nullable, col.Name, wantTypes[col.Kind], col.Nullable)
		}
	}
	if tbl.NumRows() != int64(len(want.rows)) {
		t.Fatalf("%d rows, want %d", tbl.NumRows(), len(want.rows))
	}
	for c, col := range want.cols {
		chunks := tbl.Column(c).Data().Chunks()
		r := 0
		for _, chunk := range chunks {
			for j := 0; j < chunk.Len(); j, r = j+1, r+1 {
				checkArrow(t, r, col, want.rows[r][c], chunk, j)
			}
		}
	}
}

func readArrow(t *testing.T, b []byte) arrow.Table {
	t.Helper()
	rdr, err := file.NewParquetReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Close()
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{BatchSize: 4096}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

func checkArrow(t *testing.T, r int, col table.Column, v table.Value, chunk arrow.Array, j int) {
	t.Helper()
	if chunk.IsNull(j) != v.Null {
		t.Errorf("row %d %s: null=%v, want %v", r, col.Name, chunk.IsNull(j), v.Null)
		return
	}
	if v.Null {
		return
	}
	var ok bool
	switch a := chunk.(type) {
	case *array.String:
		ok = a.Value(j) == v.Str
	case *array.Date32:
		ok = int32(a.Value(j)) == int32(v.Day)
	case *array.Float64:
		ok = a.Value(j) == v.Num
	case *array.Int64:
		ok = a.Value(j) == v.Int
	}
	if !ok {
		t.Errorf("row %d %s: %v, want %+v", r, col.Name, chunk.ValueStr(j), v)
	}
}

func TestParquetRowGroupsAreBounded(t *testing.T) {
	rows := make([]table.Row, 2500)
	for i := range rows {
		rows[i] = table.Row{{Str: "X"}, {Day: table.Day(i)}, {Num: float64(i) / 4}, {Null: true}, {Int: int64(i)}, {Null: true}, {Null: true}}
	}
	b := encode(t, Parquet{rowGroupRows: 1000}, fixture{cols: testColumns, rows: rows})
	rdr, err := file.NewParquetReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Close()
	if n := rdr.NumRowGroups(); n != 3 {
		t.Errorf("%d row groups, want 3", n)
	}
	tbl := readArrow(t, b)
	defer tbl.Release()
	if tbl.NumRows() != 2500 {
		t.Errorf("%d rows", tbl.NumRows())
	}
}

// An empty table is a file with the header (or schema) only, which every
// reader opens.
func TestEmptyTableIsHeaderOnly(t *testing.T) {
	empty := fixture{cols: testColumns}
	if got := string(encode(t, CSV{}, empty)); got != "symbol,date,close,last,volume,bench,decided\r\n" {
		t.Errorf("csv: %q", got)
	}
	f, err := excelize.OpenReader(bytes.NewReader(encode(t, NewXLSX(), empty)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	checkSheet(t, f, "data", testColumns, nil)
	tbl := readArrow(t, encode(t, NewParquet(), empty))
	defer tbl.Release()
	if tbl.NumRows() != 0 || tbl.NumCols() != int64(len(testColumns)) {
		t.Errorf("parquet: %d rows, %d columns", tbl.NumRows(), tbl.NumCols())
	}
}

// failing yields n rows and then an error.
type failing struct {
	fixture
	err error
}

func (f failing) Rows(ctx context.Context) iter.Seq2[table.Row, error] {
	return func(yield func(table.Row, error) bool) {
		for r, err := range f.fixture.Rows(ctx) {
			if !yield(r, err) {
				return
			}
		}
		yield(nil, f.err)
	}
}

func TestEncodersPassOnErrorsAndRefuseBadRows(t *testing.T) {
	boom := errors.New("store went away")
	good := testTable(t)
	nullInRequired := fixture{cols: testColumns, rows: []table.Row{{{Null: true}, {}, {}, {}, {}, {}, {}}}}
	short := fixture{cols: testColumns, rows: []table.Row{{{Str: "x"}}}}
	for _, enc := range Encoders() {
		if err := enc.Encode(context.Background(), &bytes.Buffer{}, failing{good, boom}); !errors.Is(err, boom) {
			t.Errorf("%s: source error came back as %v", enc.Format(), err)
		}
		for name, src := range map[string]fixture{"null": nullInRequired, "short": short, "no columns": {}} {
			if err := enc.Encode(context.Background(), &bytes.Buffer{}, src); err == nil {
				t.Errorf("%s: %s row accepted", enc.Format(), name)
			}
		}
	}
}

func TestEncodersStopWhenTheContextEnds(t *testing.T) {
	rows := make([]table.Row, 3*checkEvery)
	for i := range rows {
		rows[i] = table.Row{{Str: "X"}, {}, {}, {Null: true}, {}, {Null: true}, {Null: true}}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, enc := range Encoders() {
		err := enc.Encode(ctx, &bytes.Buffer{}, fixture{cols: testColumns, rows: rows})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: %v", enc.Format(), err)
		}
	}
}

func TestMediaTypesAndExtensions(t *testing.T) {
	want := map[string][2]string{
		"csv":     {"text/csv; charset=utf-8; header=present", "csv"},
		"xlsx":    {"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "xlsx"},
		"parquet": {"application/vnd.apache.parquet", "parquet"},
	}
	for _, enc := range Encoders() {
		if w := want[enc.Format()]; enc.MediaType() != w[0] || enc.Extension() != w[1] {
			t.Errorf("%s: %s .%s", enc.Format(), enc.MediaType(), enc.Extension())
		}
	}
}
