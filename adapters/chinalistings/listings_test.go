package chinalistings_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/adapters/chinalistings"
	"github.com/quarrydata/quarry/domain/source"
	"github.com/quarrydata/quarry/sampledata"
)

func TestParseListingsSample(t *testing.T) {
	f, err := sampledata.Files.Open(sampledata.ChinaSecurities)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	secs, err := chinalistings.Parse(sampledata.ChinaSecurities, f)
	if err != nil {
		t.Fatal(err)
	}
	boards := map[string]bool{}
	delisted := 0
	for _, s := range secs {
		boards[s.Exchange+"/"+s.Board] = true
		if !s.Listed {
			delisted++
		}
	}
	for _, want := range []string{"SSE/main", "SSE/star", "SZSE/main", "SZSE/chinext", "BSE/bse"} {
		if !boards[want] {
			t.Errorf("sample lacks a %s listing", want)
		}
	}
	if len(secs) < 8 || delisted != 1 {
		t.Fatalf("sample has %d listings, %d delisted; want at least 8 and exactly 1", len(secs), delisted)
	}
}

func TestParseListingsRefusesBadFiles(t *testing.T) {
	const header = "exchange,code,company_name,listing_date,delisting_date\n"
	cases := map[string]struct{ body, says string }{
		"empty":           {"", "l.csv:1"},
		"wrong header":    {"code,name,a,b,c\n", "header must be"},
		"wrong width":     {"code,name\n", "l.csv:1"},
		"no rows":         {header, "no listings"},
		"wrong range":     {header + "SZSE,600519,X,2001-08-27,\n", "l.csv:2"},
		"bad date":        {header + "SSE,600519,X,2001-13-27,\n", "listing_date"},
		"delist first":    {header + "SSE,600519,X,2001-08-27,2000-01-01\n", "after listing_date"},
		"short row":       {header + "SSE,600519,X\n", "l.csv:2"},
		"duplicate":       {header + "SSE,600519,X,2001-08-27,\nSSE,600519,X,2001-08-27,\n", "l.csv:3: duplicate"},
		"no name":         {header + "SSE,600519, ,2001-08-27,\n", "company_name"},
		"truncated quote": {header + "SSE,600519,\"Kweichow", "l.csv:2"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := chinalistings.Parse("l.csv", strings.NewReader(c.body))
			if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("err = %v, want ErrBadInput mentioning %q", err, c.says)
			}
		})
	}
}

func FuzzParseListings(f *testing.F) {
	f.Fuzz(func(t *testing.T, body string) {
		secs, err := chinalistings.Parse("fuzz.csv", strings.NewReader(body))
		if err != nil && !errors.Is(err, source.ErrBadInput) {
			t.Fatalf("unexpected error kind: %v", err)
		}
		for _, s := range secs {
			if s.Code == "" || s.CompanyName == "" {
				t.Fatalf("accepted incomplete listing %+v", s)
			}
		}
	})
}
