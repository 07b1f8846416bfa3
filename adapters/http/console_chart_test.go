package http

import (
	"math"
	"testing"
	"time"

	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/domain/ledger"
)

func TestUsageChartStacksRoutesPerDay(t *testing.T) {
	from := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	day := func(n int) time.Time { return from.AddDate(0, 0, n) }
	c := newUsageChart(platform.Usage{From: from, Rows: []ledger.Usage{
		{Day: day(0), Route: "GET /b", Credits: 1},
		{Day: day(0), Route: "POST /a", Credits: 10},
		{Day: day(29), Route: "GET /b", Credits: 5},
		{Day: day(30), Route: "GET /b", Credits: 1000}, // after the period: not drawn
		{Day: day(3), Route: "POST /a", Credits: -10},  // refunds outweighed debits
	}}, wideChart)
	if c.Total != 6 || len(c.Bars) != 3 {
		t.Fatalf("total %d, %d bars; want 6 and 3", c.Total, len(c.Bars))
	}
	// The tallest day (11) fits under a ceiling of 20: four ticks of 5.
	if last := c.YTicks[len(c.YTicks)-1]; last.Label != "20" || last.Pos != c.Top {
		t.Fatalf("top tick %+v", last)
	}
	unit := (c.Bottom - c.Top) / 20
	b, a, late := c.Bars[0], c.Bars[1], c.Bars[2]
	if math.Abs(b.H-unit) > 1e-9 || math.Abs(a.H-10*unit) > 1e-9 || math.Abs(late.H-5*unit) > 1e-9 {
		t.Fatalf("heights %v %v %v, want 1, 10 and 5 units of %v", b.H, a.H, late.H, unit)
	}
	if b.Y+b.H != c.Bottom || math.Abs(a.Y+a.H-b.Y) > 1e-9 || b.X != a.X {
		t.Fatalf("day 0 is not one stack from the axis: %+v %+v", b, a)
	}
	if late.X <= b.X || late.X+late.W > c.Right {
		t.Fatalf("the last day is drawn at %v, outside (%v, %v]", late.X, b.X, c.Right)
	}
	if len(c.Legend) != 2 || c.Legend[0].Route != "GET /b" || c.Legend[0].Credits != 6 || c.Legend[1].Credits != 0 {
		t.Fatalf("legend %+v", c.Legend)
	}
	if c.From != "2026-07-01" || c.To != "2026-07-30" {
		t.Fatalf("period %s to %s", c.From, c.To)
	}
}

func TestNiceCeiling(t *testing.T) {
	for n, want := range map[int64]int64{0: 4, 4: 4, 5: 8, 8: 8, 9: 20, 21: 40, 100: 200, 100000: 200000} {
		if got := niceCeiling(n); got != want {
			t.Errorf("niceCeiling(%d) = %d, want %d", n, got, want)
		}
	}
}

// TestUsageChartLabelsFit draws a large spend in both layouts: the value
// labels end inside the drawing and the day labels do not touch.
func TestUsageChartLabelsFit(t *testing.T) {
	from := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	width := func(label string, font int) float64 { return float64(len(label)*font) * 0.6 }
	for _, l := range []chartLayout{wideChart, narrowChart} {
		c := newUsageChart(platform.Usage{From: from, Rows: []ledger.Usage{{Day: from, Route: "POST /ask", Credits: 1_500_000}}}, l)
		top := c.YTicks[len(c.YTicks)-1].Label
		if top != "2,000,000" || c.TickX-width(top, l.Font) < 0 || c.TickX >= c.Left {
			t.Errorf("%s: the label %q ends at %v, left of the drawing, or past the plot at %v", l.ID, top, c.TickX, c.Left)
		}
		gap := c.XTicks[1].Pos - c.XTicks[0].Pos
		if gap < width("Jul 29", l.Font)+float64(l.Font) {
			t.Errorf("%s: day labels %v apart at a %d font", l.ID, gap, l.Font)
		}
	}
}
