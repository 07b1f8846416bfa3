package openapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/scope"
)

func load(t *testing.T) *openapi3.T {
	t.Helper()
	doc, err := Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return doc
}

// openAPIPath converts an httprouter path (":param") to OpenAPI form ("{param}").
func openAPIPath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		if strings.HasPrefix(s, ":") {
			parts[i] = "{" + s[1:] + "}"
		}
	}
	return strings.Join(parts, "/")
}

func TestLoadValidates(t *testing.T) {
	doc := load(t)
	if doc.OpenAPI != "3.0.3" {
		t.Errorf("openapi = %q, want 3.0.3", doc.OpenAPI)
	}
	if doc.Info.Version != dataset.Version {
		t.Errorf("info.version = %q, want %q", doc.Info.Version, dataset.Version)
	}
	for _, name := range []string{"ApiKeyAuth", "SessionAuth"} {
		if doc.Components.SecuritySchemes[name] == nil {
			t.Errorf("security scheme %s missing", name)
		}
	}
	if s := doc.Components.SecuritySchemes["ApiKeyAuth"].Value; s.Type != "apiKey" || s.In != "header" || s.Name != "X-API-KEY" {
		t.Errorf("ApiKeyAuth = %+v, want apiKey in header X-API-KEY", s)
	}
	if s := doc.Components.SecuritySchemes["SessionAuth"].Value; s.Type != "http" || s.Scheme != "bearer" {
		t.Errorf("SessionAuth = %+v, want http bearer", s)
	}
}

func TestServedDocumentIsTheEmbeddedFile(t *testing.T) {
	var v map[string]any
	if err := json.Unmarshal(Document, &v); err != nil {
		t.Fatalf("Document is not JSON: %v", err)
	}
}

func jurisdictionTag(j string) string {
	switch j {
	case "US":
		return "US normalized datasets"
	case "CN":
		return "China A-share datasets"
	case "IN":
		return "India datasets"
	default:
		return "Ask"
	}
}

// routeStatuses lists the validation and lookup statuses each data operation
// documents besides the ones every data operation has.
var routeStatuses = map[string][]string{
	"get_us_financials":            {"400", "404", "422"},
	"get_us_income_statements":     {"400", "404", "422"},
	"get_us_balance_sheets":        {"400", "404", "422"},
	"get_us_cash_flow_statements":  {"400", "404", "422"},
	"get_us_filing_index":          {"400", "404", "422"},
	"search_us_filings":            {"400", "422"},
	"get_us_security_fund_holders": {"400", "404", "422"},
	"get_china_security":           {"400", "404", "422"},
	"list_china_securities":        {"400", "422"},
	"list_us_companies":            {"400", "422"},
	"get_china_prices":             {"400", "404", "422"},
	"get_india_prices":             {"400", "404", "422"},
	"get_india_prices_csv":         {"400", "404", "422"},
	"search_india_documents":       {"400", "422"},
	"get_india_judgment":           {"400", "404", "422"},
	"get_india_judgment_pdf":       {"400", "404", "422"},
	"create_india_export":          {"400", "404", "409", "422"},
	"ask":                          {"400", "422"},
}

// creditStatuses are the statuses whose responses document the credit headers.
var creditStatuses = []string{"200", "400", "402", "403", "404", "413", "422", "429", "500", "503"}

