package calendar_test

import (
	"testing"
	"time"

	"github.com/quarrydata/quarry/domain/calendar"
)

func day(t *testing.T, s string) time.Time {
	t.Helper()
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestUSFederalHolidaysAsOPMListsThem checks the rules against the
// observed dates OPM publishes (opm.gov, Federal Holidays, 2021 to 2025),
// the observed New Year's Day of 2022 on 2021-12-31 among them, and
// against weekdays EDGAR disseminated on.
func TestUSFederalHolidaysAsOPMListsThem(t *testing.T) {
	holidays := []string{
		"2021-01-01", "2021-01-18", "2021-02-15", "2021-05-31", "2021-06-18", "2021-07-05", "2021-09-06", "2021-10-11", "2021-11-11", "2021-11-25", "2021-12-24", "2021-12-31",
		"2022-01-17", "2022-02-21", "2022-05-30", "2022-06-20", "2022-07-04", "2022-09-05", "2022-10-10", "2022-11-11", "2022-11-24", "2022-12-26",
		"2023-01-02", "2023-01-16", "2023-02-20", "2023-05-29", "2023-06-19", "2023-07-04", "2023-09-04", "2023-10-09", "2023-11-10", "2023-11-23", "2023-12-25",
		"2024-01-01", "2024-01-15", "2024-02-19", "2024-05-27", "2024-06-19", "2024-07-04", "2024-09-02", "2024-10-14", "2024-11-11", "2024-11-28", "2024-12-25",
		"2025-01-01", "2025-01-20", "2025-02-17", "2025-05-26", "2025-06-19", "2025-07-04", "2025-09-01", "2025-10-13", "2025-11-11", "2025-11-27", "2025-12-25",
	}
	for _, s := range holidays {
		if name, ok := calendar.USFederal(day(t, s)); !ok || name == "" {
			t.Errorf("%s is not a federal holiday by the rules", s)
		}
	}
	n := 0
	for d := day(t, "2021-01-01"); d.Year() < 2026; d = d.AddDate(0, 0, 1) {
		if _, ok := calendar.USFederal(d); ok {
			n++
		}
	}
	if n != len(holidays) {
		t.Errorf("%d federal holidays 2021 to 2025 by the rules, OPM lists %d", n, len(holidays))
	}
	// Days the sample's EDGAR indexes were disseminated, Good Friday 2025,
	// and Juneteenth 2020, before it was a federal holiday.
	for _, s := range []string{"2021-11-12", "2022-02-04", "2024-11-01", "2025-02-26", "2025-07-30", "2025-04-18", "2020-06-19"} {
		if name, ok := calendar.USFederal(day(t, s)); ok {
			t.Errorf("%s is taken for %s", s, name)
		}
	}
}

// TestTheExchangeListsHoldTheirHolidays checks days of each list against
// the exchanges' announcements, and that a year a list does not cover
// has no holiday.
func TestTheExchangeListsHoldTheirHolidays(t *testing.T) {
	cases := []struct {
		list    calendar.List
		day     string
		holiday bool
	}{
		{calendar.NSE, "2025-02-26", true},  // Mahashivratri
		{calendar.NSE, "2024-11-20", true},  // the Maharashtra assembly election
		{calendar.NSE, "2025-06-30", false}, // a trading day
		{calendar.NSE, "2025-06-18", false},
		{calendar.AShare, "2022-06-03", true}, // 端午节
		{calendar.AShare, "2023-10-06", true}, // 国庆节
		{calendar.AShare, "2022-06-01", false},
		{calendar.AShare, "2024-02-09", true}, // 春节 eve, added by the SSE
	}
	for _, c := range cases {
		if got := c.list.Holiday(day(t, c.day)); got != c.holiday || !c.list.Covers(day(t, c.day)) {
			t.Errorf("%s: holiday %t, want %t", c.day, got, c.holiday)
		}
	}
	if calendar.NSE.Covers(day(t, "2023-01-26")) || calendar.NSE.Holiday(day(t, "2023-01-26")) {
		t.Error("NSE's list covers 2023, which it does not hold")
	}
}

func TestParseRefusesADayOutsideTheYearsCovered(t *testing.T) {
	if _, err := calendar.Parse("x", "covers 2024 2024\n2025-01-01\n"); err == nil {
		t.Error("a day of 2025 in a list covering 2024 was taken")
	}
	if _, err := calendar.Parse("x", "2024-01-01\n"); err == nil {
		t.Error("a list naming no years was taken")
	}
}
