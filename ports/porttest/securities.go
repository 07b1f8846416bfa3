package porttest

import (
	"context"
	"testing"
	"time"

	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/ports"
)

// NewSecurityStore returns an empty SecurityStore for one test.
type NewSecurityStore func(t *testing.T) ports.SecurityStore

// RunSecurities is the contract of SecurityStore.
func RunSecurities(t *testing.T, newStore NewSecurityStore) {
	ctx := context.Background()
	retrieved := time.Date(2026, 11, 26, 5, 2, 0, 123e6, time.UTC)
	moutai := ashare.Security{Code: "SSE.600519", Exchange: "SSE", Board: "main", CompanyName: "Kweichow Moutai Co., Ltd.", ListingDate: "2001-08-27", Listed: true, RetrievedAt: retrieved}
	letv := ashare.Security{Code: "SZSE.300104", Exchange: "SZSE", Board: "chinext", CompanyName: "LeTV", ListingDate: "2010-08-12", DelistingDate: "2020-07-21", Listed: false, RetrievedAt: retrieved}
	t.Run("empty store", func(t *testing.T) {
		s := newStore(t)
		n, err := s.CountSecurities(ctx)
		must(t, "CountSecurities", err)
		if n != 0 {
			t.Fatalf("count = %d, want 0", n)
		}
		_, err = s.Security(ctx, "SSE.600519")
		wantErr(t, "Security", err, ports.ErrNotFound)
	})
	t.Run("upsert is idempotent and replaces by code", func(t *testing.T) {
		s := newStore(t)
		must(t, "Upsert", s.UpsertSecurities(ctx, []ashare.Security{moutai, letv}))
		must(t, "Upsert again", s.UpsertSecurities(ctx, []ashare.Security{moutai, letv}))
		n, err := s.CountSecurities(ctx)
		must(t, "CountSecurities", err)
		if n != 2 {
			t.Fatalf("count = %d, want 2", n)
		}
		got, err := s.Security(ctx, "SZSE.300104")
		must(t, "Security", err)
		if got != letv {
			t.Fatalf("Security = %+v, want %+v", got, letv)
		}
		renamed := moutai
		renamed.CompanyName = "Kweichow Moutai"
		must(t, "Upsert renamed", s.UpsertSecurities(ctx, []ashare.Security{renamed}))
		got, err = s.Security(ctx, "SSE.600519")
		must(t, "Security", err)
		if got != renamed {
			t.Fatalf("after replace = %+v", got)
		}
		_, err = s.Security(ctx, "SZSE.600519")
		wantErr(t, "Security other exchange", err, ports.ErrNotFound)
	})
	t.Run("by name", func(t *testing.T) {
		s := newStore(t)
		twin := letv
		twin.Code, twin.Exchange, twin.CompanyName = "SSE.600001", "SSE", moutai.CompanyName
		must(t, "Upsert", s.UpsertSecurities(ctx, []ashare.Security{moutai, letv, twin}))
		got, err := s.SecuritiesByName(ctx, moutai.CompanyName)
		must(t, "SecuritiesByName", err)
		if len(got) != 2 || got[0] != twin || got[1] != moutai {
			t.Fatalf("SecuritiesByName = %+v, want the two listings of that name by code", got)
		}
		got, err = s.SecuritiesByName(ctx, "Kweichow")
		must(t, "SecuritiesByName prefix", err)
		if len(got) != 0 {
			t.Fatalf("a prefix matched: %+v", got)
		}
	})
	t.Run("a listing keeps its retrieval time, replaced by a later retrieval", func(t *testing.T) {
		s := newStore(t)
		unstamped := letv
		unstamped.RetrievedAt = time.Time{}
		must(t, "Upsert", s.UpsertSecurities(ctx, []ashare.Security{moutai, unstamped}))
		page, _, err := s.SearchSecurities(ctx, ashare.Search{}, 0, 10)
		must(t, "SearchSecurities", err)
		if len(page) != 2 || !page[0].RetrievedAt.Equal(retrieved) || !page[1].RetrievedAt.IsZero() {
			t.Fatalf("SearchSecurities = %+v, want Moutai retrieved at %s and LeTV without a retrieval time", page, retrieved)
		}
		again := moutai
		again.RetrievedAt = retrieved.Add(24 * time.Hour)
		must(t, "Upsert retrieved again", s.UpsertSecurities(ctx, []ashare.Security{again}))
		byName, err := s.SecuritiesByName(ctx, moutai.CompanyName)
		must(t, "SecuritiesByName", err)
		if len(byName) != 1 || !byName[0].RetrievedAt.Equal(again.RetrievedAt) {
			t.Fatalf("SecuritiesByName = %+v, want the later retrieval %s", byName, again.RetrievedAt)
		}
	})
	t.Run("search", func(t *testing.T) { runSecuritySearch(t, newStore) })
}
