package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math/big"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/quarrydata/quarry/adapters/http/openapi"
	"github.com/quarrydata/quarry/client"
	"github.com/quarrydata/quarry/quarrytest"
)

// exactCase is one call of the generated client: what it asks, and the
// typed value it decoded the answer into beside the answer's raw body.
type exactCase struct {
	name string
	call func(ctx context.Context, c *client.ClientWithResponses) (status int, body []byte, typed any, err error)
}

// TestClientDecodesEveryNumberExactly calls every JSON route of the
// generated client (and MCP tools/call for the data routes with the most
// numbers) against a quarrytest server on the bundled sample, reads every
// number of the typed value the client decoded as encoding/json would
// write it from a float64 or an integer (typedNumbers), and compares it with
// the number in the raw body, read with json.Decoder.UseNumber, as exact
// decimals (big.Rat): a float32 field turns NVIDIA's fiscal 2024 revenue,
// 60922000000, into 60921999360. Each raw body is also validated against
// the OpenAPI document, so a schema claiming int64 for a number the server
// sends with a fraction fails here too.
func TestClientDecodesEveryNumberExactly(t *testing.T) {
	srv := quarrytest.Start(t)
	ctx := context.Background()
	validate := documentValidator(t)
	rec := &recorder{validate: validate, t: t}
	httpClient := &http.Client{Transport: rec}
	byKey, err := client.NewClientWithResponses(srv.URL, client.WithHTTPClient(httpClient),
		client.WithRequestEditorFn(func(_ context.Context, req *http.Request) error {
			if strings.HasPrefix(req.URL.Path, "/account/") {
				req.Header.Set("Authorization", "Bearer "+srv.SessionToken)
			} else {
				req.Header.Set("X-API-KEY", srv.APIKey)
			}
			if req.URL.Path == "/mcp" {
				req.Header.Set("Accept", "application/json, text/event-stream")
			}
			return nil
		}))
	if err != nil {
		t.Fatal(err)
	}

	seen := map[string]bool{} // numeric fields seen, by path without indexes
	compared := 0
	for _, tc := range exactCases() {
		status, body, typed, err := tc.call(ctx, byKey)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if status < 200 || status > 299 {
			t.Errorf("%s: status %d: %s", tc.name, status, truncated(body))
			continue
		}
		if reflectNil(typed) {
			t.Errorf("%s: status %d but the client decoded no typed value", tc.name, status)
			continue
		}
		raws, err := numbersOf(body)
		if err != nil {
			t.Errorf("%s: raw body: %v", tc.name, err)
			continue
		}
		raw, err := rats(raws)
		if err != nil {
			t.Errorf("%s: raw body: %v", tc.name, err)
			continue
		}
		got := map[string]*big.Rat{}
		if err := typedNumbers("", reflect.ValueOf(typed), got); err != nil {
			t.Errorf("%s: the client's value: %v", tc.name, err)
			continue
		}
		var diffs []string
		for _, path := range slices.Sorted(maps.Keys(raw)) {
			seen[indexes.ReplaceAllString(path, "/*$1")] = true
			compared++
			want := raw[path]
			have, ok := got[path]
			switch {
			case !ok:
				diffs = append(diffs, fmt.Sprintf("%s: server sent %s, the client's value has none", path, raws[path]))
			case want.Cmp(have) != 0:
				diffs = append(diffs, fmt.Sprintf("%s: server sent %s, client decoded %s", path, raws[path], exactDecimal(have)))
			}
		}
		if len(diffs) > 0 {
			const show = 12
			n, more := len(diffs), ""
			if n > show {
				more = fmt.Sprintf("\n\t... and %d more", n-show)
				diffs = diffs[:show]
			}
			t.Errorf("%s: %d of %d numbers differ from what the server sent:\n\t%s%s",
				tc.name, n, len(raw), strings.Join(diffs, "\n\t"), more)
		}
	}

	// Every family of numbers the interface carries was in some response,
	// so an empty sample cannot pass for an exact one.
	for _, field := range []string{
		"/income_statements/*/revenue", "/income_statements/*/earnings_per_share_diluted",
		"/balance_sheets/*/assets", "/cash_flow_statements/*/operating_cash_flow",
		"/income_statements/*/fiscal_year", "/meta/count",
		"/files/*/byte_size", "/holders/*/shares", "/holders/*/value",
		"/bars/*/open", "/bars/*/pct_change", "/bars/*/volume", "/bars/*/amount", "/bars/*/adjust_factor",
		"/rows/*/close", "/rows/*/last", "/rows/*/volume", "/rows/*/turnover", "/rows/*/trades",
		"/results/*/score", "/results/*/source_offsets/start",
		"/balance", "/ledger/*/amount", "/datasets/*/routes/*/cost",
		"/result/structuredContent/income_statements/*/revenue", "/result/structuredContent/bars/*/amount",
		"/result/structuredContent/rows/*/turnover", "/result/structuredContent/holders/*/value",
	} {
		if !seen[field] {
			t.Errorf("no response carried %s", field)
		}
	}
	if t.Failed() {
		return
	}
	t.Logf("%d numbers in %d responses decoded exactly", compared, len(exactCases()))
}

