package asharelistings_test

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/quarrydata/quarry/adapters/asharelistings"
	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/domain/source"
	"github.com/quarrydata/quarry/sampledata"
)

// The real files: Tushare's stock_basic (the bundled sample, 5,524 rows),
// and the SZSE's A股列表.xlsx of 2025-12-30 (2,880 rows, 34 of them with a
// B-share code beside the A-share code). Sources in sampledata/README.md.
const szseFile = "testdata/szse_a_share_list.xlsx"

func tushareBody(t testing.TB) []byte {
	t.Helper()
	b, err := sampledata.Files.ReadFile(sampledata.ChinaSecurities)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func readFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func parse(t testing.TB, name string, body []byte) asharelistings.Listings {
	t.Helper()
	l, err := asharelistings.Parse(name, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func byCode(secs []ashare.Security) map[string]ashare.Security {
	m := make(map[string]ashare.Security, len(secs))
	for _, s := range secs {
		m[s.Code] = s
	}
	return m
}

func TestParseTushareStockBasic(t *testing.T) {
	l := parse(t, sampledata.ChinaSecurities, tushareBody(t))
	if len(l.Securities) != 5524 || l.Skipped != (asharelistings.Skipped{}) {
		t.Fatalf("%d listings, %s; want 5524 and nothing skipped", len(l.Securities), l.Skipped)
	}
	boards := map[string]int{}
	for _, s := range l.Securities {
		boards[s.Exchange+"/"+s.Board]++
		if !s.Listed || s.DelistingDate != "" {
			t.Fatalf("%+v: stock_basic without list_status lists only trading listings", s)
		}
	}
	// The file's own market column: 主板 3,199, 创业板 1,398, 科创板 610, 北交所 317.
	want := map[string]int{"SSE/main": 1705, "SZSE/main": 1494, "SZSE/chinext": 1398, "SSE/star": 610, "BSE/bse": 317}
	for k, n := range want {
		if boards[k] != n {
			t.Errorf("%s: %d listings, want %d", k, boards[k], n)
		}
	}
	m := byCode(l.Securities)
	for _, w := range []ashare.Security{
		{Code: "SSE.600519", Exchange: "SSE", Board: "main", CompanyName: "贵州茅台", ListingDate: "2001-08-27", Listed: true},
		{Code: "SZSE.000001", Exchange: "SZSE", Board: "main", CompanyName: "平安银行", ListingDate: "1991-04-03", Listed: true},
		{Code: "SZSE.000002", Exchange: "SZSE", Board: "main", CompanyName: "万科Ａ", ListingDate: "1991-01-29", Listed: true},
		{Code: "SSE.688981", Exchange: "SSE", Board: "star", CompanyName: "中芯国际", ListingDate: "2020-07-16", Listed: true},
		{Code: "SZSE.302132", Exchange: "SZSE", Board: "chinext", CompanyName: "中航成飞", ListingDate: "2010-08-27", Listed: true},
		{Code: "BSE.920185", Exchange: "BSE", Board: "bse", CompanyName: "贝特瑞", ListingDate: "2020-07-27", Listed: true},
	} {
		if m[w.Code] != w {
			t.Errorf("%s = %+v, want %+v", w.Code, m[w.Code], w)
		}
	}
}

func TestParseSZSEList(t *testing.T) {
	l := parse(t, "A股列表.xlsx", readFile(t, szseFile))
	if len(l.Securities) != 2880 || l.Skipped != (asharelistings.Skipped{BShares: 34}) {
		t.Fatalf("%d listings, %s; want 2880 and 34 B-shares", len(l.Securities), l.Skipped)
	}
	m := byCode(l.Securities)
	for _, w := range []ashare.Security{
		{Code: "SZSE.000001", Exchange: "SZSE", Board: "main", CompanyName: "平安银行", EnglishName: "Ping An Bank Co., Ltd.", ListingDate: "1991-04-03", Listed: true},
		// "万  科Ａ" in the file: the exchange pads short names with spaces.
		{Code: "SZSE.000002", Exchange: "SZSE", Board: "main", CompanyName: "万科Ａ", EnglishName: "CHINA VANKE CO., LTD.", ListingDate: "1991-01-29", Listed: true},
		// 深物业A, whose B-share 200011 is skipped.
		{Code: "SZSE.000011", Exchange: "SZSE", Board: "main", CompanyName: "深物业A", EnglishName: "ShenZhen Properties & Resources Development (Group) Ltd.", ListingDate: "1992-03-30", Listed: true},
		{Code: "SZSE.300750", Exchange: "SZSE", Board: "chinext", CompanyName: "宁德时代", EnglishName: "Contemporary Amperex Technology Co., Limited", ListingDate: "2018-06-11", Listed: true},
	} {
		if m[w.Code] != w {
			t.Errorf("%s = %+v, want %+v", w.Code, m[w.Code], w)
		}
	}
	// Both published lists give every common listing the same listing date.
	tushare := byCode(parse(t, sampledata.ChinaSecurities, tushareBody(t)).Securities)
	// Short names change with renames and risk warnings: the two lists,
	// of different dates, differ on 129 of them.
	common, renamed := 0, 0
	for code, s := range m {
		if ts, ok := tushare[code]; ok {
			common++
			if ts.ListingDate != s.ListingDate || ts.Board != s.Board {
				t.Errorf("%s: SZSE %s %s, Tushare %s %s", code, s.ListingDate, s.Board, ts.ListingDate, ts.Board)
			}
			if ts.CompanyName != s.CompanyName {
				renamed++
			}
		}
	}
	if common != 2875 || renamed != 129 {
		t.Errorf("%d SZSE listings in Tushare's list, %d named otherwise; want 2875 and 129", common, renamed)
	}
}

func TestParseRefusesLegacyXLS(t *testing.T) {
	// The first 4 KiB of the SSE's real GPLIST.xls: the signature is enough.
	_, err := asharelistings.Parse("GPLIST.xls", bytes.NewReader(readFile(t, "testdata/sse_GPLIST_head.xls")))
	if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), "GPLIST.xls: a legacy Excel 97-2003 (.xls)") {
		t.Fatalf("err = %v", err)
	}
}

// rows of the real Tushare file, for odd files built around them.
const (
	tsHeader = "ts_code,symbol,name,area,industry,cnspell,market,list_date,act_name,act_ent_type\n"
	moutai   = "600519.SH,600519,贵州茅台,贵州,白酒,GZMT,主板,20010827,贵州省人民政府国有资产监督管理委员会,地方国有企业\n"
	pingAn   = "000001.SZ,000001,平安银行,深圳,银行,PAYH,主板,19910403,无实际控制人,其他\n"
)

func TestParseSkipsAndCounts(t *testing.T) {
	cases := map[string]struct {
		body    string
		listed  int
		skipped asharelistings.Skipped
	}{
		// Constructed B-share rows in Tushare's layout (codes 200011 and
		// 900936 are real B-shares; these rows were not downloaded).
		"Tushare B-shares": {tsHeader + moutai + "200011.SZ,200011,深物业B,深圳,区域地产,SWYB,主板,19920330,,\n" +
			"900936.SH,900936,鄂资B股,内蒙古,其他,EZBG,主板,20010426,,\n" + pingAn, 2, asharelistings.Skipped{BShares: 2}},
		"Tushare without a listing date": {tsHeader + moutai + "603248.SH,603248,C锡华,江苏,电气设备,CXH,主板,,,\n", 1,
			asharelistings.Skipped{NoListingDate: 1}},
		"Tushare ETF and index codes": {tsHeader + "510300.SH,510300,沪深300ETF,,,,,20120528,,\n" + "399001.SZ,399001,深证成指,,,,,19940720,,\n" + pingAn, 1,
			asharelistings.Skipped{OutOfRange: 2}},
		"BOM and pandas index": {"\uFEFF," + tsHeader + "0," + moutai + "1," + pingAn, 2, asharelistings.Skipped{}},
		"CRLF":                 {strings.ReplaceAll(tsHeader+moutai+pingAn, "\n", "\r\n"), 2, asharelistings.Skipped{}},
		// The SSE's GPLIST columns, saved as CSV: 600295 with its B-share 900936.
		"SSE GPLIST as CSV": {"A股代码,B股代码,证券简称,扩位证券简称,公司英文全称,上市日期\n" +
			"600295,900936,鄂尔多斯,鄂尔多斯,\"INNER MONGOLIA ERDOS RESOURCES CO.,LTD.\",20010426\n" +
			"600519,-,贵州茅台,贵州茅台,\"Kweichow Moutai Co.,Ltd.\",20010827\n", 2, asharelistings.Skipped{BShares: 1}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			l := parse(t, "l.csv", []byte(c.body))
			if len(l.Securities) != c.listed || l.Skipped != c.skipped {
				t.Fatalf("%d listings, %s; want %d, %s", len(l.Securities), l.Skipped, c.listed, c.skipped)
			}
		})
	}
}