func TestCatalogRoutesAreDocumented(t *testing.T) {
	doc := load(t)
	seen := map[string]bool{}
	for _, d := range dataset.Catalog() {
		for _, r := range d.Routes {
			path := openAPIPath(r.Path)
			item := doc.Paths.Find(path)
			if item == nil || doc.Paths.Value(path) == nil {
				t.Errorf("%s %s: path %s not documented", r.Method, r.Path, path)
				continue
			}
			op := item.GetOperation(r.Method)
			if op == nil {
				t.Errorf("%s %s: method not documented", r.Method, path)
				continue
			}
			seen[r.OperationID] = true
			if op.OperationID != r.OperationID {
				t.Errorf("%s %s: operationId %q, want %q", r.Method, path, op.OperationID, r.OperationID)
			}
			if want := jurisdictionTag(d.Jurisdiction); !slices.Equal(op.Tags, []string{want}) {
				t.Errorf("%s: tags %v, want [%s]", r.OperationID, op.Tags, want)
			}
			if op.Security == nil || len(*op.Security) != 1 || (*op.Security)[0]["ApiKeyAuth"] == nil {
				t.Errorf("%s: security must be ApiKeyAuth only", r.OperationID)
			}
			if got := extensionInt(t, op, "x-credits-cost"); got != r.Cost {
				t.Errorf("%s: x-credits-cost %d, want %d", r.OperationID, got, r.Cost)
			}
			if got, want := extensionStrings(t, op, "x-required-permissions"), scope.Strings(r.Permissions); !slices.Equal(got, want) {
				t.Errorf("%s: x-required-permissions %v, want %v", r.OperationID, got, want)
			}
			if !strings.Contains(op.Description, "Cost: "+strconv.FormatInt(r.Cost, 10)+" credit") {
				t.Errorf("%s: description does not state the cost", r.OperationID)
			}
			for _, p := range r.Permissions {
				if !strings.Contains(op.Description, "`"+string(p)+"`") {
					t.Errorf("%s: description does not name permission %s", r.OperationID, p)
				}
			}
			checkDataResponses(t, op)
		}
	}
	for op := range routeStatuses {
		if !seen[op] {
			t.Errorf("routeStatuses names %s, which the catalog lacks", op)
		}
	}
}

func checkDataResponses(t *testing.T, op *openapi3.Operation) {
	t.Helper()
	extra, ok := routeStatuses[op.OperationID]
	if !ok {
		t.Errorf("%s: no expected statuses listed in routeStatuses", op.OperationID)
	}
	want := append([]string{"200", "401", "402", "403", "413", "429", "500", "503"}, extra...)
	for _, status := range want {
		resp := op.Responses.Value(status)
		if resp == nil {
			t.Errorf("%s: response %s not documented", op.OperationID, status)
			continue
		}
		for _, h := range []string{"X-Credits-Cost", "X-Credits-Remaining"} {
			hdr := resp.Value.Headers[h]
			switch {
			case status == "401" && hdr != nil:
				t.Errorf("%s %s: a 401 cannot carry %s", op.OperationID, status, h)
			case slices.Contains(creditStatuses, status) && hdr == nil:
				t.Errorf("%s %s: header %s not documented", op.OperationID, status, h)
			case hdr != nil && hdr.Value.Required:
				t.Errorf("%s %s: header %s must not be required", op.OperationID, status, h)
			}
		}
	}
	for status := range op.Responses.Map() {
		if !slices.Contains(want, status) {
			t.Errorf("%s: unexpected response %s", op.OperationID, status)
		}
	}
	if rl := op.Responses.Value("429").Value; rl != nil {
		for _, h := range []string{"Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "RateLimit-Policy", "RateLimit"} {
			if rl.Headers[h] == nil || !rl.Headers[h].Value.Required {
				t.Errorf("%s 429: header %s must be documented and required", op.OperationID, h)
			}
		}
	}
	for _, h := range []string{"RateLimit-Policy", "RateLimit"} {
		if ok := op.Responses.Value("200").Value; ok != nil && (ok.Headers[h] == nil || !ok.Headers[h].Value.Required) {
			t.Errorf("%s 200: header %s must be documented and required", op.OperationID, h)
		}
	}
	if ref := op.Responses.Value("503").Ref; ref != "#/components/responses/DatasetUnavailable" {
		t.Errorf("%s 503: ref %q, want the DatasetUnavailable response", op.OperationID, ref)
	}
}

func extensionInt(t *testing.T, op *openapi3.Operation, name string) int64 {
	t.Helper()
	var n int64
	raw, _ := json.Marshal(op.Extensions[name])
	if err := json.Unmarshal(raw, &n); err != nil {
		t.Errorf("%s: %s is not an integer: %s", op.OperationID, name, raw)
	}
	return n
}