// exactCases are the calls: every JSON route of the catalog and the
// account, on the sample's companies, listings and documents.
func exactCases() []exactCase {
	var cases []exactCase
	add := func(name string, call func(ctx context.Context, c *client.ClientWithResponses) (int, []byte, any, error)) {
		cases = append(cases, exactCase{name, call})
	}
	limit200, limit1000 := client.FinancialsLimit(200), client.FundHoldersLimit(1000)
	for _, ticker := range []string{"NVDA", "AAPL", "MSFT"} {
		for _, period := range []client.StatementPeriod{client.Annual, client.Quarterly, client.Ttm} {
			tk, p := ticker, period
			add("GET /us/financials "+tk+" "+string(p), func(ctx context.Context, c *client.ClientWithResponses) (int, []byte, any, error) {
				r, err := c.GetUsFinancialsWithResponse(ctx, &client.GetUsFinancialsParams{Ticker: &tk, Period: &p, Limit: &limit200})
				if err != nil {
					return 0, nil, nil, err
				}
				return r.StatusCode(), r.Body, r.JSON200, nil
			})
			add("GET /us/financials/income-statements "+tk+" "+string(p), func(ctx context.Context, c *client.ClientWithResponses) (int, []byte, any, error) {
				r, err := c.GetUsIncomeStatementsWithResponse(ctx, &client.GetUsIncomeStatementsParams{Ticker: &tk, Period: &p, Limit: &limit200})
				if err != nil {
					return 0, nil, nil, err
				}
				return r.StatusCode(), r.Body, r.JSON200, nil
			})
			add("GET /us/financials/balance-sheets "+tk+" "+string(p), func(ctx context.Context, c *client.ClientWithResponses) (int, []byte, any, error) {
				r, err := c.GetUsBalanceSheetsWithResponse(ctx, &client.GetUsBalanceSheetsParams{Ticker: &tk, Period: &p, Limit: &limit200})
				if err != nil {
					return 0, nil, nil, err
				}
				return r.StatusCode(), r.Body, r.JSON200, nil
			})
			add("GET /us/financials/cash-flow-statements "+tk+" "+string(p), func(ctx context.Context, c *client.ClientWithResponses) (int, []byte, any, error) {
				r, err := c.GetUsCashFlowStatementsWithResponse(ctx, &client.GetUsCashFlowStatementsParams{Ticker: &tk, Period: &p, Limit: &limit200})
				if err != nil {
					return 0, nil, nil, err
				}
				return r.StatusCode(), r.Body, r.JSON200, nil
			})
		}
	}
	for _, accession := range []string{"0000320193-24-000123", "0000950170-25-100235", "0001045810-25-000023"} {
		a := accession
		add("GET /us/filings/"+a+"/index", func(ctx context.Context, c *client.ClientWithResponses) (int, []byte, any, error) {
			r, err := c.GetUsFilingIndexWithResponse(ctx, a)
			if err != nil {
				return 0, nil, nil, err
			}
			return r.StatusCode(), r.Body, r.JSON200, nil
		})
	}
	for _, query := range []string{"iPhone", "data center revenue", "cloud"} {
		q, limit := query, 100
		add("POST /us/search "+q, func(ctx context.Context, c *client.ClientWithResponses) (int, []byte, any, error) {
			r, err := c.SearchUsFilingsWithResponse(ctx, client.UsSearchRequest{Query: q, Limit: &limit})
			if err != nil {
				return 0, nil, nil, err
			}
			return r.StatusCode(), r.Body, r.JSON200, nil
		})
	}
	for _, identifier := range []string{"AAPL", "NVDA", "MSFT"} {
		id := identifier
		add("GET /us/security-fund-holders "+id, func(ctx context.Context, c *client.ClientWithResponses) (int, []byte, any, error) {
			r, err := c.GetUsSecurityFundHoldersWithResponse(ctx, &client.GetUsSecurityFundHoldersParams{Identifier: &id, Limit: &limit1000})
			if err != nil {
				return 0, nil, nil, err
			}
			return r.StatusCode(), r.Body, r.JSON200, nil
		})
	}
	add("GET /us/companies", func(ctx context.Context, c *client.ClientWithResponses) (int, []byte, any, error) {
		r, err := c.ListUsCompaniesWithResponse(ctx, &client.ListUsCompaniesParams{Limit: &limit1000})
		if err != nil {
			return 0, nil, nil, err
		}
		return r.StatusCode(), r.Body, r.JSON200, nil
	})
	add("GET /china/securities", func(ctx context.Context, c *client.ClientWithResponses) (int, []byte, any, error) {
		r, err := c.ListChinaSecuritiesWithResponse(ctx, &client.ListChinaSecuritiesParams{Limit: &limit1000})
		if err != nil {
			return 0, nil, nil, err
		}
		return r.StatusCode(), r.Body, r.JSON200, nil
	})
	for _, code := range []string{"SSE.600519", "SZSE.000001", "BSE.830799"} {
		cd := code
		if !strings.HasPrefix(cd, "BSE.") { // the sample's securities master lists SSE and SZSE only
			add("GET /china/securities/"+cd, func(ctx context.Context, c *client.ClientWithResponses) (int, []byte, any, error) {
				r, err := c.GetChinaSecurityWithResponse(ctx, cd)
				if err != nil {
					return 0, nil, nil, err
				}
				return r.StatusCode(), r.Body, r.JSON200, nil
			})
		}
		for _, adjust := range []client.GetChinaPricesParamsAdjust{client.None, client.Forward, client.Backward} {
			adj := adjust
			add("GET /china/prices "+cd+" "+string(adj), func(ctx context.Context, c *client.ClientWithResponses) (int, []byte, any, error) {
				r, err := c.GetChinaPricesWithResponse(ctx, &client.GetChinaPricesParams{Code: cd, Adjust: &adj, Limit: &limit1000})
				if err != nil {
					return 0, nil, nil, err
				}
				return r.StatusCode(), r.Body, r.JSON200, nil
			})
		}
	}
	for _, symbol := range []string{"TCS", "RELIANCE", "INFY", "HDFCBANK", "SBIN"} {
		s := symbol
		add("GET /india/prices "+s, func(ctx context.Context, c *client.ClientWithResponses) (int, []byte, any, error) {
			r, err := c.GetIndiaPricesWithResponse(ctx, &client.GetIndiaPricesParams{Symbol: &s, Limit: &limit1000})
			if err != nil {
				return 0, nil, nil, err
			}
			return r.StatusCode(), r.Body, r.JSON200, nil
		})
	}
	for _, query := range []string{"writ petition", "specific performance agreement to sell 1986"} {
		q, limit := query, 100
		add("POST /india/search "+q, func(ctx context.Context, c *client.ClientWithResponses) (int, []byte, any, error) {
			r, err := c.SearchIndiaDocumentsWithResponse(ctx, client.IndiaSearchRequest{Query: q, Limit: &limit})
			if err != nil {
				return 0, nil, nil, err
			}
			return r.StatusCode(), r.Body, r.JSON200, nil
		})
	}
	for _, id := range []string{"inj_73agw5fsp7sqt5p4", "inj_bbapxrcjfwwk6jqg", "inj_bjvghvbuwzku3ycl"} {
		j := id
		add("GET /india/judgments/"+j, func(ctx context.Context, c *client.ClientWithResponses) (int, []byte, any, error) {
			r, err := c.GetIndiaJudgmentWithResponse(ctx, j)
			if err != nil {
				return 0, nil, nil, err
			}
			return r.StatusCode(), r.Body, r.JSON200, nil
		})
	}
	for _, question := range []string{"When was 贵州茅台 listed?", "What was NVIDIA's revenue in fiscal 2024?", "What are the risks of Apple's supply chain?"} {
		q := question
		add("POST /ask "+q, func(ctx context.Context, c *client.ClientWithResponses) (int, []byte, any, error) {
			r, err := c.AskWithResponse(ctx, client.AskRequest{Question: q})
			if err != nil {
				return 0, nil, nil, err
			}
			return r.StatusCode(), r.Body, r.JSON200, nil
		})
	}
	// A tool's result carries the route's body as structuredContent, which
	// the document (and so the client) leaves untyped: encoding/json reads
	// its numbers as float64.
	for i, call := range []struct {
		tool string
		args map[string]any
	}{
		{"get_us_income_statements", map[string]any{"ticker": "NVDA", "period": "ttm", "limit": 200}},
		{"get_china_prices", map[string]any{"code": "SSE.600519", "adjust": "forward", "limit": 1000}},
		{"get_india_prices", map[string]any{"symbol": "TCS", "limit": 1000}},
		{"get_us_security_fund_holders", map[string]any{"identifier": "AAPL", "limit": 1000}},
	} {
		id, tool, params := i+1, call.tool, map[string]any{"name": call.tool, "arguments": call.args}
		add("POST /mcp tools/call "+tool, func(ctx context.Context, c *client.ClientWithResponses) (int, []byte, any, error) {
			method := "tools/call"
			r, err := c.McpWithResponse(ctx, client.McpMessage{Jsonrpc: client.McpMessageJsonrpcN20, Id: id, Method: &method, Params: &params})
			if err != nil {
				return 0, nil, nil, err
			}
			return r.StatusCode(), r.Body, r.JSON200, nil
		})
	}
	add("GET /catalog", func(ctx context.Context, c *client.ClientWithResponses) (int, []byte, any, error) {
		r, err := c.GetCatalogWithResponse(ctx)
		if err != nil {
			return 0, nil, nil, err
		}
		return r.StatusCode(), r.Body, r.JSON200, nil
	})
	add("POST /account/keys", func(ctx context.Context, c *client.ClientWithResponses) (int, []byte, any, error) {
		name := client.KeyName("exact numbers")
		r, err := c.CreateApiKeyWithResponse(ctx, &client.CreateApiKeyParams{Name: &name})
		if err != nil {
			return 0, nil, nil, err
		}
		return r.StatusCode(), r.Body, r.JSON201, nil
	})
	add("GET /account/keys", func(ctx context.Context, c *client.ClientWithResponses) (int, []byte, any, error) {
		r, err := c.ListApiKeysWithResponse(ctx)
		if err != nil {
			return 0, nil, nil, err
		}
		return r.StatusCode(), r.Body, r.JSON200, nil
	})
	// Last, so that its ledger holds a debit of every route above.
	add("GET /account/credits", func(ctx context.Context, c *client.ClientWithResponses) (int, []byte, any, error) {
		limit := client.LedgerLimit(500)
		r, err := c.GetAccountCreditsWithResponse(ctx, &client.GetAccountCreditsParams{Limit: &limit})
		if err != nil {
			return 0, nil, nil, err
		}
		return r.StatusCode(), r.Body, r.JSON200, nil
	})
	return cases
}

