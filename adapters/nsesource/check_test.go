package nsesource

import (
	"os"
	"testing"
	"time"
)

var june18 = time.Date(2025, 6, 18, 0, 0, 0, 0, time.UTC)

// FuzzCheck feeds the check a day's body must pass: it never panics, and
// what it takes is a zip holding the one entry named.
func FuzzCheck(f *testing.F) {
	seed, err := os.ReadFile("testdata/BhavCopy_NSE_CM_0_0_0_20250618_F_0000.csv.zip")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add(seed[:len(seed)/2])
	f.Add([]byte("<!DOCTYPE html><html><body>Access Denied</body></html>"))
	check := wholeZip("BhavCopy_NSE_CM_0_0_0_20250618_F_0000.csv", june18)
	f.Fuzz(func(t *testing.T, body []byte) {
		_ = check(body)
	})
}

func TestCheckTakesARealDayAndRefusesItsHalf(t *testing.T) {
	seed, err := os.ReadFile("testdata/BhavCopy_NSE_CM_0_0_0_20250618_F_0000.csv.zip")
	if err != nil {
		t.Fatal(err)
	}
	check := wholeZip("BhavCopy_NSE_CM_0_0_0_20250618_F_0000.csv", june18)
	if err := check(seed); err != nil {
		t.Fatalf("the real day: %v", err)
	}
	if err := check(seed[:len(seed)-100]); err == nil {
		t.Fatal("a zip cut short passed")
	}
	if err := wholeZip("BhavCopy_NSE_CM_0_0_0_20250619_F_0000.csv", june18.AddDate(0, 0, 1))(seed); err == nil {
		t.Fatal("another day's zip passed as the 19th")
	}
}