func extensionStrings(t *testing.T, op *openapi3.Operation, name string) []string {
	t.Helper()
	var s []string
	raw, _ := json.Marshal(op.Extensions[name])
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Errorf("%s: %s is not a list of strings: %s", op.OperationID, name, raw)
	}
	return s
}

// nonDataOperations are the operations outside the catalog, with the
// responses each documents.
var nonDataOperations = []struct {
	method, path, operationID, security string
	statuses                            []string
}{
	{"POST", "/account/login", "account_login", "", []string{"200", "400", "401", "413", "422", "429", "500", "503"}},
	{"POST", "/account/keys", "create_api_key", "SessionAuth", []string{"201", "400", "401", "413", "422", "500", "503"}},
	{"GET", "/account/keys", "list_api_keys", "SessionAuth", []string{"200", "400", "401", "413", "500", "503"}},
	{"DELETE", "/account/keys/{key_id}", "revoke_api_key", "SessionAuth", []string{"200", "400", "401", "404", "413", "500", "503"}},
	{"GET", "/account/credits", "get_account_credits", "SessionAuth", []string{"200", "400", "401", "413", "422", "500", "503"}},
	{"POST", "/account/browser-credentials", "create_browser_credential", "SessionAuth", []string{"201", "400", "401", "413", "422", "500", "503"}},
	{"GET", "/account/browser-credentials", "list_browser_credentials", "SessionAuth", []string{"200", "400", "401", "413", "500", "503"}},
	{"DELETE", "/account/browser-credentials/{credential_id}", "revoke_browser_credential", "SessionAuth", []string{"200", "400", "401", "404", "413", "500", "503"}},
	{"GET", "/catalog", "get_catalog", "", []string{"200", "413", "500"}},
	{"GET", "/healthz", "get_healthz", "", []string{"200", "413", "500"}},
	{"GET", "/readyz", "get_readyz", "", []string{"200", "413", "500", "503"}},
	{"GET", "/openapi.json", "get_openapi_document", "", []string{"200", "413", "500"}},
	{"POST", "/mcp", "mcp", "ApiKeyAuth|ApiKeyBearer", []string{"200", "202", "400", "401", "404", "413", "415", "429", "500"}},
}

func TestNonDataOperations(t *testing.T) {
	doc := load(t)
	for _, o := range nonDataOperations {
		op := doc.Paths.Value(o.path).GetOperation(o.method)
		if op == nil {
			t.Errorf("%s %s not documented", o.method, o.path)
			continue
		}
		if op.OperationID != o.operationID {
			t.Errorf("%s %s: operationId %q, want %q", o.method, o.path, op.OperationID, o.operationID)
		}
		if op.Security == nil {
			t.Errorf("%s: security must be explicit", o.operationID)
		} else if o.security == "" && len(*op.Security) != 0 {
			t.Errorf("%s: must need no authentication", o.operationID)
		} else if o.security != "" && !securedBy(*op.Security, strings.Split(o.security, "|")) {
			t.Errorf("%s: security must be %s only", o.operationID, o.security)
		}
		if got := op.Responses.Len(); got != len(o.statuses) {
			t.Errorf("%s: %d responses, want %v", o.operationID, got, o.statuses)
		}
		for _, s := range o.statuses {
			if op.Responses.Value(s) == nil {
				t.Errorf("%s: response %s not documented", o.operationID, s)
			}
		}
	}
}

// securedBy reports whether the requirements are exactly one scheme each,
// the alternatives given in order.
func securedBy(reqs openapi3.SecurityRequirements, alternatives []string) bool {
	if len(reqs) != len(alternatives) {
		return false
	}
	for i, name := range alternatives {
		if len(reqs[i]) != 1 || reqs[i][name] == nil {
			return false
		}
	}
	return true
}

