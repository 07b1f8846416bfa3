package chinasecurities_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/chinasecurities"
	"github.com/quarrydata/quarry/app/readcache/readcachetest"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/ports"
)

var moutai = ashare.Security{Code: "SSE.600519", Exchange: "SSE", Board: "main", CompanyName: "Kweichow Moutai", ListingDate: "2001-08-27", Listed: true}

func TestSecurityCacheServesUntilExpiry(t *testing.T) {
	ctx := context.Background()
	backing := memory.NewSecurities()
	clock := readcachetest.NewClock(time.Date(2026, 7, 20, 0, 0, 0, 0, time.UTC))
	cache := chinasecurities.NewCache(backing, readcachetest.New(t, 30*time.Second, clock.Now))
	if _, err := cache.Security(ctx, moutai.Code); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("miss = %v", err)
	}
	// A listing ingested by another process is visible at once: misses are not cached.
	if err := backing.UpsertSecurities(ctx, []ashare.Security{moutai}); err != nil {
		t.Fatal(err)
	}
	if got, err := cache.Security(ctx, moutai.Code); err != nil || got != moutai {
		t.Fatalf("after ingest = %+v, %v", got, err)
	}
	renamed := moutai
	renamed.CompanyName = "Moutai"
	if err := backing.UpsertSecurities(ctx, []ashare.Security{renamed}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(29 * time.Second)
	if got, _ := cache.Security(ctx, moutai.Code); got != moutai {
		t.Fatalf("within the TTL the cached listing is served, got %+v", got)
	}
	clock.Advance(2 * time.Second)
	if got, _ := cache.Security(ctx, moutai.Code); got != renamed {
		t.Fatalf("after the TTL the store is read again, got %+v", got)
	}
}

// countedSecurities counts reads, and can hold the next read or write
// after it has touched the store, until released.
type countedSecurities struct {
	*memory.Securities
	reads atomic.Int64
	// holdRead, when set, makes the next read return what it read only
	// once released, after telling read that it has read.
	holdRead atomic.Pointer[gate]
	// holdWrite, when set, makes the next write wait for release before
	// it writes, after telling writing that it has started.
	holdWrite atomic.Pointer[gate]
}

type gate struct {
	reached, release chan struct{}
}

func newGate() *gate { return &gate{reached: make(chan struct{}), release: make(chan struct{})} }

func (s *countedSecurities) Security(ctx context.Context, code string) (ashare.Security, error) {
	s.reads.Add(1)
	got, err := s.Securities.Security(ctx, code)
	if g := s.holdRead.Swap(nil); g != nil {
		close(g.reached)
		<-g.release
	}
	return got, err
}

func (s *countedSecurities) UpsertSecurities(ctx context.Context, secs []ashare.Security) error {
	if g := s.holdWrite.Swap(nil); g != nil {
		close(g.reached)
		<-g.release
	}
	return s.Securities.UpsertSecurities(ctx, secs)
}

func TestSecurityCacheLoadsOnceForConcurrentMisses(t *testing.T) {
	ctx := context.Background()
	backing := &countedSecurities{Securities: memory.NewSecurities()}
	if err := backing.UpsertSecurities(ctx, []ashare.Security{moutai}); err != nil {
		t.Fatal(err)
	}
	cache := chinasecurities.NewCache(backing, readcachetest.New(t, time.Minute, usecase.SystemClock))
	// The first load is held until every reader has asked.
	g := newGate()
	backing.holdRead.Store(g)
	const readers = 32
	var started, done sync.WaitGroup
	var wrong atomic.Int64
	for range readers {
		started.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			started.Done()
			if got, err := cache.Security(ctx, moutai.Code); err != nil || got != moutai {
				wrong.Add(1)
			}
		}()
	}
	started.Wait()
	<-g.reached
	time.Sleep(20 * time.Millisecond) // let the readers reach the cache
	close(g.release)
	done.Wait()
	if n := backing.reads.Load(); n != 1 || wrong.Load() != 0 {
		t.Fatalf("%d readers made %d reads of the store (want 1), %d got a wrong answer", readers, n, wrong.Load())
	}
}

