package http

import (
	"fmt"
	"math"
	"slices"

	"github.com/quarrydata/quarry/app/platform"
)

// chartLayout is the geometry of one drawing of the usage chart, in SVG
// user units. The SVG scales to its box, and its text with it, so a phone
// gets a drawing of its own about as wide as its screen: the wide one's
// labels would shrink to under 5 px there.
type chartLayout struct {
	// ID names the SVG element; Class is wide or narrow (the stylesheet
	// shows one of them by the window's width).
	ID, Class     string
	Width, Height int
	// Font is the labels' size; Every is the days between two day labels.
	Font, Every int
}

var (
	wideChart   = chartLayout{ID: "usage-chart", Class: "wide", Width: 760, Height: 260, Font: 11, Every: 7}
	narrowChart = chartLayout{ID: "usage-chart-narrow", Class: "narrow", Width: 360, Height: 240, Font: 12, Every: 7}
)

// Margins of the plot, in SVG user units; the left one grows with the
// longest value label.
const (
	chartRight   = 12
	chartTop     = 12
	chartBottom  = 36
	chartMinLeft = 36
	chartColours = 8 // classes s0 to s7 in console.css
)

// usageChart is the stacked bar chart of credits spent per day by route,
// laid out here and drawn by the credits template as inline SVG: no script
// draws it.
type usageChart struct {
	chartLayout
	Left, Right float64
	Top, Bottom float64
	// TickX is where the value labels end; LabelY where day labels sit.
	TickX, LabelY float64
	From, To      string
	Total         int64
	Bars          []chartBar
	YTicks        []chartTick
	XTicks        []chartTick
	Legend        []chartLegend
}

// chartBar is one route's part of one day's bar.
type chartBar struct {
	X, Y, W, H float64
	Class      string
	Title      string
}

// chartTick is a labelled position on an axis.
type chartTick struct {
	Pos   float64
	Label string
}

// chartLegend names a route's colour and what it cost over the period.
type chartLegend struct {
	Class   string
	Route   string
	Credits int64
}

// newUsageChart lays out the usage of platform.UsageDays days starting at From.
func newUsageChart(u platform.Usage, l chartLayout) usageChart {
	c := usageChart{
		chartLayout: l,
		Right:       float64(l.Width - chartRight), Top: chartTop, Bottom: float64(l.Height - chartBottom),
		LabelY: float64(l.Height-chartBottom) + float64(l.Font)*1.6,
		From:   u.From.Format("2006-01-02"), To: u.From.AddDate(0, 0, platform.UsageDays-1).Format("2006-01-02"),
	}
	routes, perRoute := []string{}, map[string]int64{}
	daily := make([]int64, platform.UsageDays)
	for _, row := range u.Rows {
		day := int(row.Day.Sub(u.From).Hours() / 24)
		if day < 0 || day >= platform.UsageDays {
			continue
		}
		if _, seen := perRoute[row.Route]; !seen {
			routes = append(routes, row.Route)
		}
		perRoute[row.Route] += row.Credits
		daily[day] += row.Credits
		c.Total += row.Credits
	}
	slices.Sort(routes)
	class := map[string]string{}
	for i, rt := range routes {
		class[rt] = fmt.Sprintf("s%d", i%chartColours)
		c.Legend = append(c.Legend, chartLegend{Class: class[rt], Route: rt, Credits: perRoute[rt]})
	}
	top := niceCeiling(slices.Max(daily))
	// Digits and commas are about 0.6 em wide in the sans-serif fonts.
	c.Left = max(chartMinLeft, float64(len(formatCredits(top))*l.Font)*0.6+12)
	c.TickX = c.Left - 6
	scale := (c.Bottom - c.Top) / float64(top)
	slot := (c.Right - c.Left) / platform.UsageDays
	stacked := make([]float64, platform.UsageDays)
	for _, row := range u.Rows {
		day := int(row.Day.Sub(u.From).Hours() / 24)
		if day < 0 || day >= platform.UsageDays || row.Credits <= 0 {
			continue // a day whose refunds outweigh its debits draws nothing
		}
		h := float64(row.Credits) * scale
		stacked[day] += h
		c.Bars = append(c.Bars, chartBar{
			X: c.Left + float64(day)*slot + slot*0.1, Y: c.Bottom - stacked[day], W: slot * 0.8, H: h,
			Class: class[row.Route], Title: fmt.Sprintf("%s: %s, %s credits", row.Day.Format("2006-01-02"), row.Route, formatCredits(row.Credits)),
		})
	}
	for i := range 5 {
		v := top * int64(i) / 4
		c.YTicks = append(c.YTicks, chartTick{Pos: c.Bottom - float64(v)*scale, Label: formatCredits(v)})
	}
	for day := 0; day < platform.UsageDays; day += l.Every {
		c.XTicks = append(c.XTicks, chartTick{Pos: c.Left + (float64(day)+0.5)*slot, Label: u.From.AddDate(0, 0, day).Format("Jan 2")})
	}
	return c
}

// niceCeiling is the smallest of 4, 8, 20, 40, 80, 200... (four ticks of 1,
// 2 or 5 times a power of ten) at or above n.
func niceCeiling(n int64) int64 {
	if n <= 4 {
		return 4
	}
	for p := int64(1); p <= math.MaxInt64/50; p *= 10 {
		for _, m := range []int64{4, 8, 20} {
			if m*p >= n {
				return m * p
			}
		}
	}
	return n
}
