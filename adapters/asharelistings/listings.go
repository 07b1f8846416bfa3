// Package asharelistings reads the published lists of mainland A-share
// listings into the securities of domain/ashare. Two layouts are read, told
// apart by their header row, in a CSV file or in the first sheet of an
// .xlsx workbook (told apart by the file's signature):
//
//   - Tushare's `stock_basic` (ts_code,symbol,name,area,industry,…,
//     list_date, and list_status and delist_date when they were asked
//     for): one row per listing, codes like 600519.SH, dates YYYYMMDD;
//   - the Shenzhen Stock Exchange's A股列表 download (板块,公司全称,…,
//     A股代码,A股简称,A股上市日期,…,B股代码,…): SZSE listings, dates
//     YYYY-MM-DD.
//
// The Shanghai Stock Exchange's GPLIST (A股代码,B股代码,证券简称,扩位证券简称,
// 公司英文全称,上市日期) is read by header too, but the exchange publishes it
// as a legacy Excel 97–2003 (BIFF) file, which is refused: no well-kept Go
// reader of that format was found (docs/spec-gaps.md A9). Saved as .xlsx or
// CSV it is read.
//
// Rows that are not A-share listings are skipped and counted, not refused:
// B-share codes (in a row of their own or beside an A-share code), codes in
// no A-share range of the exchange, and rows without a listing date. A file
// is refused as a whole, naming its line (or sheet and row) and the reason,
// on anything else: a malformed or truncated file never loads in part.
// Exchange and board follow from the code, by the rules of domain/ashare.
package asharelistings

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/domain/source"
)

// MaxFileBytes bounds one listings file. The full lists are well under a
// megabyte (5,524 Tushare rows are 571 kB; SZSE's workbook is 540 kB).
const MaxFileBytes = 64 << 20

// Listings is what one file holds: the A-share listings, and how many rows
// or codes were left out and why.
type Listings struct {
	Securities []ashare.Security
	Skipped    Skipped
}

// Skipped counts what a file holds that is not an A-share listing.
type Skipped struct {
	// BShares counts B-share codes: rows of their own, or the B股代码 an
	// exchange's list prints beside a company's A-share code.
	BShares int
	// OutOfRange counts codes in no A-share range of their exchange.
	OutOfRange int
	// NoListingDate counts rows without a listing date.
	NoListingDate int
}

// String says what was skipped, for the ingest summary line.
func (s Skipped) String() string {
	return fmt.Sprintf("skipped %d B-shares, %d codes outside the A-share ranges, %d without a listing date",
		s.BShares, s.OutOfRange, s.NoListingDate)
}

// Add sums two counts.
func (s Skipped) Add(o Skipped) Skipped {
	return Skipped{s.BShares + o.BShares, s.OutOfRange + o.OutOfRange, s.NoListingDate + o.NoListingDate}
}

// File signatures: an .xlsx is a zip archive; a legacy .xls is an OLE2
// compound document.
var (
	zipMagic  = []byte("PK\x03\x04")
	oleMagic  = []byte("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1")
	utf8BOM   = []byte("\uFEFF")
	errNoRows = errors.New("no listings")
)

// Parse reads one listings file, detecting its container by signature and
// its layout by header.
func Parse(file string, r io.Reader) (Listings, error) {
	body, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return Listings{}, fmt.Errorf("read %s: %w", file, err)
	}
	if len(body) > MaxFileBytes {
		return Listings{}, source.Whole(file, "larger than %d MiB: not a listings file", MaxFileBytes>>20)
	}
	var t table
	switch {
	case bytes.HasPrefix(body, oleMagic):
		return Listings{}, source.Whole(file, "a legacy Excel 97-2003 (.xls) workbook, such as the SSE's GPLIST.xls, is not read; save it as .xlsx or CSV")
	case bytes.HasPrefix(body, zipMagic):
		t, err = xlsxTable(file, body)
	default:
		t, err = csvTable(file, body)
	}
	if err != nil {
		return Listings{}, err
	}
	return t.listings()
}

// table is a file's rows as text, with where each row is in the file.
type table struct {
	file  string
	sheet string // the worksheet of an .xlsx; empty for CSV
	rows  [][]string
	lines []int // CSV: the line each row starts on
}