func TestEveryOperationIsKnownAndCarriesRequestID(t *testing.T) {
	doc := load(t)
	known := map[string]bool{}
	for _, o := range nonDataOperations {
		known[o.operationID] = true
	}
	for _, d := range dataset.Catalog() {
		for _, r := range d.Routes {
			known[r.OperationID] = true
		}
	}
	ids := map[string]bool{}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			if !known[op.OperationID] {
				t.Errorf("%s %s: operation %q is neither in the catalog nor listed here", method, path, op.OperationID)
			}
			if ids[op.OperationID] {
				t.Errorf("operationId %q used twice", op.OperationID)
			}
			ids[op.OperationID] = true
			if op.Responses.Value("500") == nil {
				t.Errorf("%s: no 500 response", op.OperationID)
			}
			for status, resp := range op.Responses.Map() {
				h := resp.Value.Headers["X-Request-ID"]
				if h == nil || !h.Value.Required {
					t.Errorf("%s %s: X-Request-ID must be documented and required", op.OperationID, status)
				}
				if resp.Value.Description == nil || *resp.Value.Description == "" {
					t.Errorf("%s %s: no description", op.OperationID, status)
				}
			}
		}
	}
}

func TestEnumerationsMatchTheDomain(t *testing.T) {
	doc := load(t)
	var ids []string
	for _, d := range dataset.Catalog() {
		ids = append(ids, string(d.ID))
	}
	if got := enumOf(doc, "DatasetId"); !slices.Equal(got, ids) {
		t.Errorf("DatasetId enum %v, want %v", got, ids)
	}
	perms := scope.Strings(append(scope.SelfServe(), scope.ResaleRead))
	if got := enumOf(doc, "Permission"); !slices.Equal(got, perms) {
		t.Errorf("Permission enum %v, want %v", got, perms)
	}
	avail := []string{string(dataset.Available), string(dataset.Partial), string(dataset.NotBackfilled), string(dataset.SourceRequired)}
	if got := enumOf(doc, "Availability"); !slices.Equal(got, avail) {
		t.Errorf("Availability enum %v, want %v", got, avail)
	}
	reasons := []string{string(dataset.NormalizationNotBackfilled), string(dataset.GovernedSourceNotConfigured)}
	if got := enumOf(doc, "AvailabilityReason"); !slices.Equal(got, reasons) {
		t.Errorf("AvailabilityReason enum %v, want %v", got, reasons)
	}
}

func enumOf(doc *openapi3.T, schema string) []string {
	var out []string
	for _, v := range doc.Components.Schemas[schema].Value.Enum {
		out = append(out, v.(string))
	}
	return out
}

