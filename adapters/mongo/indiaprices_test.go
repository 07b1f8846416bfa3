package mongo

import (
	"slices"
	"testing"
	"time"
)

func TestMergeVersions(t *testing.T) {
	at := time.Date(2021, 6, 4, 10, 0, 0, 0, time.UTC)
	v := func(date string, close float64, known time.Time) indiaVersionDoc {
		return indiaVersionDoc{Date: date, Symbol: "RELIANCE", Close: close, KnownAt: known}
	}
	held := []indiaVersionDoc{v("2021-06-01", 2168.9, at), v("2021-06-03", 2209.65, at)}
	kept := slices.Clone(held)
	if got, added := mergeVersions(held, []indiaVersionDoc{held[1], held[0]}); len(added) != 0 || !slices.Equal(got, held) {
		t.Fatalf("merging what is held = %+v, added %+v", got, added)
	}
	// RELIANCE EQ closes of the sample; 2209.7 stands for a corrected
	// close (made up).
	later := at.Add(time.Hour)
	add := []indiaVersionDoc{v("2021-06-02", 2201.25, at), v("2021-06-01", 2168.9, later), v("2021-06-03", 2209.7, at)}
	got, added := mergeVersions(held, add)
	want := []indiaVersionDoc{v("2021-06-01", 2168.9, at), v("2021-06-01", 2168.9, later), v("2021-06-02", 2201.25, at), v("2021-06-03", 2209.7, at)}
	if !slices.Equal(got, want) || !slices.Equal(added, add) {
		t.Fatalf("merge = %+v, added %+v\nwant %+v", got, added, want)
	}
	if !slices.Equal(held, kept) {
		t.Fatalf("merge modified what is held: %+v", held)
	}
}

func TestIndiaBucketID(t *testing.T) {
	id := indiaBucketID("INE002A01018", "EQ", 2021)
	if id != "INE002A01018|EQ|2021" {
		t.Fatalf("id = %s", id)
	}
	if isin, series, year := splitIndiaBucketID(id); isin != "INE002A01018" || series != "EQ" || year != 2021 {
		t.Fatalf("split = %s, %s, %d", isin, series, year)
	}
}

// TestDropPublished: a version held the same under a published mark is
// not written again; one held under a pending mark, or with other
// figures, is.
func TestDropPublished(t *testing.T) {
	at := time.Date(2025, 4, 8, 16, 0, 0, 0, time.UTC)
	// ZOMATO EQ closes of 2025-04-07 and 04-08 (NSE); 215.2 stands for a
	// corrected close (made up).
	v := func(date string, close float64, batch string) indiaVersionDoc {
		return indiaVersionDoc{ISIN: "INE758T01015", Series: "EQ", Date: date, Symbol: "ZOMATO", Close: close, KnownAt: at, Batch: batch}
	}
	stored := map[string]indiaRowsDoc{
		"2025-04-07": {ID: "2025-04-07", Rows: []indiaVersionDoc{v("2025-04-07", 209.63, "published")}},
		"2025-04-08": {ID: "2025-04-08", Rows: []indiaVersionDoc{v("2025-04-08", 215.19, "pending")}},
	}
	pending := map[string]bool{"pending": true}
	days := map[string][]indiaVersionDoc{"2025-04-07": {v("2025-04-07", 209.63, "")}}
	if dropPublished(days, stored, pending) || len(days) != 0 {
		t.Fatalf("a published version is written again: %+v", days)
	}
	days = map[string][]indiaVersionDoc{"2025-04-07": {v("2025-04-07", 215.2, "")}, "2025-04-08": {v("2025-04-08", 215.19, "")}}
	if !dropPublished(days, stored, pending) || len(days["2025-04-07"]) != 1 || len(days["2025-04-08"]) != 1 {
		t.Fatalf("a changed version or one of a pending batch is dropped: %+v", days)
	}
}
