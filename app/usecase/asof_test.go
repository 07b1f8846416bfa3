package usecase_test

import (
	"errors"
	"testing"
	"time"

	"github.com/quarrydata/quarry/app/usecase"
)

func TestParseAsOf(t *testing.T) {
	now := time.Date(2026, 7, 20, 12, 0, 0, 0, time.UTC)
	cases := map[string]time.Time{
		"":                          now,
		"2024-06-30":                time.Date(2024, 6, 30, 23, 59, 59, 999999000, time.UTC),
		"2024-06-30T10:00:00+02:00": time.Date(2024, 6, 30, 8, 0, 0, 0, time.UTC),
		"2030-01-01":                now,
	}
	for in, want := range cases {
		got, err := usecase.ParseAsOf(in, now)
		if err != nil || !got.Equal(want) {
			t.Fatalf("ParseAsOf(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"yesterday", "2024-13-01", "2024-06-30 10:00"} {
		if _, err := usecase.ParseAsOf(bad, now); !errors.Is(err, usecase.ErrValidation) {
			t.Fatalf("ParseAsOf(%q) = %v", bad, err)
		}
	}
}
