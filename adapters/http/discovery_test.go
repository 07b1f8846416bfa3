package http_test

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/chinasecurities"
	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/app/usfinancials"
	"github.com/quarrydata/quarry/domain/account"
	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/domain/financials"
	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/domain/scope"
)

// discovery is a server holding a few US companies and A-share listings,
// and a key with every self-serve permission and 100 credits.
type discovery struct {
	t   *testing.T
	srv http.Handler
	key string
}

var discoveryNow = time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC)

func newDiscovery(t *testing.T) *discovery {
	t.Helper()
	ctx := context.Background()
	now := func() time.Time { return discoveryNow }
	p := memory.NewPlatform()
	acc := account.Account{ID: "acc_1", Email: "a@example.com", PasswordHash: "$argon2id$test", CreatedAt: now()}
	if err := p.Provision(ctx, acc, ledger.Entry{ID: "led_1", AccountID: acc.ID, Kind: ledger.Grant, Amount: 100, CreatedAt: now()}); err != nil {
		t.Fatal(err)
	}
	secret, err := apikey.Generate(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	k := apikey.Key{ID: "key_1", AccountID: acc.ID, Name: "k", Prefix: apikey.Prefix(secret), Hash: apikey.Digest(secret),
		Scopes: scope.Strings(scope.SelfServe()), CreatedAt: now()}
	if err := p.CreateKey(ctx, k, 10); err != nil {
		t.Fatal(err)
	}
	companies := memory.NewFinancials()
	retrieved := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	if err := companies.UpsertCompanies(ctx, []financials.Company{
		{CIK: "0000002488", Name: "ADVANCED MICRO DEVICES INC", Tickers: []string{"AMD"}, RetrievedAt: retrieved},
		{CIK: "0000789019", Name: "MICROSOFT CORP", Tickers: []string{"MSFT"}, RetrievedAt: retrieved},
		{CIK: "0001045810", Name: "NVIDIA CORP", Tickers: []string{"NVDA"}, RetrievedAt: retrieved.Add(time.Hour)},
	}); err != nil {
		t.Fatal(err)
	}
	listings := memory.NewSecurities()
	if err := listings.UpsertSecurities(ctx, []ashare.Security{
		{Code: "SSE.600519", Exchange: "SSE", Board: "main", CompanyName: "贵州茅台", EnglishName: "Kweichow Moutai Co.,Ltd.", ListingDate: "2001-08-27", Listed: true},
		{Code: "SZSE.000002", Exchange: "SZSE", Board: "main", CompanyName: "万科Ａ", ListingDate: "1991-01-29", Listed: true},
		{Code: "SZSE.300104", Exchange: "SZSE", Board: "chinext", CompanyName: "乐视退", ListingDate: "2010-08-12", DelistingDate: "2020-07-21"},
	}); err != nil {
		t.Fatal(err)
	}
	fin, china := usfinancials.New(companies, now, nil), chinasecurities.New(listings)
	srv, err := httpadapter.NewServer(httpadapter.Deps{
		Metering:     platform.NewMetering(p, p, now),
		Limiter:      platform.NewRateLimiter(memory.NewLimits(), 1000, 1000, now),
		Availability: usecase.NewAvailability([]usecase.DatasetProbe{fin.Probe(), china.Probe()}),
		Handlers:     append(httpadapter.USFinancialsHandlers(fin), httpadapter.ChinaHandlers(china, now)...),
		Clock:        now,
		Log:          zap.NewNop(),
	})
	if err != nil {
		t.Fatal(err)
	}
	return &discovery{t: t, srv: srv, key: secret}
}

// get asks path and decodes the JSON answer into out, returning the
// response.
func (d *discovery) get(path string, out any) *httptest.ResponseRecorder {
	d.t.Helper()
	r := httptest.NewRequest("GET", path, nil)
	r.Header.Set("X-API-KEY", d.key)
	w := httptest.NewRecorder()
	d.srv.ServeHTTP(w, r)
	if err := json.Unmarshal(w.Body.Bytes(), out); err != nil {
		d.t.Fatalf("GET %s: %d, not JSON: %s", path, w.Code, w.Body)
	}
	return w
}

type pageMeta struct {
	Jurisdiction string `json:"jurisdiction"`
	Count        int    `json:"count"`
	Limit        int    `json:"limit"`
	Offset       int    `json:"offset"`
	NextOffset   *int   `json:"next_offset"`
	AsOf         string `json:"as_of"`
	Provenance   struct {
		RetrievedAt string `json:"retrieved_at"`
	} `json:"provenance"`
}

type refusal struct {
	Error      string `json:"error"`
	Message    string `json:"message"`
	DidYouMean string `json:"did_you_mean"`
}

func TestUSCompaniesAreSearchedAndPaged(t *testing.T) {
	d := newDiscovery(t)
	type page struct {
		Companies []struct {
			CIK     string   `json:"cik"`
			Name    string   `json:"name"`
			Tickers []string `json:"tickers"`
		} `json:"companies"`
		Meta pageMeta `json:"meta"`
	}
	ciks := func(p page) []string {
		var out []string
		for _, c := range p.Companies {
			out = append(out, c.CIK)
		}
		return out
	}
	for path, want := range map[string][]string{
		"/us/companies":                        {"0000002488", "0000789019", "0001045810"},
		"/us/companies?ticker=nv":              {"0001045810"},
		"/us/companies?name=Micro":             {"0000002488", "0000789019"},
		"/us/companies?name=micro&ticker=MS":   {"0000789019"},
		"/us/companies?cik=1045":               {"0001045810"},
		"/us/companies?cik=0000":               {"0000002488", "0000789019"},
		"/us/companies?name=apple":             nil,
		"/us/companies?ticker=A&cik=7":         nil,
		"/us/companies?name=nvidia%20corp.":    {"0001045810"},
		"/us/companies?ticker=msft&limit=1000": {"0000789019"},
	} {
		var p page
		w := d.get(path, &p)
		if w.Code != http.StatusOK || !slices.Equal(ciks(p), want) || p.Meta.Count != len(want) || p.Companies == nil {
			t.Errorf("GET %s: %d %s, want CIKs %v", path, w.Code, w.Body, want)
		}
		if w.Header().Get("X-Credits-Cost") != "1" {
			t.Errorf("GET %s cost %q credits, want 1", path, w.Header().Get("X-Credits-Cost"))
		}
	}
	var first, second page
	d.get("/us/companies?limit=2", &first)
	d.get("/us/companies?limit=2&offset=2", &second)
	if first.Meta.NextOffset == nil || *first.Meta.NextOffset != 2 || second.Meta.NextOffset != nil ||
		!slices.Equal(append(ciks(first), ciks(second)...), []string{"0000002488", "0000789019", "0001045810"}) {
		t.Fatalf("pages: %+v then %+v", first, second)
	}
	if first.Meta.Jurisdiction != "US" || first.Meta.Limit != 2 || first.Meta.AsOf != "2026-07-20T09:00:00Z" ||
		first.Meta.Provenance.RetrievedAt != "2026-07-01T00:00:00Z" || first.Companies[0].Name != "ADVANCED MICRO DEVICES INC" ||
		!slices.Equal(first.Companies[0].Tickers, []string{"AMD"}) {
		t.Fatalf("first page: %+v", first)
	}
}

func TestUSCompanySearchRefusesMalformedFilters(t *testing.T) {
	d := newDiscovery(t)
	for path, want := range map[string]string{
		"/us/companies?ticker=NV%24":        "ticker",
		"/us/companies?ticker=ABCDEFGHIJKL": "ticker",
		"/us/companies?cik=10x":             "cik",
		"/us/companies?cik=12345678901":     "cik",
		"/us/companies?name=...":            "name",
		"/us/companies?limit=0":             "limit",
		"/us/companies?limit=1001":          "limit",
		"/us/companies?offset=-1":           "offset",
	} {
		var r refusal
		w := d.get(path, &r)
		if w.Code != http.StatusUnprocessableEntity || r.Error != "validation_failed" || !strings.Contains(r.Message, want) {
			t.Errorf("GET %s: %d %s, want 422 naming %s", path, w.Code, w.Body, want)
		}
	}
	var r refusal
	if w := d.get("/us/companies?tickr=NVDA", &r); w.Code != http.StatusBadRequest || !strings.Contains(r.Message, "tickr") {
		t.Errorf("an unknown parameter: %d %s", w.Code, w.Body)
	}
}

func TestChinaListingsAreSearchedAndPaged(t *testing.T) {
	d := newDiscovery(t)
	type page struct {
		Securities []struct {
			Code          string  `json:"code"`
			DelistingDate *string `json:"delisting_date"`
		} `json:"securities"`
		Meta pageMeta `json:"meta"`
	}
	codes := func(p page) []string {
		var out []string
		for _, s := range p.Securities {
			out = append(out, s.Code)
		}
		return out
	}
	for path, want := range map[string][]string{
		"/china/securities":                              {"SSE.600519", "SZSE.000002", "SZSE.300104"},
		"/china/securities?name=kweichow":                {"SSE.600519"},
		"/china/securities?name=茅台":                      {"SSE.600519"},
		"/china/securities?name=万科A":                     {"SZSE.000002"},
		"/china/securities?code=600":                     {"SSE.600519"},
		"/china/securities?code=600519":                  {"SSE.600519"},
		"/china/securities?code=szse.":                   {"SZSE.000002", "SZSE.300104"},
		"/china/securities?code=SZSE.3":                  {"SZSE.300104"},
		"/china/securities?exchange=szse":                {"SZSE.000002", "SZSE.300104"},
		"/china/securities?board=chinext":                {"SZSE.300104"},
		"/china/securities?listed=false":                 {"SZSE.300104"},
		"/china/securities?listed=true&exchange=SZSE":    {"SZSE.000002"},
		"/china/securities?code=SSE.600519&exchange=sse": {"SSE.600519"},
		"/china/securities?name=平安":                      nil,
	} {
		var p page
		w := d.get(path, &p)
		if w.Code != http.StatusOK || !slices.Equal(codes(p), want) || p.Meta.Count != len(want) || p.Securities == nil || p.Meta.Jurisdiction != "CN" {
			t.Errorf("GET %s: %d %s, want codes %v", path, w.Code, w.Body, want)
		}
	}
	var first, second page
	d.get("/china/securities?limit=2", &first)
	d.get("/china/securities?limit=2&offset=2", &second)
	if first.Meta.NextOffset == nil || *first.Meta.NextOffset != 2 || second.Meta.NextOffset != nil ||
		!slices.Equal(append(codes(first), codes(second)...), []string{"SSE.600519", "SZSE.000002", "SZSE.300104"}) ||
		second.Securities[0].DelistingDate == nil || *second.Securities[0].DelistingDate != "2020-07-21" {
		t.Fatalf("pages: %+v then %+v", first, second)
	}
}

// A malformed filter is 422, and a code in a vendor's form, bare or under
// the wrong exchange names the exchange-qualified code it means, in the
// message and in did_you_mean, on the search and on the lookup by code.
func TestChinaCodesNameTheQualifiedFormMeant(t *testing.T) {
	d := newDiscovery(t)
	for _, c := range []struct {
		path   string
		status int
		meant  string
		says   string
	}{
		{"/china/securities/600519.SH", 422, "SSE.600519", "did you mean SSE.600519?"},
		{"/china/securities/sh600519", 422, "SSE.600519", "did you mean SSE.600519?"},
		{"/china/securities/600519.XSHG", 422, "SSE.600519", "did you mean SSE.600519?"},
		{"/china/securities/600519", 422, "SSE.600519", "did you mean SSE.600519?"},
		{"/china/securities/SZSE.600519", 422, "SSE.600519", "did you mean SSE.600519?"},
		{"/china/securities/000001.SZ", 422, "SZSE.000001", "did you mean SZSE.000001?"},
		{"/china/securities/bj830799", 422, "BSE.830799", "did you mean BSE.830799?"},
		{"/china/securities/NYSE.600519", 422, "SSE.600519", "SSE, SZSE, BSE"},
		{"/china/securities/SSE.AAPL", 422, "", "6 digits"},
		{"/china/securities/900901", 422, "", "no mainland exchange"},
		{"/china/securities?code=600519.SH", 422, "SSE.600519", "did you mean SSE.600519?"},
		{"/china/securities?code=sz000002", 422, "SZSE.000002", "did you mean SZSE.000002?"},
		{"/china/securities?code=SZSE.600519", 422, "SSE.600519", "did you mean SSE.600519?"},
		{"/china/securities?code=6005190", 422, "", "prefix"},
		{"/china/securities?code=NYSE.6", 422, "", "prefix"},
		{"/china/securities?exchange=HKEX", 422, "", "SSE, SZSE, BSE"},
		{"/china/securities?board=gem", 422, "", "main, star, chinext, bse"},
		{"/china/securities?listed=yes", 422, "", "true or false"},
		{"/china/securities?code=SSE.6&exchange=SZSE", 400, "", "SZSE"},
	} {
		var r refusal
		w := d.get(c.path, &r)
		if w.Code != c.status || r.DidYouMean != c.meant || !strings.Contains(r.Message, c.says) {
			t.Errorf("GET %s: %d %s, want %d naming %q, did_you_mean %q", c.path, w.Code, w.Body, c.status, c.says, c.meant)
		}
		if strings.Contains(w.Body.String(), "did_you_mean") != (c.meant != "") {
			t.Errorf("GET %s: did_you_mean present when it should not be, or absent: %s", c.path, w.Body)
		}
	}
}