// refuse refuses the file for a problem in row i (0 is the header).
func (t *table) refuse(i int, format string, args ...any) error {
	if t.sheet != "" {
		return source.AtPath(t.file, fmt.Sprintf("sheet %s row %d", t.sheet, i+1), format, args...)
	}
	return source.AtLine(t.file, t.lines[i], format, args...)
}

func csvTable(file string, body []byte) (table, error) {
	body = bytes.TrimPrefix(body, utf8BOM)
	t := table{file: file}
	cr := csv.NewReader(bytes.NewReader(body))
	cr.FieldsPerRecord = -1 // rows are checked against the header's width below, with a clearer reason
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return table{}, source.AtLine(file, csvLine(err), "%v", err)
		}
		line, _ := cr.FieldPos(0)
		for _, f := range rec {
			if !utf8.ValidString(f) {
				return table{}, source.AtLine(file, line, "not UTF-8 text (a GBK export? save it as UTF-8)")
			}
		}
		t.rows = append(t.rows, rec)
		t.lines = append(t.lines, line)
	}
	if len(t.rows) == 0 {
		return table{}, source.AtLine(file, 1, "empty file: no header")
	}
	// Every writer of these files (pandas, spreadsheets) ends the last row
	// with a line break; a file cut inside its last field would otherwise
	// pass for whole.
	if !bytes.HasSuffix(body, []byte("\n")) {
		return table{}, source.AtLine(file, t.lines[len(t.lines)-1], "the last line has no line break: the file is truncated")
	}
	return t, nil
}

// csvLine is the line a CSV read error points at.
func csvLine(err error) int {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return pe.Line
	}
	return 0
}

// xlsxTable reads the first worksheet of a workbook. Blank rows are dropped
// (rows keep their sheet numbers in refusals).
func xlsxTable(file string, body []byte) (t table, err error) {
	// A damaged workbook must refuse the file, whatever the library does
	// with it.
	defer func() {
		if p := recover(); p != nil {
			t, err = table{}, source.Whole(file, "not a readable .xlsx workbook: %v", p)
		}
	}()
	wb, err := excelize.OpenReader(bytes.NewReader(body), excelize.Options{
		UnzipSizeLimit: 4 * MaxFileBytes, UnzipXMLSizeLimit: 4 * MaxFileBytes,
	})
	if err != nil {
		return table{}, source.Whole(file, "not a readable .xlsx workbook: %v", err)
	}
	defer wb.Close()
	sheets := wb.GetSheetList()
	if len(sheets) == 0 {
		return table{}, source.Whole(file, "the workbook has no worksheet")
	}
	rows, err := wb.GetRows(sheets[0])
	if err != nil {
		return table{}, source.AtPath(file, "sheet "+sheets[0], "%v", err)
	}
	t = table{file: file, sheet: sheets[0], rows: rows}
	if len(rows) == 0 {
		return table{}, t.refuse(0, "empty sheet: no header")
	}
	return t, nil
}

// row outcomes besides a listing.
type skip int

const (
	keep skip = iota
	skipBShare
	skipOutOfRange
	skipNoDate
)

// layout is one published list: the header that identifies it and how to
// read a row of it.
type layout struct {
	name string
	// required columns must all be present; the header may hold only
	// required and optional columns.
	required, optional []string
	// row reads one row, given a column getter, into a listing or a skip;
	// bShares counts B-share codes beside the row's A-share code.
	row func(col func(string) string) (sec ashare.Security, why skip, bShares int, err error)
}

var layouts = []layout{
	{
		name:     "Tushare stock_basic",
		required: []string{"ts_code", "name", "list_date"},
		optional: []string{"symbol", "area", "industry", "fullname", "enname", "cnspell", "market", "exchange",
			"curr_type", "list_status", "delist_date", "is_hs", "act_name", "act_ent_type"},
		row: tushareRow,
	},
	{
		name:     "SZSE A股列表",
		required: []string{"A股代码", "A股简称", "A股上市日期"},
		optional: []string{"板块", "公司全称", "英文名称", "注册地址", "A股总股本", "A股流通股本", "B股代码", "B股简称",
			"B股上市日期", "B股总股本", "B股流通股本", "地区", "省份", "城市", "所属行业", "公司网址", "未盈利",
			"具有表决权差异安排", "具有协议控制架构"},
		row: exchangeRow(ashare.SZSE, "A股简称", "英文名称", "A股上市日期"),
	},
	{
		name:     "SSE GPLIST",
		required: []string{"A股代码", "证券简称", "上市日期"},
		optional: []string{"B股代码", "扩位证券简称", "公司英文全称"},
		row:      exchangeRow(ashare.SSE, "证券简称", "公司英文全称", "上市日期"),
	},
}

