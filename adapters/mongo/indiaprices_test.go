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
