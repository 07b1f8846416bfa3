package bootstrap

import (
	"archive/zip"
	"bytes"
	"io"
	"io/fs"
	"path"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/domain/nse"
	"github.com/quarrydata/quarry/quarrytest/replay"
	"github.com/quarrydata/quarry/sampledata"
)

// nseZipAs returns the sample's bhavcopy of day (YYYYMMDD) zipped under
// the entry name of another day, its CSV changed by edit: a file whose
// name says one day and whose rows are of another.
func nseZipAs(t *testing.T, day, as string, edit func([]byte) []byte) []byte {
	t.Helper()
	name := "BhavCopy_NSE_CM_0_0_0_" + day + "_F_0000.csv.zip"
	body, err := fs.ReadFile(sampledata.NSEUDiFF, path.Join(sampledata.NSEUDiFFDir, name))
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
	w, err := zw.Create(strings.Replace(zr.File[0].Name, day, as, 1))
	if err == nil {
		_, err = w.Write(edit(csv))
	}
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestSyncRefusesADayHoldingAnotherDaysRows is the probe of issue 35: the
// file served for 2025-06-30 holds 2025-06-18's rows, one close changed.
// The day is refused naming both days, 2025-06-18 keeps what it held, and
// 2025-06-30 is not covered.
func TestSyncRefusesADayHoldingAnotherDaysRows(t *testing.T) {
	srv := replay.New(t)
	srv.AddNSE(t)
	srv.Add("content/cm/BhavCopy_NSE_CM_0_0_0_20250630_F_0000.csv.zip", nseZipAs(t, "20250618", "20250630", func(csv []byte) []byte {
		return bytes.Replace(csv, []byte(",9870.00,9870.00,"), []byte(",9871.00,9871.00,"), 1)
	}))
	r := newSyncRig(t, srv)
	if _, err := r.sync(t, "2025-06-18", "2025-06-18"); err != nil {
		t.Fatal(err)
	}
	before, err := r.prices.OnDate(t.Context(), "2025-06-18")
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.sync(t, "2025-06-30", "2025-06-30")
	if err == nil || !strings.Contains(err.Error(), "2025-06-30") || !strings.Contains(err.Error(), "2025-06-18") {
		t.Fatalf("run over the 30th: %v, want a refusal naming 2025-06-30 and 2025-06-18", err)
	}
	after, err := r.prices.OnDate(t.Context(), "2025-06-18")
	if err != nil || len(after) != len(before) {
		t.Fatalf("2025-06-18 held %d rows before, %d after (%v)", len(before), len(after), err)
	}
	held := map[nse.Row]bool{}
	for _, row := range before {
		held[row] = true
	}
	for _, row := range after {
		if !held[row] {
			t.Fatalf("2025-06-18 holds a row it did not: %+v", row)
		}
	}
	if st := r.state(t); st.Covers("2025-06-30") || !strings.Contains(st.LastError, "2025-06-18") {
		t.Fatalf("state %+v: the 30th covered, or its refusal not recorded", st)
	}
}