// headerName is a header cell as layouts name it: SZSE pads some headers
// with spaces ("B股 简 称", "地      区").
func headerName(s string) string { return strings.Join(strings.Fields(s), "") }

// detect finds the layout whose columns the header holds, and each
// column's index. A leading unnamed column, the index pandas writes, is
// ignored.
func detect(header []string) (layout, map[string]int, bool) {
	cols := map[string]int{}
	for i, h := range header {
		name := headerName(h)
		if name == "" && i == 0 {
			continue
		}
		if _, dup := cols[name]; dup {
			return layout{}, nil, false
		}
		cols[name] = i
	}
	for _, l := range layouts {
		ok := true
		for _, r := range l.required {
			if _, has := cols[r]; !has {
				ok = false
			}
		}
		for c := range cols {
			if !slices.Contains(l.required, c) && !slices.Contains(l.optional, c) {
				ok = false
			}
		}
		if ok {
			return l, cols, true
		}
	}
	return layout{}, nil, false
}

func (t *table) listings() (Listings, error) {
	l, cols, ok := detect(t.rows[0])
	if !ok {
		return Listings{}, t.refuse(0, "header is not a known listings layout: Tushare stock_basic (ts_code,name,list_date,…), SZSE A股列表 (A股代码,A股简称,A股上市日期,…) or SSE GPLIST (A股代码,B股代码,证券简称,…,上市日期)")
	}
	var out Listings
	seen := map[string]bool{}
	for i := 1; i < len(t.rows); i++ {
		rec := t.rows[i]
		if t.sheet != "" && blank(rec) {
			continue
		}
		if t.sheet == "" && len(rec) != len(t.rows[0]) {
			return Listings{}, t.refuse(i, "%d fields, the header has %d", len(rec), len(t.rows[0]))
		}
		col := func(name string) string {
			j, has := cols[name]
			if !has || j >= len(rec) {
				return ""
			}
			return strings.TrimSpace(rec[j])
		}
		sec, why, bShares, err := l.row(col)
		if err != nil {
			return Listings{}, t.refuse(i, "%v", err)
		}
		out.Skipped.BShares += bShares
		switch why {
		case skipBShare:
			out.Skipped.BShares++
			continue
		case skipOutOfRange:
			out.Skipped.OutOfRange++
			continue
		case skipNoDate:
			out.Skipped.NoListingDate++
			continue
		}
		if seen[sec.Code] {
			return Listings{}, t.refuse(i, "a second row for %s", sec.Code)
		}
		seen[sec.Code] = true
		out.Securities = append(out.Securities, sec)
	}
	if len(out.Securities) == 0 {
		return Listings{}, t.refuse(min(1, len(t.rows)-1), "%v: no A-share row in the %s file (%s)", errNoRows, l.name, out.Skipped)
	}
	return out, nil
}

