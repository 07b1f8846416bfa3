package ashare_test

import (
	"testing"

	"github.com/quarrydata/quarry/domain/ashare"
)

func TestMeant(t *testing.T) {
	for raw, want := range map[string]string{
		"600519.SH": "SSE.600519", "sh600519": "SSE.600519", "SH.600519": "SSE.600519", "600519.xshg": "SSE.600519",
		"000001.SZ": "SZSE.000001", "bj830799": "BSE.830799", "600519": "SSE.600519", "300104": "SZSE.300104",
		"SZSE.600519": "SSE.600519", "600519.SZ": "SSE.600519", "NYSE.600519": "SSE.600519", "sz600519": "SSE.600519",
		"SSE.600519": "", "sse.600519": "", "SSE.AAPL": "", "900901": "", "60051": "", "": "",
	} {
		got, ok := ashare.Meant(raw)
		if ok != (want != "") || (ok && got.String() != want) {
			t.Errorf("Meant(%q) = %v, %v; want %q", raw, got, ok, want)
		}
	}
}

func TestSearchMatches(t *testing.T) {
	vanke := ashare.Security{Code: "SZSE.000002", Exchange: "SZSE", Board: "main", CompanyName: "万  科Ａ", Listed: true}
	yes, no := true, false
	for _, c := range []struct {
		q    ashare.Search
		want bool
	}{
		{ashare.Search{}, true},
		{ashare.Search{Name: ashare.NameKey("万科a")}, true},
		{ashare.Search{Name: ashare.NameKey("科Ａ")}, true},
		{ashare.Search{Name: ashare.NameKey("茅台")}, false},
		{ashare.Search{Digits: "000"}, true},
		{ashare.Search{Digits: "0000020"}, false},
		{ashare.Search{Digits: "002"}, false},
		{ashare.Search{Exchange: ashare.SZSE, Board: ashare.Main, Listed: &yes}, true},
		{ashare.Search{Exchange: ashare.SSE}, false},
		{ashare.Search{Board: ashare.ChiNext}, false},
		{ashare.Search{Listed: &no}, false},
	} {
		if got := c.q.Matches(vanke); got != c.want {
			t.Errorf("%+v matches %s: %v, want %v", c.q, vanke.CompanyName, got, c.want)
		}
	}
}
