package porttest

import (
	"context"
	"reflect"
	"testing"

	"github.com/quarrydata/quarry/domain/ashare"
)

// runSecuritySearch is the contract of SecurityStore.SearchSecurities:
// every field of a search narrows it as ashare.Search.Matches says,
// listings come by code, and pages cut the matches exactly.
func runSecuritySearch(t *testing.T, newStore NewSecurityStore) {
	ctx := context.Background()
	listing := func(code, exchange, board, name string, listed bool) ashare.Security {
		s := ashare.Security{Code: code, Exchange: exchange, Board: board, CompanyName: name, ListingDate: "2001-08-27", Listed: listed}
		if !listed {
			s.DelistingDate = "2020-07-21"
		}
		return s
	}
	spdb := listing("SSE.600000", "SSE", "main", "浦发银行", true)
	moutai := listing("SSE.600519", "SSE", "main", "贵州茅台", true)
	moutai.EnglishName = "Kweichow Moutai Co.,Ltd."
	smic := listing("SSE.688981", "SSE", "star", "Semiconductor Manufacturing International", true)
	pingAn := listing("SZSE.000001", "SZSE", "main", "平安银行", true)
	vanke := listing("SZSE.000002", "SZSE", "main", "万科Ａ", true)
	letv := listing("SZSE.300104", "SZSE", "chinext", "乐视退", false)
	btr := listing("BSE.920185", "BSE", "bse", "贝特瑞", true)
	all := []ashare.Security{btr, spdb, moutai, smic, pingAn, vanke, letv}
	yes, no := true, false
	t.Run("a search matches by name part, exchange, code prefix, board and listed state", func(t *testing.T) {
		s := newStore(t)
		must(t, "Upsert", s.UpsertSecurities(ctx, all))
		for name, c := range map[string]struct {
			q    ashare.Search
			want []ashare.Security
		}{
			"everything":             {ashare.Search{}, all},
			"Chinese name part":      {ashare.Search{Name: ashare.NameKey("银行")}, []ashare.Security{spdb, pingAn}},
			"full-width folded":      {ashare.Search{Name: ashare.NameKey("万科A")}, []ashare.Security{vanke}},
			"English, any case":      {ashare.Search{Name: ashare.NameKey("semiconductor MANUFACTURING")}, []ashare.Security{smic}},
			"English name":           {ashare.Search{Name: ashare.NameKey("KWEICHOW moutai")}, []ashare.Security{moutai}},
			"exchange":               {ashare.Search{Exchange: ashare.SZSE}, []ashare.Security{pingAn, vanke, letv}},
			"digits prefix":          {ashare.Search{Digits: "600"}, []ashare.Security{spdb, moutai}},
			"digits on one exchange": {ashare.Search{Exchange: ashare.SZSE, Digits: "000"}, []ashare.Security{pingAn, vanke}},
			"whole digits":           {ashare.Search{Digits: "920185"}, []ashare.Security{btr}},
			"board":                  {ashare.Search{Board: ashare.STAR}, []ashare.Security{smic}},
			"delisted":               {ashare.Search{Listed: &no}, []ashare.Security{letv}},
			"listed on SZSE":         {ashare.Search{Exchange: ashare.SZSE, Listed: &yes}, []ashare.Security{pingAn, vanke}},
			"nothing matches":        {ashare.Search{Board: ashare.STAR, Exchange: ashare.SZSE}, nil},
		} {
			got, more, err := s.SearchSecurities(ctx, c.q, 0, 100)
			must(t, "SearchSecurities "+name, err)
			if more || len(got) != len(c.want) || (len(got) > 0 && !reflect.DeepEqual(got, c.want)) {
				t.Fatalf("%s: SearchSecurities(%+v) = %+v (more %v), want %+v", name, c.q, got, more, c.want)
			}
		}
	})
	t.Run("pages of a search cut its matches in order", func(t *testing.T) {
		s := newStore(t)
		must(t, "Upsert", s.UpsertSecurities(ctx, all))
		for offset := 0; offset < len(all)+2; offset++ {
			got, more, err := s.SearchSecurities(ctx, ashare.Search{}, offset, 3)
			must(t, "SearchSecurities", err)
			want := all[min(offset, len(all)):min(offset+3, len(all))]
			if len(got) != len(want) || (len(got) > 0 && !reflect.DeepEqual(got, want)) || more != (offset+3 < len(all)) {
				t.Fatalf("page at %d = %+v (more %v), want %+v", offset, got, more, want)
			}
		}
		named := ashare.Search{Name: ashare.NameKey("银行")}
		got, more, err := s.SearchSecurities(ctx, named, 1, 1)
		must(t, "SearchSecurities by name", err)
		if more || len(got) != 1 || got[0] != pingAn {
			t.Fatalf("second page of a name search = %+v (more %v), want %s alone", got, more, pingAn.Code)
		}
	})
}
