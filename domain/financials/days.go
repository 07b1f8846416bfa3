package financials

import "time"

// day reads a YYYY-MM-DD date exactly as time.Parse(time.DateOnly, s)
// does, and to the same instant, without its general layout machinery:
// statements read the same few thousand dates tens of thousands of times
// (period kinds, trailing twelve months), and time.Parse was a third of
// their cost.
func day(s string) (time.Time, bool) {
	if len(s) != len(time.DateOnly) || s[4] != '-' || s[7] != '-' {
		return time.Time{}, false
	}
	y, ok1 := digits(s[0:4])
	m, ok2 := digits(s[5:7])
	d, ok3 := digits(s[8:10])
	if !ok1 || !ok2 || !ok3 {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if t.Year() != y || int(t.Month()) != m || t.Day() != d {
		return time.Time{}, false
	}
	return t, true
}

// digits reads a run of decimal digits.
func digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// DaysBetween returns the whole days from start to end, both YYYY-MM-DD.
func DaysBetween(start, end string) (int, bool) {
	s, ok1 := day(start)
	e, ok2 := day(end)
	if !ok1 || !ok2 {
		return 0, false
	}
	return int(e.Sub(s).Hours() / 24), true
}
