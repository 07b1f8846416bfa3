package e2e

import (
	"net/http"
	"strings"
	"testing"
)

// TestValidatorChecksBodiesThatAreNotJSON shows that a file response is
// held to the document by its status, media type and headers, so a route
// answering CSV, PDF, XLSX or Parquet cannot drift from what it documents.
func TestValidatorChecksBodiesThatAreNotJSON(t *testing.T) {
	good := http.Header{
		"Content-Type":        {"text/csv; charset=utf-8"},
		"X-Request-Id":        {"req_01J9Z3Q4R5S6T7V8W9X0Y1Z2AB"},
		"X-Credits-Cost":      {"25"},
		"X-Credits-Remaining": {"99975"},
		"Content-Disposition": {`attachment; filename="NSE_TCS_EQ_all_all.csv"`},
		"Ratelimit-Policy":    {`"default";q=100;w=2`},
		"Ratelimit":           {`"default";r=99;t=1`},
	}
	with := func(name, value string) http.Header {
		h := good.Clone()
		if value == "" {
			h.Del(name)
		} else {
			h.Set(name, value)
		}
		return h
	}
	for _, tc := range []struct {
		name   string
		status int
		header http.Header
		fault  string
	}{
		{"documented CSV", http.StatusOK, good, ""},
		{"undocumented media type", http.StatusOK, with("Content-Type", "application/pdf"), `not "application/pdf"`},
		{"undocumented status", http.StatusAccepted, good, "202"},
		{"missing request id", http.StatusOK, with("X-Request-Id", ""), "X-Request-ID"},
		{"malformed credit header", http.StatusOK, with("X-Credits-Cost", "-1"), "X-Credits-Cost"},
		{"no file name", http.StatusOK, with("Content-Disposition", ""), "Content-Disposition"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest("GET", "http://quarry/india/prices.csv?symbol=TCS", nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("X-API-KEY", "qk_test")
			err = validateResponse(router(t), req, tc.status, tc.header, []byte("symbol,close\nTCS,3000.00\n"))
			switch {
			case tc.fault == "" && err != nil:
				t.Fatalf("a documented response was refused: %v", err)
			case tc.fault != "" && (err == nil || !strings.Contains(err.Error(), tc.fault)):
				t.Fatalf("validator said %v, want an error naming %q", err, tc.fault)
			}
		})
	}
}
