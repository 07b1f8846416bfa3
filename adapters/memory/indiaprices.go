package memory

import (
	"cmp"
	"context"
	"iter"
	"slices"
	"sync"
	"time"

	"github.com/quarrydata/quarry/domain/nse"
	"github.com/quarrydata/quarry/ports"
)

// IndiaPrices holds NSE row versions by ISIN and series. Each series'
// versions live in a slice that is replaced, never changed, on Add, so a
// reader streams a snapshot without holding the lock.
type IndiaPrices struct {
	mu     sync.RWMutex
	series map[indiaKey][]nse.Row
	// carriers holds, by symbol, the series any version of which carries
	// it, so ISINOf searches those alone.
	carriers map[string][]indiaKey
	count    int64
}

type indiaKey struct{ isin, series string }

var _ ports.IndiaPriceStore = (*IndiaPrices)(nil)

// NewIndiaPrices returns an empty store.
func NewIndiaPrices() *IndiaPrices {
	return &IndiaPrices{series: map[indiaKey][]nse.Row{}, carriers: map[string][]indiaKey{}}
}

func compareIndiaVersion(a, b nse.Row) int {
	return cmp.Or(cmp.Compare(a.Date, b.Date), a.KnownAt.Compare(b.KnownAt))
}

// Add merges the versions into each series' slice: a copy sorted by date
// and KnownAt, where a version added again replaces the one held.
func (s *IndiaPrices) Add(_ context.Context, rows []nse.Row) error {
	byKey := map[indiaKey][]nse.Row{}
	for _, r := range rows {
		r.KnownAt = r.KnownAt.Truncate(time.Millisecond).UTC()
		r.TurnoverInLakhs = false // not stored, as on MongoDB
		k := indiaKey{r.ISIN, r.Series}
		byKey[k] = append(byKey[k], r)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range rows {
		if k := (indiaKey{r.ISIN, r.Series}); !slices.Contains(s.carriers[r.Symbol], k) {
			s.carriers[r.Symbol] = append(s.carriers[r.Symbol], k)
		}
	}
	for k, add := range byKey {
		held := s.series[k]
		slices.SortStableFunc(add, compareIndiaVersion)
		add = compactKeepLast(add)
		if len(held) == 0 || compareIndiaVersion(held[len(held)-1], add[0]) < 0 {
			// Appending: readers hold slices of the held length and never
			// see what is written past it, so spare capacity may be used.
			s.series[k] = append(held, add...)
			s.count += int64(len(add))
			continue
		}
		// Held versions first, so a stable sort puts an added version
		// after the one it replaces and Compact keeps the last of equals.
		merged := append(slices.Clip(slices.Clone(held)), add...)
		slices.SortStableFunc(merged, compareIndiaVersion)
		merged = compactKeepLast(merged)
		s.count += int64(len(merged) - len(held))
		s.series[k] = merged
	}
	return nil
}

// compactKeepLast drops, of each run of versions with the same date and
// KnownAt, all but the last.
func compactKeepLast(rows []nse.Row) []nse.Row {
	out := rows[:0]
	for i, r := range rows {
		if i+1 < len(rows) && compareIndiaVersion(r, rows[i+1]) == 0 {
			continue
		}
		out = append(out, r)
	}
	return out
}

// OnDate finds the date in every series by binary search.
func (s *IndiaPrices) OnDate(_ context.Context, date string) ([]nse.Row, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []nse.Row
	for _, versions := range s.series {
		i, _ := slices.BinarySearchFunc(versions, date, func(r nse.Row, d string) int { return cmp.Compare(r.Date, d) })
		for ; i < len(versions) && versions[i].Date == date; i++ {
			out = append(out, versions[i])
		}
	}
	return out, nil
}

// Rows streams the snapshot of the series taken when iteration starts.
func (s *IndiaPrices) Rows(_ context.Context, q ports.IndiaRowQuery) iter.Seq2[nse.Row, error] {
	return func(yield func(nse.Row, error) bool) {
		s.mu.RLock()
		versions := s.series[indiaKey{q.ISIN, q.Series}]
		s.mu.RUnlock()
		start := 0
		if q.From != "" {
			start, _ = slices.BinarySearchFunc(versions, q.From, func(r nse.Row, d string) int { return cmp.Compare(r.Date, d) })
		}
		inRange := func(yield func(nse.Row, error) bool) {
			for _, v := range versions[start:] {
				if q.To != "" && v.Date > q.To {
					return
				}
				if !yield(v, nil) {
					return
				}
			}
		}
		for r, err := range nse.Visible(inRange, q.AsOf) {
			if !yield(r, err) {
				return
			}
		}
	}
}

// ISINOf searches the series for the latest version carrying symbol.
func (s *IndiaPrices) ISINOf(_ context.Context, symbol, series, onOrBefore string, asOf time.Time) (string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	best, isin := "", ""
	for _, k := range s.carriers[symbol] {
		if series != "" && k.series != series {
			continue
		}
		versions := s.series[k]
		for i := len(versions) - 1; i >= 0; i-- {
			v := versions[i]
			if v.Date < best {
				break
			}
			if v.Date <= onOrBefore && v.Symbol == symbol && !v.KnownAt.After(asOf) {
				// Ties go to the smaller ISIN, as on MongoDB.
				if v.Date > best || k.isin < isin {
					best, isin = v.Date, k.isin
				}
				break
			}
		}
	}
	if isin == "" {
		return "", ports.ErrNotFound
	}
	return isin, nil
}

// Holds reports whether the series has versions.
func (s *IndiaPrices) Holds(_ context.Context, isin, series string) (bool, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.series[indiaKey{isin, series}]) > 0, nil
}

// Count returns how many versions are held.
func (s *IndiaPrices) Count(context.Context) (int64, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.count, nil
}
