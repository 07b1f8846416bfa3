package edgarsource

import (
	"os"
	"testing"
	"time"
)

// FuzzParseFormIndex feeds the daily form index parser: it never panics,
// and every filing it returns has a CIK and a file under edgar/data/.
func FuzzParseFormIndex(f *testing.F) {
	for _, name := range []string{"testdata/form.20220204.idx", "testdata/form.20241101.idx", "testdata/form.20211112.idx"} {
		seed, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(seed)
		f.Add(seed[:len(seed)*2/3])
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		filings, err := ParseFormIndex(body)
		if err != nil {
			return
		}
		for _, fl := range filings {
			if fl.CIK <= 0 || len(fl.File) < len("edgar/data/") || fl.Form == "" {
				t.Fatalf("a filing read without its columns: %+v", fl)
			}
		}
	})
}

func TestParseFormIndexReadsARealDay(t *testing.T) {
	body, err := os.ReadFile("testdata/form.20220204.idx")
	if err != nil {
		t.Fatal(err)
	}
	filings, err := ParseFormIndex(body)
	if err != nil {
		t.Fatal(err)
	}
	if len(filings) != 57 {
		t.Fatalf("%d filings, want the 57 rows", len(filings))
	}
	td := filings[19]
	if td.Form != "13F-HR" || td.Company != "TORONTO DOMINION BANK" || td.CIK != 947263 || td.Filed != "20220204" ||
		td.File != "edgar/data/947263/0001654954-22-001088.txt" {
		t.Fatalf("row 20 read as %+v", td)
	}
	if got := Filers(filings); len(got) != 0 {
		t.Fatalf("the day holds no 10-K, 10-Q or 10-K/A, yet filers %v were picked", got)
	}
}

func TestParseFormIndexRefusesAFileCutInsideARow(t *testing.T) {
	body, err := os.ReadFile("testdata/form.20241101.idx")
	if err != nil {
		t.Fatal(err)
	}
	filings, err := ParseFormIndex(body)
	if err != nil || len(filings) != 1 || Filers(filings)[0] != 320193 {
		t.Fatalf("the day's one 10-K read as %+v, %v", filings, err)
	}
	cut := body[:len(body)-40]
	if _, err := ParseFormIndex(cut); err == nil {
		t.Fatal("a row cut inside its file name passed")
	}
	if _, err := ParseFormIndex([]byte("<html><body>Access Denied</body></html>")); err == nil {
		t.Fatal("an HTML page passed as an index")
	}
}

// FuzzOfDay feeds the check that an index is of the day asked: it never
// panics, and what it takes says that day in its header.
func FuzzOfDay(f *testing.F) {
	seed, err := os.ReadFile("testdata/form.20250226.idx")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	day := time.Date(2025, 2, 26, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, body []byte) {
		filings, err := ParseFormIndex(body)
		if err != nil || OfDay(body, filings, day) != nil {
			return
		}
		if got, err := Received(body); err != nil || !got.Equal(day) {
			t.Fatalf("taken as of %s, its header says %s (%v)", day, got, err)
		}
		for _, fl := range filings {
			if fl.Filed > "20250226" {
				t.Fatalf("taken with a filing of %s", fl.Filed)
			}
		}
	})
}

func TestReceivedReadsEveryHeader(t *testing.T) {
	for name, want := range map[string]string{"form.20220204.idx": "2022-02-04", "form.20241101.idx": "2024-11-01", "form.20250226.idx": "2025-02-26"} {
		body, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := Received(body); err != nil || got.Format(time.DateOnly) != want {
			t.Errorf("%s: %s, %v; want %s", name, got, err, want)
		}
	}
}
