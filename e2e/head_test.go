package e2e

import (
	"io"
	"net/http"
	"testing"
)

// TestHead: over a real listener, a free GET route answers HEAD as its GET
// without the body, and a charged data route refuses it with 405 and
// Allow naming GET, charging nothing (spec-gaps B197). The document lists
// no HEAD operation, so these answers are not validated against it.
func TestHead(t *testing.T) {
	for name, s := range stacks {
		t.Run(name, func(t *testing.T) {
			c, _ := startApp(t, s)
			session, key := signIn(t, c, "hana@example.com")
			before := credits(t, c, session)
			head := func(path string, headers ...header) (*http.Response, int) {
				t.Helper()
				req, err := http.NewRequest(http.MethodHead, c.base+path, nil)
				if err != nil {
					t.Fatal(err)
				}
				for _, h := range headers {
					req.Header.Set(h.name, h.value)
				}
				resp, err := c.http.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				body, _ := io.ReadAll(resp.Body)
				return resp, len(body)
			}
			for path, headers := range map[string][]header{"/catalog": nil, "/openapi.json": nil, "/account/credits": {bearer(session)}} {
				get := c.do("GET", path, nil, headers...).expect(t, http.StatusOK)
				resp, n := head(path, headers...)
				if resp.StatusCode != http.StatusOK || n != 0 || resp.Header.Get("Content-Type") != get.Header.Get("Content-Type") {
					t.Errorf("HEAD %s: %d, %d bytes, %q; want GET's 200 and %q without a body", path, resp.StatusCode, n, resp.Header.Get("Content-Type"), get.Header.Get("Content-Type"))
				}
			}
			for _, path := range []string{"/china/securities/SSE.600519", "/india/prices.csv?symbol=TCS", "/us/financials?ticker=NVDA"} {
				if resp, n := head(path, apiKey(key)); resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "GET, OPTIONS" || n != 0 {
					t.Errorf("HEAD %s: %d, Allow %q, %d bytes; want 405 with Allow: GET, OPTIONS", path, resp.StatusCode, resp.Header.Get("Allow"), n)
				}
			}
			if after := credits(t, c, session); after.Balance != before.Balance || len(after.Ledger) != len(before.Ledger) {
				t.Errorf("HEADs moved the ledger: %d entries, balance %d; before %d, %d", len(after.Ledger), after.Balance, len(before.Ledger), before.Balance)
			}
		})
	}
}
