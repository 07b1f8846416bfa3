package nsesource

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var june18 = time.Date(2025, 6, 18, 0, 0, 0, 0, time.UTC)

const day = "BhavCopy_NSE_CM_0_0_0_20250618_F_0000.csv"

// checkBody runs the check of a day's file for on, on body written to disk.
func checkBody(t testing.TB, entry string, on time.Time, maxBytes int64, body []byte) error {
	p := filepath.Join(t.TempDir(), entry+".zip")
	if err := os.WriteFile(p, body, 0o600); err != nil {
		t.Fatal(err)
	}
	return wholeZip(entry, on, maxBytes)(p)
}

func seed(t testing.TB, name string) []byte {
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FuzzCheck feeds the check a day's body must pass: it never panics, and
// what it takes is a zip holding the one entry named. The seeds are a real
// day, its half, an error page and a zip bomb (32 MiB of one byte in 33 KB).
func FuzzCheck(f *testing.F) {
	real := seed(f, day+".zip")
	f.Add(real)
	f.Add(real[:len(real)/2])
	f.Add([]byte("<!DOCTYPE html><html><body>Access Denied</body></html>"))
	f.Add(seed(f, "bomb_20250618.csv.zip"))
	f.Fuzz(func(t *testing.T, body []byte) {
		_ = checkBody(t, day, june18, 64<<20, body)
	})
}

func TestCheckTakesARealDayAndRefusesItsHalf(t *testing.T) {
	real := seed(t, day+".zip")
	if err := checkBody(t, day, june18, 0, real); err != nil {
		t.Fatalf("the real day: %v", err)
	}
	if err := checkBody(t, day, june18, 0, real[:len(real)-100]); err == nil {
		t.Fatal("a zip cut short passed")
	}
	if err := checkBody(t, "BhavCopy_NSE_CM_0_0_0_20250619_F_0000.csv", june18.AddDate(0, 0, 1), 0, real); err == nil {
		t.Fatal("another day's zip passed as the 19th")
	}
}

// TestCheckRefusesABombUninflated: a day's zip whose entry declares 32 MiB
// from 33 KB, a ratio no bhavcopy has, is refused before it is inflated,
// as is an entry declaring more than the bound of a file. The check used
// to inflate every byte of the entry (a 4 MB bomb of 16 GiB: 62 s of CPU).
func TestCheckRefusesABombUninflated(t *testing.T) {
	err := checkBody(t, day, june18, 1<<30, seed(t, "bomb_20250618.csv.zip"))
	if err == nil || !strings.Contains(err.Error(), "a zip bomb") {
		t.Fatalf("a bomb: %v", err)
	}
	err = checkBody(t, day, june18, 64<<10, seed(t, day+".zip"))
	if err == nil || !strings.Contains(err.Error(), "more than 64 KiB (QUARRY_INGEST_MAX_FILE_BYTES)") {
		t.Fatalf("an entry over the bound: %v", err)
	}
}