func TestParseDelisted(t *testing.T) {
	// Tushare's stock_basic layout asked for list_status and delist_date, in
	// a constructed row with LeTV's facts (乐视网, 300104, listed 2010-08-12,
	// delisted 2020-07-21; the earlier sample's row): no downloaded
	// stock_basic file with delisted rows was found.
	body := "ts_code,symbol,name,market,list_status,list_date,delist_date\n" +
		"300104.SZ,300104,乐视退,创业板,D,20100812,20200721\n" +
		"600519.SH,600519,贵州茅台,主板,L,20010827,\n"
	m := byCode(parse(t, "l.csv", []byte(body)).Securities)
	want := ashare.Security{Code: "SZSE.300104", Exchange: "SZSE", Board: "chinext", CompanyName: "乐视退",
		ListingDate: "2010-08-12", DelistingDate: "2020-07-21"}
	if m["SZSE.300104"] != want || !m["SSE.600519"].Listed {
		t.Fatalf("got %+v and %+v", m["SZSE.300104"], m["SSE.600519"])
	}
}

func TestParseRefusesBadFiles(t *testing.T) {
	whole := string(tushareBody(t))
	cases := map[string]struct{ body, says string }{
		"empty":                {"", "l.csv:1: empty file"},
		"old Quarry layout":    {"exchange,code,company_name,listing_date,delisting_date\nSSE,600519,X,2001-08-27,\n", "l.csv:1: header is not a known listings layout"},
		"daily bars":           {"ts_code,trade_date,open,high,low,close,pre_close,change,pct_chg,vol,amount\n", "not a known listings layout"},
		"header only":          {tsHeader, "no listings"},
		"only B-shares":        {tsHeader + "200011.SZ,200011,深物业B,深圳,区域地产,SWYB,主板,19920330,,\n", "l.csv:2: no listings: no A-share row in the Tushare stock_basic file (skipped 1 B-shares"},
		"truncated mid-row":    {whole[:len(whole)/2], "l.csv:2591: the last line has no line break"},
		"truncated last field": {whole[:len(whole)-4], "l.csv:5525: the last line has no line break"},
		"truncated in quote":   {tsHeader + moutai + "000001.SZ,000001,\"平安", "l.csv:3"},
		"no final line break":  {tsHeader + moutai + strings.TrimSuffix(pingAn, "\n"), "l.csv:3: the last line has no line break"},
		"short row":            {tsHeader + moutai + "000001.SZ,000001,平安银行\n", "l.csv:3: 3 fields"},
		"wrong suffix":         {tsHeader + "600519.SS,600519,贵州茅台,贵州,白酒,GZMT,主板,20010827,,\n", "l.csv:2: ts_code \"600519.SS\""},
		"wrong exchange":       {tsHeader + "600519.SZ,600519,贵州茅台,贵州,白酒,GZMT,主板,20010827,,\n" + pingAn, ""},
		"symbol mismatch":      {tsHeader + "600519.SH,600518,贵州茅台,贵州,白酒,GZMT,主板,20010827,,\n", "symbol \"600518\""},
		"bad date":             {tsHeader + "600519.SH,600519,贵州茅台,贵州,白酒,GZMT,主板,20011327,,\n", "l.csv:2: list_date \"20011327\""},
		"no name":              {tsHeader + "600519.SH,600519, ,贵州,白酒,GZMT,主板,20010827,,\n", "SSE.600519 has no name"},
		"duplicate":            {tsHeader + moutai + pingAn + moutai, "l.csv:4: a second row for SSE.600519"},
		"GBK":                  {tsHeader + "600519.SH,600519,\xb9\xf3\xd6\xdd\xc3\xa9\xcc\xa8,,,,,20010827,,\n", "l.csv:2: not UTF-8"},
		"delisted no date":     {"ts_code,name,list_status,list_date,delist_date\n300104.SZ,乐视退,D,20100812,\n", "without a delist_date"},
		"listed with date":     {"ts_code,name,list_status,list_date,delist_date\n300104.SZ,乐视退,L,20100812,20200721\n", "not D"},
		"delisted first":       {"ts_code,name,list_status,list_date,delist_date\n300104.SZ,乐视退,D,20100812,20100812\n", "not after"},
		"B column not B":       {"A股代码,B股代码,证券简称,上市日期\n600519,600000,贵州茅台,20010827\n", "column B股代码: \"600000\""},
		"no A code":            {"A股代码,B股代码,证券简称,上市日期\n,-,贵州茅台,20010827\n", "column A股代码 is empty"},
		"unknown column":       {"ts_code,name,list_date,price\n600519.SH,贵州茅台,20010827,1500\n", "not a known listings layout"},
	}
	// A code of the other exchange's range is not skipped as out of range
	// when it is malformed for the exchange: 600519.SZ is a wrong range,
	// counted, and the file still loads.
	if l := parse(t, "l.csv", []byte(cases["wrong exchange"].body)); l.Skipped.OutOfRange != 1 {
		t.Fatalf("600519.SZ: %s", l.Skipped)
	}
	delete(cases, "wrong exchange")
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := asharelistings.Parse("l.csv", strings.NewReader(c.body))
			if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("err = %v, want ErrBadInput mentioning %q", err, c.says)
			}
		})
	}
}

