// Package table describes typed tabular data as an export writes it: named
// columns of a few kinds (string, date, decimal, integer) and rows of
// values. Writers of files (CSV, XLSX, Parquet) and the datasets that feed
// them agree on nothing else. It does no I/O.
package table

import (
	"errors"
	"fmt"
	"strconv"
	"time"
)

// Kind is the type of a column's values.
type Kind int

// The kinds a column may have.
const (
	// String is text.
	String Kind = iota + 1
	// Date is a calendar date without a time or zone.
	Date
	// Decimal is a decimal amount, such as a price, carried as a float64:
	// the same value the JSON routes answer with.
	Decimal
	// Int is a whole number, such as a volume or a count.
	Int
)

// String names the kind as the export's documentation does.
func (k Kind) String() string {
	switch k {
	case String:
		return "string"
	case Date:
		return "date"
	case Decimal:
		return "decimal"
	case Int:
		return "int"
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Column is one column of a table.
type Column struct {
	Name string
	Kind Kind
	// Nullable says the column may hold no value in a row.
	Nullable bool
}

// ErrInvalidColumns: a table's columns are empty, unnamed, named twice or
// of an unknown kind.
var ErrInvalidColumns = errors.New("invalid table columns")

// Check reports whether cols can describe a table.
func Check(cols []Column) error {
	if len(cols) == 0 {
		return fmt.Errorf("%w: no column", ErrInvalidColumns)
	}
	seen := make(map[string]bool, len(cols))
	for i, c := range cols {
		switch {
		case c.Name == "":
			return fmt.Errorf("%w: column %d has no name", ErrInvalidColumns, i)
		case seen[c.Name]:
			return fmt.Errorf("%w: column %q named twice", ErrInvalidColumns, c.Name)
		case c.Kind < String || c.Kind > Int:
			return fmt.Errorf("%w: column %q is of %s", ErrInvalidColumns, c.Name, c.Kind)
		}
		seen[c.Name] = true
	}
	return nil
}

// Value is one cell. Exactly the field of its column's kind is read: Str for
// String, Day for Date, Num for Decimal, Int for Int. Null marks a missing
// value in a nullable column.
type Value struct {
	Str  string
	Day  Day
	Num  float64
	Int  int64
	Null bool
}

// Row is one row: a value per column, in column order. A row source may
// hand the same Row to every iteration, so a Row is valid only until the
// next one is asked for.
type Row []Value

// Day is a calendar date, counted in days since 1970-01-01 (Parquet's DATE
// and Arrow's date32 count the same way).
type Day int32

// DayOf returns the date of t in its own location.
func DayOf(t time.Time) Day {
	y, m, d := t.Date()
	return Day(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

// ParseDay reads a YYYY-MM-DD date.
func ParseDay(s string) (Day, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return 0, fmt.Errorf("date %q is not YYYY-MM-DD", s)
	}
	return DayOf(t), nil
}

// Time returns the day's midnight in UTC.
func (d Day) Time() time.Time { return time.Unix(int64(d)*86400, 0).UTC() }

// String writes the day as YYYY-MM-DD.
func (d Day) String() string { return d.Time().Format(time.DateOnly) }

// AppendText appends the value as CSV writes it: dates as YYYY-MM-DD,
// decimals in the shortest form that reads back as the same float64 (never
// in exponent form), integers in base 10, and a null as nothing.
func (v Value) AppendText(b []byte, k Kind) []byte {
	if v.Null {
		return b
	}
	switch k {
	case Date:
		return v.Day.Time().AppendFormat(b, time.DateOnly)
	case Decimal:
		return strconv.AppendFloat(b, v.Num, 'f', -1, 64)
	case Int:
		return strconv.AppendInt(b, v.Int, 10)
	}
	return append(b, v.Str...)
}