func blank(rec []string) bool {
	for _, c := range rec {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

// classify reads a code's digits on exchange e: a listing's code, or why
// the row is skipped.
func classify(e ashare.Exchange, digits string) (ashare.Code, skip, error) {
	if ashare.IsBShare(e, digits) {
		return ashare.Code{}, skipBShare, nil
	}
	c, err := ashare.ParseCode(string(e) + "." + digits)
	switch {
	case errors.Is(err, ashare.ErrWrongRange):
		return ashare.Code{}, skipOutOfRange, nil
	case err != nil:
		return ashare.Code{}, keep, err
	}
	return c, keep, nil
}

// tushareExchanges maps ts_code suffixes to exchanges.
var tushareExchanges = map[string]ashare.Exchange{"SH": ashare.SSE, "SZ": ashare.SZSE, "BJ": ashare.BSE}

func tushareRow(col func(string) string) (ashare.Security, skip, int, error) {
	tsCode := col("ts_code")
	digits, mark, _ := strings.Cut(tsCode, ".")
	e, known := tushareExchanges[mark]
	if !known || len(digits) != 6 {
		return ashare.Security{}, keep, 0, fmt.Errorf("ts_code %s is not <6 digits>.SH, .SZ or .BJ", source.Quote(tsCode))
	}
	if s := col("symbol"); s != "" && s != digits {
		return ashare.Security{}, keep, 0, fmt.Errorf("symbol %s does not match ts_code %s", source.Quote(s), source.Quote(tsCode))
	}
	code, why, err := classify(e, digits)
	if err != nil || why != keep {
		return ashare.Security{}, why, 0, err
	}
	listDate := col("list_date")
	if listDate == "" {
		return ashare.Security{}, skipNoDate, 0, nil
	}
	listed, err := isoDate("list_date", listDate)
	if err != nil {
		return ashare.Security{}, keep, 0, err
	}
	var delisted string
	switch status, delist := col("list_status"), col("delist_date"); {
	case status == "D" && delist == "":
		return ashare.Security{}, keep, 0, errors.New("list_status D (delisted) without a delist_date")
	case delist != "" && status != "D" && status != "":
		return ashare.Security{}, keep, 0, fmt.Errorf("delist_date %s on a row whose list_status is %s, not D", delist, source.Quote(status))
	case !slices.Contains([]string{"", "L", "D", "P"}, status):
		return ashare.Security{}, keep, 0, fmt.Errorf("list_status %s is not L, D or P", source.Quote(status))
	case delist != "":
		if delisted, err = isoDate("delist_date", delist); err != nil {
			return ashare.Security{}, keep, 0, err
		}
	}
	sec, err := security(code, col("name"), col("enname"), listed, delisted)
	return sec, keep, 0, err
}

// exchangeRow reads a row of an exchange's own list: its A-share code in
// A股代码, and a B-share code beside it in B股代码 ("-" or empty for none).
func exchangeRow(e ashare.Exchange, nameCol, englishCol, dateCol string) func(col func(string) string) (ashare.Security, skip, int, error) {
	return func(col func(string) string) (ashare.Security, skip, int, error) {
		bShares := 0
		switch b := col("B股代码"); {
		case b == "" || b == "-":
		case ashare.IsBShare(e, b):
			bShares = 1
		default:
			return ashare.Security{}, keep, 0, fmt.Errorf("column B股代码: %s is not a %s B-share code", source.Quote(b), e)
		}
		digits := col("A股代码")
		switch {
		case digits == "" && bShares == 1:
			return ashare.Security{}, skipBShare, 0, nil // a company with B-shares only
		case digits == "":
			return ashare.Security{}, keep, 0, errors.New("column A股代码 is empty")
		}
		code, why, err := classify(e, digits)
		if err != nil || why != keep {
			return ashare.Security{}, why, bShares, err
		}
		d := col(dateCol)
		if d == "" || d == "-" {
			return ashare.Security{}, skipNoDate, bShares, nil
		}
		listed, err := isoDate(dateCol, d)
		if err != nil {
			return ashare.Security{}, keep, 0, err
		}
		sec, err := security(code, col(nameCol), col(englishCol), listed, "")
		return sec, keep, bShares, err
	}
}

// security is one listing. english is the company's English name, kept
// with its runs of spaces made one ("-" or empty for none).
func security(code ashare.Code, name, english, listed, delisted string) (ashare.Security, error) {
	// The exchanges pad short names to a fixed width with spaces ("万  科Ａ");
	// Tushare prints the same name without them.
	name = strings.Join(strings.FieldsFunc(name, unicode.IsSpace), "")
	if name == "" {
		return ashare.Security{}, fmt.Errorf("%s has no name", code)
	}
	if delisted != "" && delisted <= listed {
		return ashare.Security{}, fmt.Errorf("delisting date %s is not after listing date %s", delisted, listed)
	}
	return ashare.Security{
		Code: code.String(), Exchange: string(code.Exchange), Board: string(code.Board),
		CompanyName: name, EnglishName: englishName(english), ListingDate: listed, DelistingDate: delisted, Listed: delisted == "",
	}, nil
}

func englishName(s string) string {
	if s = strings.Join(strings.Fields(s), " "); s == "-" {
		return ""
	}
	return s
}

// isoDate reads a date written YYYYMMDD (Tushare, SSE) or YYYY-MM-DD
// (SZSE) as YYYY-MM-DD.
func isoDate(col, s string) (string, error) {
	for _, layout := range []string{"20060102", time.DateOnly} {
		if d, err := time.Parse(layout, s); err == nil {
			return d.Format(time.DateOnly), nil
		}
	}
	return "", fmt.Errorf("%s %s is not a date (YYYYMMDD or YYYY-MM-DD)", col, source.Quote(s))
}
