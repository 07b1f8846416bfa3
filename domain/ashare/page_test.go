package ashare_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/quarrydata/quarry/domain/ashare"
)

// days returns n bars on consecutive trade dates of June 2024, and a
// count of how many of them the sequence handed out.
func days(n int) (func(yield func(ashare.Bar) bool), *int) {
	pulled := new(int)
	return func(yield func(ashare.Bar) bool) {
		for i := range n {
			*pulled++
			if !yield(ashare.Bar{Code: "SSE.600519", TradeDate: fmt.Sprintf("2024-06-%02d", i+1)}) {
				return
			}
		}
	}, pulled
}

func TestPage(t *testing.T) {
	for _, c := range []struct {
		name                 string
		held, offset, limit  int
		first, count, pulled int
		more                 bool
	}{
		{name: "first page", held: 5, limit: 2, first: 1, count: 2, pulled: 3, more: true},
		{name: "middle page", held: 5, offset: 2, limit: 2, first: 3, count: 2, pulled: 5, more: true},
		{name: "last page exactly", held: 5, offset: 3, limit: 2, first: 4, count: 2, pulled: 5},
		{name: "short last page", held: 5, offset: 4, limit: 2, first: 5, count: 1, pulled: 5},
		{name: "offset past the end", held: 5, offset: 9, limit: 2, pulled: 5},
		{name: "nothing held", limit: 2},
		{name: "limit zero", held: 5, offset: 1, pulled: 2, more: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			bars, pulled := days(c.held)
			page, more := ashare.Page(bars, c.offset, c.limit)
			var want []string
			for i := range c.count {
				want = append(want, fmt.Sprintf("2024-06-%02d", c.first+i))
			}
			var got []string
			for _, b := range page {
				got = append(got, b.TradeDate)
			}
			if !slices.Equal(got, want) || more != c.more {
				t.Fatalf("Page = %v, more %v; want %v, more %v", got, more, want, c.more)
			}
			if *pulled != c.pulled {
				t.Fatalf("Page pulled %d bars, want %d: no more than one past the page", *pulled, c.pulled)
			}
		})
	}
}
