package replay

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/sampledata"
)

// Faults of the Tushare API, answered with status 200 as the API does.
const (
	// NoPermission answers code 40203, the token may not call the API.
	NoPermission Fault = iota + 100
	// RateSpent answers code 40203, the token's calls for the minute spent.
	RateSpent
)

// tushareNote labels every answer the server builds: none was recorded.
const tushareNote = "re-laid by quarrytest/replay from the real Tushare rows of the sample (sampledata/README.md): " +
	"the API's JSON shape around those rows, not a recorded answer"

// refusals are the bodies of the API's refusals, in the shape of one
// recorded from api.tushare.pro (code, msg, message, data null); the
// wording is the API's, as quoted in public issue threads.
var refusals = map[Fault]string{
	NoPermission: "抱歉，您没有接口访问权限，权限的具体详情访问：https://tushare.pro/document/1?doc_id=108。",
	RateSpent:    "抱歉，您每分钟最多访问该接口500次，权限的具体详情访问：https://tushare.pro/document/1?doc_id=108。",
}

// tushareTable is one API's rows: fields, and items keyed by trade date
// ("" for an API without dates).
type tushareTable struct {
	fields  []string
	numeric map[string]bool
	items   map[string][][]string
}

// AddTushare answers the Tushare Pro API at the root path: POST {api_name,
// token, params, fields}. `daily` with trade_date answers the sample's
// real bars of that day (sampledata/china_prices/), none on a day the
// sample does not hold, such as a holiday; `stock_basic` answers the
// sample's listings (tushare_stock_basic.csv). Every answer is labelled as
// re-laid.
func (s *Server) AddTushare(t testing.TB) {
	daily := tushareTable{numeric: map[string]bool{}, items: map[string][][]string{}}
	entries, err := fs.ReadDir(sampledata.ChinaPrices, sampledata.ChinaPricesDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		header, rows := readSampleCSV(t, sampledata.ChinaPrices, path.Join(sampledata.ChinaPricesDir, e.Name()))
		daily.fields = header
		for _, r := range rows {
			daily.items[r[1]] = append(daily.items[r[1]], r)
		}
	}
	for _, f := range daily.fields[2:] {
		daily.numeric[f] = true
	}
	header, rows := readSampleCSV(t, sampledata.Files, sampledata.ChinaSecurities)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tushare = map[string]tushareTable{
		"daily":       daily,
		"stock_basic": {fields: header, numeric: map[string]bool{}, items: map[string][][]string{"": rows}},
	}
}

func readSampleCSV(t testing.TB, fsys fs.FS, name string) ([]string, [][]string) {
	body, err := fs.ReadFile(fsys, name)
	if err != nil {
		t.Fatal(err)
	}
	all, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
	if err != nil || len(all) == 0 {
		t.Fatalf("%s: %v", name, err)
	}
	return all[0], all[1:]
}

// FailTushare makes the next answers of api for tradeDate (YYYYMMDD; ""
// for stock_basic) fail, one fault each, in order.
func (s *Server) FailTushare(api, tradeDate string, faults ...Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := tushareKey(api, tradeDate)
	s.faults[k] = append(s.faults[k], faults...)
}

func tushareKey(api, tradeDate string) string { return "tushare " + api + " " + tradeDate }

// tushareRequest is a request's body.
type tushareRequest struct {
	API    string            `json:"api_name"`
	Token  string            `json:"token"`
	Params map[string]string `json:"params"`
	Fields string            `json:"fields"`
}

// serveTushare answers one API request, recording it.
func (s *Server) serveTushare(w http.ResponseWriter, r *http.Request, rec Request) {
	var q tushareRequest
	body, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(body, &q); err != nil {
		http.Error(w, "not JSON", http.StatusBadRequest)
		return
	}
	date := q.Params["trade_date"]
	rec.API, rec.Token = strings.TrimSpace(q.API+" "+date), q.Token
	s.mu.Lock()
	s.requests = append(s.requests, rec)
	tbl, ok := s.tushare[q.API]
	var fault Fault
	k := tushareKey(q.API, date)
	if f := s.faults[k]; len(f) > 0 {
		fault, s.faults[k] = f[0], f[1:]
	}
	s.mu.Unlock()
	if msg, refused := refusals[fault]; refused {
		writeJSON(w, map[string]any{"code": 40203, "msg": msg, "message": msg, "data": nil}, 0)
		return
	}
	if !ok {
		writeJSON(w, map[string]any{"code": 40203, "msg": refusals[NoPermission], "data": nil}, fault)
		return
	}
	fields, items := tbl.answer(q.Fields, date)
	writeJSON(w, map[string]any{"_note": tushareNote, "code": 0, "msg": "",
		"data": map[string]any{"fields": fields, "items": items, "has_more": false}}, fault)
}

// answer is the table's rows of date, the fields asked for (all when the
// request names none or one the table lacks), numbers as JSON numbers and
// empty values as null.
func (tb tushareTable) answer(asked, date string) ([]string, [][]any) {
	fields := tb.fields
	if asked != "" {
		want := strings.Split(asked, ",")
		if !slices.ContainsFunc(want, func(f string) bool { return !slices.Contains(tb.fields, f) }) {
			fields = want
		}
	}
	items := [][]any{}
	for _, row := range tb.items[date] {
		item := make([]any, len(fields))
		for i, f := range fields {
			v := row[slices.Index(tb.fields, f)]
			switch {
			case v == "":
				item[i] = nil
			case tb.numeric[f]:
				item[i] = json.Number(v)
			default:
				item[i] = v
			}
		}
		items = append(items, item)
	}
	return fields, items
}

// writeJSON writes v, failing as fault asks.
func writeJSON(w http.ResponseWriter, v any, fault Fault) {
	body, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	answer(w, body, fault)
}