func TestParseRefusesBadWorkbooks(t *testing.T) {
	real := readFile(t, szseFile)
	cases := map[string]struct {
		body []byte
		says string
	}{
		"truncated":                 {real[:len(real)/2], "A股列表.xlsx: not a readable .xlsx workbook"},
		"a zip that is no workbook": {zipOf(t, "hello.txt", "hi"), "not a readable .xlsx workbook"},
		"bad date": {workbook(t, [][]string{
			{"板块", "A股代码", "A股简称", "A股上市日期", "B股代码"},
			{"主板", "000001", "平安银行", "1991-04-03", ""},
			{"主板", "000002", "万  科Ａ", "1991/01/29", ""},
		}), "A股列表.xlsx: sheet Sheet1 row 3: A股上市日期 \"1991/01/29\""},
		"unknown header": {workbook(t, [][]string{{"代码", "名称"}, {"000001", "平安银行"}}), "sheet Sheet1 row 1: header is not"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := asharelistings.Parse("A股列表.xlsx", bytes.NewReader(c.body))
			if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("err = %v, want ErrBadInput mentioning %q", err, c.says)
			}
		})
	}
}

func TestParseWorkbookSkips(t *testing.T) {
	// SZSE rows as the real list has them (000011 with its B-share 200011),
	// a B-share-only company, a blank row and a row without a listing date.
	l := parse(t, "A股列表.xlsx", workbook(t, [][]string{
		{"板块", "A股代码", "A股简称", "A股上市日期", "B股代码", "B股 简 称"},
		{"主板", "000011", "深物业A", "1992-03-30", "200011", "深物业B"},
		{},
		{"主板", "", "", "", "200012", "南  玻Ｂ"},
		{"主板", "001400", "新股", "", "", ""},
		{"创业板", "302132", "中航成飞", "2010-08-27", "", ""},
	}))
	if len(l.Securities) != 2 || l.Skipped != (asharelistings.Skipped{BShares: 2, NoListingDate: 1}) {
		t.Fatalf("%+v, %s", l.Securities, l.Skipped)
	}
}