// indexes matches the array indexes of a path.
var indexes = regexp.MustCompile(`/[0-9]+(/|$)`)

// numbersOf returns every number of a JSON document by its path
// (/income_statements/0/revenue), as the text the document wrote it in.
func numbersOf(doc []byte) (map[string]json.Number, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	out := map[string]json.Number{}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case json.Number:
			out[path] = v
		case map[string]any:
			for k, e := range v {
				walk(path+"/"+k, e)
			}
		case []any:
			for i, e := range v {
				walk(fmt.Sprintf("%s/%d", path, i), e)
			}
		}
	}
	walk("", v)
	return out, nil
}

// rats reads each number as an exact rational, so 1e3 and 1000 are one
// number and 60922000000 and 60921999360 are two.
func rats(nums map[string]json.Number) (map[string]*big.Rat, error) {
	out := make(map[string]*big.Rat, len(nums))
	for path, n := range nums {
		r, ok := new(big.Rat).SetString(string(n))
		if !ok {
			return nil, fmt.Errorf("%s: %s is not a number", path, n)
		}
		out[path] = r
	}
	return out, nil
}

// typedNumbers collects every number a decoded value holds, by the JSON
// path encoding/json writes it at: an integer as it is, a float as the
// shortest decimal that reads back as the same float64, which is what
// encoding/json writes for a float64 and, for the float64 the server held,
// the text it sent. A float32 is widened to float64 (exactly) first:
// encoding/json would write it in float32's own shortest form, 6.0922e+10
// for the 60921999360 a float32 makes of 60922000000, and hide the error.
// A value that encodes itself (a union, a date) is encoded and its numbers
// read from the text, which it keeps as received.
func typedNumbers(path string, v reflect.Value, out map[string]*big.Rat) error {
	if !v.IsValid() {
		return nil
	}
	if v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return nil
		}
		return typedNumbers(path, v.Elem(), out)
	}
	if v.Type().Implements(marshaler) || (v.CanAddr() && v.Addr().Type().Implements(marshaler)) {
		var m json.Marshaler
		if v.CanAddr() {
			m, _ = v.Addr().Interface().(json.Marshaler)
		}
		if m == nil {
			m = v.Interface().(json.Marshaler)
		}
		b, err := m.MarshalJSON()
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		nums, err := numbersOf(b)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		rs, err := rats(nums)
		if err != nil {
			return err
		}
		for p, r := range rs {
			out[path+p] = r
		}
		return nil
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			switch {
			case name == "-":
				continue
			case name == "" && f.Anonymous:
				if err := typedNumbers(path, v.Field(i), out); err != nil {
					return err
				}
				continue
			case name == "":
				name = f.Name
			}
			if err := typedNumbers(path+"/"+name, v.Field(i), out); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if err := typedNumbers(fmt.Sprintf("%s/%d", path, i), v.Index(i), out); err != nil {
				return err
			}
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			if err := typedNumbers(path+"/"+fmt.Sprint(k.Interface()), v.MapIndex(k), out); err != nil {
				return err
			}
		}
	case reflect.Float32, reflect.Float64:
		r, _ := new(big.Rat).SetString(strconv.FormatFloat(v.Float(), 'g', -1, 64))
		out[path] = r
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		out[path] = new(big.Rat).SetInt64(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		out[path] = new(big.Rat).SetUint64(v.Uint())
	}
	return nil
}

