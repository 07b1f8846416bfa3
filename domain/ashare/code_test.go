package ashare_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/domain/ashare"
)

func TestParseCode(t *testing.T) {
	ok := []struct {
		in    string
		canon string
		board ashare.Board
	}{
		{"SSE.600519", "SSE.600519", ashare.Main},
		{"sse.688981", "SSE.688981", ashare.STAR},
		{"SZSE.000001", "SZSE.000001", ashare.Main},
		{"SZSE.300750", "SZSE.300750", ashare.ChiNext},
		{"SZSE.302132", "SZSE.302132", ashare.ChiNext},
		{"BSE.835185", "BSE.835185", ashare.BSEMain},
		{"BSE.920185", "BSE.920185", ashare.BSEMain},
	}
	for _, c := range ok {
		got, err := ashare.ParseCode(c.in)
		if err != nil {
			t.Fatalf("ParseCode(%q) = %v", c.in, err)
		}
		if got.String() != c.canon || got.Board != c.board {
			t.Fatalf("ParseCode(%q) = %v/%s, want %s/%s", c.in, got, got.Board, c.canon, c.board)
		}
	}
	bad := []struct {
		in   string
		want error
		says string
	}{
		{"600519", ashare.ErrBareCode, "SSE.600519"},
		{"000001", ashare.ErrBareCode, "SZSE.000001"},
		{"999999", ashare.ErrBareCode, "no mainland exchange"},
		{"SZSE.600519", ashare.ErrWrongRange, "SSE.600519"},
		{"SSE.300750", ashare.ErrWrongRange, "SZSE.300750"},
		{"NYSE.600519", ashare.ErrMalformed, "SSE, SZSE, BSE"},
		{"SSE.60051", ashare.ErrMalformed, "6 digits"},
		{"SSE600519", ashare.ErrMalformed, ""},
		{"", ashare.ErrMalformed, ""},
	}
	for _, c := range bad {
		_, err := ashare.ParseCode(c.in)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.says) {
			t.Fatalf("ParseCode(%q) = %v, want %v mentioning %q", c.in, err, c.want, c.says)
		}
	}
}

func TestIsBShare(t *testing.T) {
	for _, c := range []struct {
		e      ashare.Exchange
		digits string
		want   bool
	}{
		{ashare.SSE, "900936", true}, {ashare.SZSE, "200011", true}, {ashare.SZSE, "201872", true},
		{ashare.SZSE, "900936", false}, {ashare.SSE, "200011", false}, {ashare.BSE, "900936", false},
		{ashare.SSE, "600519", false}, {ashare.SZSE, "20001", false},
	} {
		if got := ashare.IsBShare(c.e, c.digits); got != c.want {
			t.Errorf("IsBShare(%s, %q) = %v, want %v", c.e, c.digits, got, c.want)
		}
	}
}

func FuzzParseCode(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ashare.ParseCode(s)
		if err != nil {
			return
		}
		again, err := ashare.ParseCode(c.String())
		if err != nil || again != c {
			t.Fatalf("canonical form %q does not round-trip: %v", c, err)
		}
	})
}