// workbook writes rows into the first sheet of a new workbook.
func workbook(t testing.TB, rows [][]string) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		row := make([]any, len(r))
		for j, v := range r {
			row[j] = v
		}
		if err := f.SetSheetRow("Sheet1", cell, &row); err != nil {
			t.Fatal(err)
		}
	}
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func zipOf(t testing.TB, name, body string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, err := zw.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.WriteString(w, body)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// checkListings is what every fuzz target asserts of an accepted file.
func checkListings(t *testing.T, l asharelistings.Listings) {
	seen := map[string]bool{}
	for _, s := range l.Securities {
		c, err := ashare.ParseCode(s.Code)
		if err != nil || string(c.Exchange) != s.Exchange || string(c.Board) != s.Board {
			t.Fatalf("accepted %+v: %v", s, err)
		}
		if s.CompanyName == "" || len(s.ListingDate) != 10 || s.Listed != (s.DelistingDate == "") || seen[s.Code] {
			t.Fatalf("accepted incomplete or repeated listing %+v", s)
		}
		seen[s.Code] = true
	}
}

func fuzzParse(f *testing.F, name string) {
	f.Fuzz(func(t *testing.T, body []byte) {
		l, err := asharelistings.Parse(name, bytes.NewReader(body))
		if err != nil {
			if !errors.Is(err, source.ErrBadInput) {
				t.Fatalf("unexpected error kind: %v", err)
			}
			return
		}
		checkListings(t, l)
	})
}

// FuzzParseTushare starts from Tushare stock_basic rows (testdata/fuzz).
func FuzzParseTushare(f *testing.F) { fuzzParse(f, "stock_basic.csv") }

// FuzzParseSZSE starts from a small A股列表 workbook of real SZSE rows. Run
// it with -fuzzminimizetime 1x: minimizing each new-coverage workbook (17 kB)
// otherwise stalls the run for minutes (1.36 million inputs a minute
// without it, no failure).
func FuzzParseSZSE(f *testing.F) { fuzzParse(f, "A股列表.xlsx") }

// FuzzParseSSE starts from the SSE's GPLIST columns saved as CSV.
func FuzzParseSSE(f *testing.F) { fuzzParse(f, "GPLIST.csv") }

// Each list's English name column is kept as the company's English name,
// its runs of spaces made one; "-" or an empty cell is none.
func TestEnglishNames(t *testing.T) {
	for name, c := range map[string]struct {
		body string
		want map[string]string
	}{
		"SSE GPLIST": {"A股代码,B股代码,证券简称,扩位证券简称,公司英文全称,上市日期\n" +
			"600519,-,贵州茅台,贵州茅台,\"Kweichow  Moutai Co.,Ltd.\",20010827\n" +
			"600000,-,浦发银行,浦发银行,-,19991110\n",
			map[string]string{"SSE.600519": "Kweichow Moutai Co.,Ltd.", "SSE.600000": ""}},
		"Tushare enname": {"ts_code,symbol,name,enname,list_date\n" +
			"000001.SZ,000001,平安银行,\"Ping An Bank Co., Ltd.\",19910403\n" +
			"600519.SH,600519,贵州茅台,,20010827\n",
			map[string]string{"SZSE.000001": "Ping An Bank Co., Ltd.", "SSE.600519": ""}},
	} {
		m := byCode(parse(t, "l.csv", []byte(c.body)).Securities)
		for code, want := range c.want {
			if got := m[code].EnglishName; got != want {
				t.Errorf("%s: %s english name %q, want %q", name, code, got, want)
			}
		}
	}
}