var marshaler = reflect.TypeFor[json.Marshaler]()

// exactDecimal writes r in full: a float's value is a finite decimal.
func exactDecimal(r *big.Rat) string {
	if r.IsInt() {
		return r.RatString()
	}
	s := strings.TrimRight(r.FloatString(60), "0")
	return s
}

func reflectNil(v any) bool {
	if v == nil {
		return true
	}
	b, err := json.Marshal(v)
	return err == nil && string(b) == "null"
}

func truncated(b []byte) string {
	if len(b) > 400 {
		return string(b[:400]) + "..."
	}
	return string(b)
}

// recorder sends each request and validates its response against the
// OpenAPI document before the client reads it.
type recorder struct {
	t        *testing.T
	validate func(req *http.Request, reqBody []byte, resp *http.Response, body []byte) error
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var reqBody []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		reqBody = b
		req.Body = io.NopCloser(bytes.NewReader(b))
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if err := r.validate(req, reqBody, resp, body); err != nil {
		r.t.Errorf("%s %s -> %d does not match the OpenAPI document: %v\nbody: %s", req.Method, req.URL.RequestURI(), resp.StatusCode, err, truncated(body))
	}
	return resp, nil
}

// documentValidator checks a JSON response against the served document.
func documentValidator(t *testing.T) func(req *http.Request, reqBody []byte, resp *http.Response, body []byte) error {
	t.Helper()
	doc, err := openapi.Load()
	if err != nil {
		t.Fatal(err)
	}
	rt, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	return func(req *http.Request, reqBody []byte, resp *http.Response, body []byte) error {
		// The document names the public origin; match on path and method.
		probe := req.Clone(context.Background())
		probe.Body = io.NopCloser(bytes.NewReader(reqBody))
		route, params, err := rt.FindRoute(probe)
		if err != nil {
			return err
		}
		in := &openapi3filter.RequestValidationInput{
			Request: probe, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
		}
		return openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
			RequestValidationInput: in,
			Status:                 resp.StatusCode,
			Header:                 resp.Header,
			Body:                   io.NopCloser(bytes.NewReader(body)),
			Options:                &openapi3filter.Options{IncludeResponseStatus: true},
		})
	}
}