// TestResponseValidation checks sample responses the way the e2e suite does:
// openapi3filter.ValidateResponse with IncludeResponseStatus.
func TestResponseValidation(t *testing.T) {
	doc := load(t)
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatalf("router: %v", err)
	}
	const rid = "req_01J9Z3Q4R5S6T7V8W9X0Y1Z2AB"
	security := `{"security":{"code":"SSE.600519","exchange":"SSE","board":"main","company_name":"Kweichow Moutai","listing_date":"2001-08-27","delisting_date":null,"listed":true}}`
	tests := []struct {
		name, method, url string
		status            int
		header            map[string]string
		body              string
		wantErr           bool
	}{
		{"security", "GET", "/china/securities/SSE.600519", 200,
			map[string]string{"X-Credits-Cost": "1", "X-Credits-Remaining": "99999"}, security, false},
		{"delisted security", "GET", "/china/securities/SZSE.000003", 200, nil,
			`{"security":{"code":"SZSE.000003","exchange":"SZSE","board":"main","company_name":"X","listing_date":"1991-01-14","delisting_date":"2002-06-14","listed":false}}`, false},
		{"security with extra key", "GET", "/china/securities/SSE.600519", 200, nil,
			strings.Replace(security, `"listed":true`, `"listed":true,"isin":"CNE0000018R8"`, 1), true},
		{"bare code in security", "GET", "/china/securities/SSE.600519", 200, nil,
			strings.Replace(security, `"SSE.600519"`, `"600519"`, 1), true},
		{"missing request id", "GET", "/china/securities/SSE.600519", 200,
			map[string]string{"X-Request-ID": ""}, security, true},
		{"bad credit header", "GET", "/china/securities/SSE.600519", 200,
			map[string]string{"X-Credits-Cost": "one"}, security, true},
		{"no rate-limit header", "GET", "/china/securities/SSE.600519", 200,
			map[string]string{"RateLimit": ""}, security, true},
		{"rate-limit header of an older draft", "GET", "/china/securities/SSE.600519", 200,
			map[string]string{"RateLimit": "limit=100, remaining=42, reset=1"}, security, true},
		{"unavailable", "GET", "/china/prices?code=SSE.600519", 503,
			map[string]string{"X-Credits-Cost": "0", "X-Credits-Remaining": "100000"},
			`{"error":"dataset_unavailable","message":"m","request_id":"` + rid + `","dataset":"china_prices","availability":"not_backfilled","reason":"normalization_not_backfilled","backfill_required":true,"external_source_required":false}`, false},
		{"unavailable as plain error", "GET", "/china/prices?code=SSE.600519", 503, nil,
			`{"error":"dataset_unavailable","message":"m"}`, true},
		{"validation error", "GET", "/china/securities/600519", 422, nil,
			`{"error":"validation_failed","message":"did you mean SSE.600519?","request_id":"` + rid + `"}`, false},
		{"wrong error code for status", "GET", "/china/securities/600519", 422, nil,
			`{"error":"invalid_request","message":"m","request_id":null}`, true},
		{"undocumented status", "GET", "/china/securities/SSE.600519", 409, nil,
			`{"error":"idempotency_key_in_use","message":"m"}`, true},
		{"rate limited", "GET", "/china/securities/SSE.600519", 429,
			map[string]string{"Retry-After": "1", "RateLimit-Limit": "100", "RateLimit-Remaining": "0", "RateLimit-Reset": "1"},
			`{"error":"rate_limited","message":"slow down","request_id":"` + rid + `"}`, false},
		{"rate limited without headers", "GET", "/china/securities/SSE.600519", 429, nil,
			`{"error":"rate_limited","message":"slow down"}`, true},
		{"login", "POST", "/account/login", 200, nil,
			`{"session_token":"qs_` + strings.Repeat("A", 43) + `","token_type":"Bearer","expires_at":"2026-07-20T18:00:00.123456Z","account":{"email":"a@example.com","credits":100000}}`, false},
		{"created key", "POST", "/account/keys?name=ci", 201, nil,
			`{"key_id":"key_01J9Z3Q4R5S6T7V8W9X0Y1Z2AB","name":"ci","api_key":"qk_` + strings.Repeat("a", 38) + `","key_prefix":"qk_aaaaaaaaa","scopes":["us:read","india:read"],"created_at":"2026-07-20T10:00:00Z","message":"Store this key now."}`, false},
		{"revoked key", "DELETE", "/account/keys/key_01J9Z3Q4R5S6T7V8W9X0Y1Z2AB", 200, nil,
			`{"key_id":"key_01J9Z3Q4R5S6T7V8W9X0Y1Z2AB","name":"default","key_prefix":"qk_aaaaaaaaa","scopes":[],"status":"revoked","created_at":"2026-07-20T10:00:00Z","last_used_at":null,"revoked_at":"2026-07-20T11:00:00Z"}`, false},
		{"credits", "GET", "/account/credits", 200, nil,
			`{"balance":99999,"ledger":[` +
				`{"entry_id":"led_01J9Z3Q4R5S6T7V8W9X0Y1Z2AC","kind":"refund","amount":1,"route":"GET /china/securities/{code}","key_id":"key_01J9Z3Q4R5S6T7V8W9X0Y1Z2AB","request_id":"` + rid + `","refund_of":"led_01J9Z3Q4R5S6T7V8W9X0Y1Z2AB","reason":null,"created_at":"2026-07-20T10:00:01Z"},` +
				`{"entry_id":"led_01J9Z3Q4R5S6T7V8W9X0Y1Z2AA","kind":"grant","amount":100000,"route":null,"key_id":null,"request_id":null,"refund_of":null,"reason":"sign-up","created_at":"2026-07-20T10:00:00Z"}` +
				`],"meta":{"limit":50,"offset":0,"count":2,"next_offset":null,"total":2}}`, false},
		{"ask answered, reason null", "POST", "/ask", 200, nil, askAnswer(`"answer":"It was 1. [1]","reason":null`), false},
		{"ask unanswered", "POST", "/ask", 200, nil, askAnswer(`"answer":null,"reason":"no_supported_answer"`), false},
		{"ask with an unknown reason", "POST", "/ask", 200, nil, askAnswer(`"answer":null,"reason":"no_data"`), true},
		{"ask with nothing to search", "POST", "/ask", 422, map[string]string{"X-Credits-Cost": "0"},
			`{"error":"validation_failed","message":"validation failed: nothing to search: ...; excluded: china_prices (not_activated)","request_id":"` + rid + `"}`, false},
		{"ask forbidden", "POST", "/ask", 403, map[string]string{"X-Credits-Cost": "0"},
			`{"error":"forbidden","message":"forbidden: nothing to search: ...","request_id":"` + rid + `"}`, false},
		{"readyz failing", "GET", "/readyz", 503, nil, `{"status":"unavailable","checks":{"postgres":"ok","mongo":"failing"},"storage":{"platform":"postgresql","documents":"mongodb","search":"memory"}}`, false},
		{"readyz not migrated", "GET", "/readyz", 503, nil, `{"status":"unavailable","checks":{"postgres":"not_migrated"},"messages":{"postgres":"postgres: run quarry migrate"},"storage":{"platform":"postgresql","documents":"mongodb","search":"memory"}}`, false},
		{"readyz ready and not migrated", "GET", "/readyz", 200, nil, `{"status":"ready","checks":{"postgres":"not_migrated"},"storage":{"platform":"postgresql","documents":"mongodb","search":"memory"}}`, true},
		{"judgment pdf", "GET", "/india/judgments/j1/pdf", 200, map[string]string{"Content-Type": "application/pdf"}, "%PDF-1.7", false},
		{"prices csv", "GET", "/india/prices.csv", 200, map[string]string{"Content-Type": "text/csv", "Content-Disposition": `attachment; filename="NSE_INFY_EQ_all_all.csv"`}, "symbol,close\nINFY,1500\n", false},
		{"prices csv without its file name", "GET", "/india/prices.csv", 200, map[string]string{"Content-Type": "text/csv"}, "symbol,close\nINFY,1500\n", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, tc.url, nil)
			route, params, err := router.FindRoute(req)
			if err != nil {
				t.Fatalf("FindRoute: %v", err)
			}
			h := http.Header{}
			h.Set("Content-Type", "application/json")
			h.Set("X-Request-ID", rid)
			h.Set("RateLimit-Policy", `"default";q=100;w=2`)
			h.Set("RateLimit", `"default";r=42;t=1`)
			for k, v := range tc.header {
				if v == "" {
					h.Del(k)
				} else {
					h.Set(k, v)
				}
			}
			in := &openapi3filter.ResponseValidationInput{
				RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
				Status:                 tc.status,
				Header:                 h,
				Body:                   io.NopCloser(bytes.NewBufferString(tc.body)),
				Options:                &openapi3filter.Options{IncludeResponseStatus: true},
			}
			err = openapi3filter.ValidateResponse(context.Background(), in)
			if (err != nil) != tc.wantErr {
				t.Errorf("ValidateResponse error = %v, want error %v", err, tc.wantErr)
			}
		})
	}
}

