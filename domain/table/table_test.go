package table

import (
	"errors"
	"math"
	"strconv"
	"testing"
	"time"
)

func TestDayRoundTrip(t *testing.T) {
	for _, s := range []string{"1970-01-01", "1969-12-31", "2024-02-29", "1900-03-01", "2999-12-31"} {
		d, err := ParseDay(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := d.String(); got != s {
			t.Errorf("ParseDay(%s).String() = %s", s, got)
		}
	}
	if d, _ := ParseDay("1970-01-02"); d != 1 {
		t.Errorf("1970-01-02 is day %d, want 1", d)
	}
	if _, err := ParseDay("2024-02-30"); err == nil {
		t.Error("2024-02-30 parsed")
	}
	ist := time.FixedZone("IST", 19800)
	if got := DayOf(time.Date(2024, 7, 1, 0, 30, 0, 0, ist)).String(); got != "2024-07-01" {
		t.Errorf("DayOf kept the zone's date? got %s", got)
	}
}

func TestAppendText(t *testing.T) {
	cases := []struct {
		v    Value
		k    Kind
		want string
	}{
		{Value{Str: `a,"b"`}, String, `a,"b"`},
		{Value{Day: 19905}, Date, "2024-07-01"},
		{Value{Num: 2345.65}, Decimal, "2345.65"},
		{Value{Num: 1e21}, Decimal, "1000000000000000000000"},
		{Value{Num: 0.0001}, Decimal, "0.0001"},
		{Value{Int: -42}, Int, "-42"},
		{Value{Null: true, Num: 3}, Decimal, ""},
	}
	for _, c := range cases {
		if got := string(c.v.AppendText(nil, c.k)); got != c.want {
			t.Errorf("%+v as %s = %q, want %q", c.v, c.k, got, c.want)
		}
	}
	// The decimal text reads back as the same float64.
	for _, f := range []float64{0.1, 1.0 / 3, 123456.789, math.MaxFloat64, math.SmallestNonzeroFloat64} {
		back, err := strconv.ParseFloat(string(Value{Num: f}.AppendText(nil, Decimal)), 64)
		if err != nil || back != f {
			t.Errorf("%v read back as %v (%v)", f, back, err)
		}
	}
}

func TestCheck(t *testing.T) {
	good := []Column{{Name: "a", Kind: String}, {Name: "b", Kind: Date, Nullable: true}}
	if err := Check(good); err != nil {
		t.Fatal(err)
	}
	for name, cols := range map[string][]Column{
		"none":    nil,
		"unnamed": {{Kind: Int}},
		"twice":   {{Name: "a", Kind: Int}, {Name: "a", Kind: String}},
		"kind":    {{Name: "a"}},
	} {
		if err := Check(cols); !errors.Is(err, ErrInvalidColumns) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
