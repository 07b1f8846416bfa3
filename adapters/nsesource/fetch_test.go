package nsesource_test

import (
	"archive/zip"
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/nsesource"
	"github.com/quarrydata/quarry/ports"
)

// rezip returns the real 2025-06-18 bhavcopy's CSV zipped under the
// entry name of day: a file whose name says day but whose rows are of
// 2025-06-18.
func rezip(t *testing.T, day string) []byte {
	t.Helper()
	body, err := os.ReadFile("testdata/BhavCopy_NSE_CM_0_0_0_20250618_F_0000.csv.zip")
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := zr.File[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	csv, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	w, err := zw.Create("BhavCopy_NSE_CM_0_0_0_" + day + "_F_0000.csv")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(csv); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestFetchRefusesADayHoldingAnotherDaysRows: the file served for
// 2025-06-30 holds 2025-06-18's rows; it is refused naming both days.
func TestFetchRefusesADayHoldingAnotherDaysRows(t *testing.T) {
	day := time.Date(2025, 6, 30, 0, 0, 0, 0, time.UTC)
	body := rezip(t, "20250630")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/"+nsesource.Path(day) {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	s, err := nsesource.New(nsesource.Config{BaseURL: srv.URL + "/", Backoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	files, err := s.Fetch(t.Context(), day)
	if err == nil || !strings.Contains(err.Error(), "2025-06-30") || !strings.Contains(err.Error(), "2025-06-18") {
		t.Fatalf("Fetch = %d files, %v; want a refusal naming 2025-06-30 and 2025-06-18", len(files), err)
	}
	if !strings.Contains(err.Error(), ports.ErrSourceFailed.Error()) {
		t.Fatalf("Fetch: %v, want a failed fetch", err)
	}
}