// askAnswer is an AskAnswer body with no citations around the given
// answer and reason.
func askAnswer(answerAndReason string) string {
	return `{` + answerAndReason + `,"citations":[],"governance":{"searched":["us_search"],"excluded":[],"licences":[],"statement":"s"},` +
		`"meta":{"as_of":"2026-01-15T00:00:00Z","answerer":"extractive-v1"}}`
}

// TestNoEnumListsNull: a nullable enum lists its values only, and
// `nullable` allows null (kin-openapi accepts null before it reads the
// enum). A null listed in an enum generates a constant for Go's nil in the
// client ("<nil>"), which no response carries.
func TestNoEnumListsNull(t *testing.T) {
	var doc any
	if err := json.Unmarshal(Document, &doc); err != nil {
		t.Fatal(err)
	}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			if enum, ok := v["enum"].([]any); ok && slices.Contains(enum, nil) {
				t.Errorf("%s: enum %v lists null; say \"nullable\": true instead", path, enum)
			}
			for k, sub := range v {
				walk(path+"/"+k, sub)
			}
		case []any:
			for i, sub := range v {
				walk(path+"/"+strconv.Itoa(i), sub)
			}
		}
	}
	walk("#", doc)
}

// TestNumbersAreDoublesAndQuantitiesInt64: every "number" of the document
// says "format": "double", since a number without a format generates a
// float32 in the Go client, which turns 60922000000 into 60921999360 (issue
// 36, docs/spec-gaps.md); and the integers that count money, shares, bytes
// and trades, which can pass 2^31, say "format": "int64", since an integer
// without one is a Go int, 32 bits on a 32-bit platform. The server's own
// types decide: each of these is a float64 or an int64 there.
func TestNumbersAreDoublesAndQuantitiesInt64(t *testing.T) {
	var doc any
	if err := json.Unmarshal(Document, &doc); err != nil {
		t.Fatal(err)
	}
	int64s := []string{
		"/AccountSummary/properties/credits", "/LedgerEntry/properties/amount", "/CreditStatement/properties/balance",
		"/CatalogDataset/properties/lag_seconds", "/CatalogRoute/properties/cost", "/CostEntry/properties/credits",
		"/FilingFile/properties/byte_size", "/FundHolder/properties/shares", "/FundHolder/properties/value",
		"/ChinaPriceBar/properties/volume", "/IndiaPriceRow/properties/volume", "/IndiaPriceRow/properties/trades",
	}
	seen := map[string]string{}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			switch v["type"] {
			case "number":
				if v["format"] != "double" {
					t.Errorf("%s: a number without \"format\": \"double\" (%v) is a float32 in the generated client", path, v["format"])
				}
			case "integer":
				f, _ := v["format"].(string)
				seen[strings.TrimPrefix(path, "#/components/schemas")] = f
			}
			for k, sub := range v {
				walk(path+"/"+k, sub)
			}
		case []any:
			for i, sub := range v {
				walk(path+"/"+strconv.Itoa(i), sub)
			}
		}
	}
	walk("#", doc)
	for _, p := range int64s {
		if f, ok := seen[p]; !ok || f != "int64" {
			t.Errorf("%s: want an integer of format int64, got %q (present: %v)", p, f, ok)
		}
	}
}

// TestEmptyResultsCostTheirRoute: the routes that answer rows say that no
// rows is still a successful answer, charged the route's cost from the
// catalog (§8 fixes the cost per request; spec-gaps B194), the JSON page
// and the two files alike.
func TestEmptyResultsCostTheirRoute(t *testing.T) {
	doc := load(t)
	empty := map[string]string{
		"get_india_prices":     "no row in the range is an empty page",
		"get_india_prices_csv": "no row in the range is a header-only file",
		"create_india_export":  "no rows is a header-only file",
	}
	for _, d := range dataset.Catalog() {
		for _, r := range d.Routes {
			what, ok := empty[r.OperationID]
			if !ok {
				continue
			}
			op := doc.Paths.Find(openAPIPath(r.Path)).GetOperation(r.Method)
			credits := "credits"
			if r.Cost == 1 {
				credits = "credit"
			}
			if want := fmt.Sprintf("%s, a successful answer charged %d %s like any", what, r.Cost, credits); !strings.Contains(op.Description, want) {
				t.Errorf("%s does not say %q", r.OperationID, want)
			}
			delete(empty, r.OperationID)
		}
	}
	for op := range empty {
		t.Errorf("%s is no route of the catalog", op)
	}
}
