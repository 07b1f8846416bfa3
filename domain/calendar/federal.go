package calendar

import "time"

// federalFrom is the first year the rules below give every federal
// holiday as observed now (Martin Luther King Jr. Day, from 1986).
const federalFrom = 1986

// USFederal reports whether day is a US federal holiday as observed
// (5 U.S.C. 6103 and Executive Order 11582): one falling on a Saturday
// is observed the Friday before, on a Sunday the Monday after; and names
// it. EDGAR does not disseminate on these days. Days the government
// closes by a later order (a national day of mourning) are not in it.
func USFederal(day time.Time) (string, bool) {
	if day.Year() < federalFrom {
		return "", false
	}
	for _, y := range []int{day.Year(), day.Year() + 1} {
		for _, h := range federal(y) {
			if observed(h.day).Equal(day) {
				return h.name, true
			}
		}
	}
	return "", false
}

type holiday struct {
	name string
	day  time.Time
}

// federal returns year's federal holidays on the days they fall.
func federal(year int) []holiday {
	on := func(m time.Month, d int) time.Time { return time.Date(year, m, d, 0, 0, 0, 0, time.UTC) }
	out := []holiday{
		{"New Year's Day", on(time.January, 1)},
		{"Birthday of Martin Luther King, Jr.", nth(year, time.January, time.Monday, 3)},
		{"Washington's Birthday", nth(year, time.February, time.Monday, 3)},
		{"Memorial Day", last(year, time.May, time.Monday)},
		{"Independence Day", on(time.July, 4)},
		{"Labor Day", nth(year, time.September, time.Monday, 1)},
		{"Columbus Day", nth(year, time.October, time.Monday, 2)},
		{"Veterans Day", on(time.November, 11)},
		{"Thanksgiving Day", nth(year, time.November, time.Thursday, 4)},
		{"Christmas Day", on(time.December, 25)},
	}
	if year >= 2021 {
		out = append(out, holiday{"Juneteenth National Independence Day", on(time.June, 19)})
	}
	return out
}

// observed moves a holiday off the weekend.
func observed(d time.Time) time.Time {
	switch d.Weekday() {
	case time.Saturday:
		return d.AddDate(0, 0, -1)
	case time.Sunday:
		return d.AddDate(0, 0, 1)
	}
	return d
}

// nth returns the n-th weekday wd of month.
func nth(year int, month time.Month, wd time.Weekday, n int) time.Time {
	d := time.Date(year, month, 1, 0, 0, 0, 0, time.UTC)
	d = d.AddDate(0, 0, (int(wd)-int(d.Weekday())+7)%7)
	return d.AddDate(0, 0, 7*(n-1))
}

// last returns the last weekday wd of month.
func last(year int, month time.Month, wd time.Weekday) time.Time {
	d := time.Date(year, month+1, 0, 0, 0, 0, 0, time.UTC)
	return d.AddDate(0, 0, -((int(d.Weekday()) - int(wd) + 7) % 7))
}