func TestSecurityCacheDoesNotCacheAReadOverlappingAWrite(t *testing.T) {
	ctx := context.Background()
	renamed := moutai
	renamed.CompanyName = "Moutai"
	cases := map[string]func(t *testing.T, backing *countedSecurities, cache *chinasecurities.Cache){
		// A reader's load reads the old listing, the write completes and
		// returns, then the load completes: it must not be cached.
		"a load started before the write ends after it": func(t *testing.T, backing *countedSecurities, cache *chinasecurities.Cache) {
			g := newGate()
			backing.holdRead.Store(g)
			read := make(chan ashare.Security)
			go func() {
				got, _ := cache.Security(ctx, moutai.Code)
				read <- got
			}()
			<-g.reached
			if err := cache.UpsertSecurities(ctx, []ashare.Security{renamed}); err != nil {
				t.Error(err)
			}
			close(g.release)
			if got := <-read; got != moutai && got != renamed {
				t.Errorf("the overlapping reader got %+v", got)
			}
		},
		// A reader reads while the write is under way: had the entry been
		// dropped before the write, this read would cache the old listing.
		"a read while the store is being written": func(t *testing.T, backing *countedSecurities, cache *chinasecurities.Cache) {
			if got, _ := cache.Security(ctx, moutai.Code); got != moutai {
				t.Fatalf("before the write: %+v", got)
			}
			g := newGate()
			backing.holdWrite.Store(g)
			wrote := make(chan error)
			go func() { wrote <- cache.UpsertSecurities(ctx, []ashare.Security{renamed}) }()
			<-g.reached
			if got, _ := cache.Security(ctx, moutai.Code); got != moutai {
				t.Errorf("while the write is under way: %+v", got)
			}
			close(g.release)
			if err := <-wrote; err != nil {
				t.Error(err)
			}
		},
	}
	for name, race := range cases {
		t.Run(name, func(t *testing.T) {
			backing := &countedSecurities{Securities: memory.NewSecurities()}
			if err := backing.UpsertSecurities(ctx, []ashare.Security{moutai}); err != nil {
				t.Fatal(err)
			}
			cache := chinasecurities.NewCache(backing, readcachetest.New(t, time.Hour, usecase.SystemClock))
			race(t, backing, cache)
			// The write has returned: every read from now on sees it.
			for range 3 {
				if got, err := cache.Security(ctx, moutai.Code); err != nil || got != renamed {
					t.Fatalf("after the write returned: %+v, %v", got, err)
				}
			}
		})
	}
}

// searchCounted counts the store's searches.
type searchCounted struct {
	*memory.Securities
	searches atomic.Int64
}

func (s *searchCounted) SearchSecurities(ctx context.Context, q ashare.Search, offset, limit int) ([]ashare.Security, bool, error) {
	s.searches.Add(1)
	return s.Securities.SearchSecurities(ctx, q, offset, limit)
}

// Searches read every listing from the store once per TTL and are
// answered from it; a write through the cache is searched at once, one
// by another process after the TTL.
func TestSecurityCacheSearchesEveryListingOncePerTTL(t *testing.T) {
	ctx := context.Background()
	backing := &searchCounted{Securities: memory.NewSecurities()}
	clock := readcachetest.NewClock(time.Date(2026, 7, 20, 0, 0, 0, 0, time.UTC))
	cache := chinasecurities.NewCache(backing, readcachetest.New(t, 30*time.Second, clock.Now))
	vanke := ashare.Security{Code: "SZSE.000002", Exchange: "SZSE", Board: "main", CompanyName: "万科Ａ", ListingDate: "1991-01-29", Listed: true}
	if err := cache.UpsertSecurities(ctx, []ashare.Security{moutai, vanke}); err != nil {
		t.Fatal(err)
	}
	search := func(q ashare.Search, offset, limit int) []string {
		t.Helper()
		got, _, err := cache.SearchSecurities(ctx, q, offset, limit)
		if err != nil {
			t.Fatal(err)
		}
		var codes []string
		for _, s := range got {
			codes = append(codes, s.Code)
		}
		return codes
	}
	if got := search(ashare.Search{Name: ashare.NameKey("万科A")}, 0, 10); len(got) != 1 || got[0] != vanke.Code {
		t.Fatalf("by name: %v", got)
	}
	if got := search(ashare.Search{}, 1, 1); len(got) != 1 || got[0] != vanke.Code {
		t.Fatalf("second page: %v", got)
	}
	if n := backing.searches.Load(); n != 1 {
		t.Fatalf("two searches made %d searches of the store, want 1", n)
	}
	pingAn := ashare.Security{Code: "SZSE.000001", Exchange: "SZSE", Board: "main", CompanyName: "平安银行", ListingDate: "1991-04-03", Listed: true}
	if err := cache.UpsertSecurities(ctx, []ashare.Security{pingAn}); err != nil {
		t.Fatal(err)
	}
	if got := search(ashare.Search{Exchange: ashare.SZSE}, 0, 10); len(got) != 2 || got[0] != pingAn.Code {
		t.Fatalf("after a write through the cache: %v", got)
	}
	other := ashare.Security{Code: "SZSE.000004", Exchange: "SZSE", Board: "main", CompanyName: "国华网安", ListingDate: "1990-12-01", Listed: true}
	if err := backing.UpsertSecurities(ctx, []ashare.Security{other}); err != nil {
		t.Fatal(err)
	}
	if got := search(ashare.Search{Exchange: ashare.SZSE}, 0, 10); len(got) != 2 {
		t.Fatalf("another process's write within the TTL: %v", got)
	}
	clock.Advance(31 * time.Second)
	if got := search(ashare.Search{Exchange: ashare.SZSE}, 0, 10); len(got) != 3 {
		t.Fatalf("another process's write after the TTL: %v", got)
	}
}
