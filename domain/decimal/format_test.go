package decimal

import (
	"math"
	"strconv"
	"testing"
)

// formatCases hold the values prices and amounts take (two and four
// decimal places, large turnovers, negatives) and the ones Append leaves to
// strconv (more places, huge, tiny, zero of either sign).
var formatCases = []float64{
	1, 10.5, 2030, 2008.33, -0.67, 0.0001, -0.0001, 9.9999, 1234.5678, 3898243,
	1.23456789e10, 99999999999.9999, 1e11, 1e11 + 0.5, 0.1 + 0.2, 1.0 / 3, 1e-7, 1e21, 1e300,
	0, math.Copysign(0, -1), 0.3992, -13.2875, 5e-324, math.MaxFloat64, -math.MaxFloat64,
}

func TestAppendMatchesStrconv(t *testing.T) {
	for _, f := range formatCases {
		if got, want := string(Append(nil, f)), strconv.FormatFloat(f, 'f', -1, 64); got != want {
			t.Errorf("Append(%v) = %s, want %s", f, got, want)
		}
	}
}

// FuzzAppend holds Append to strconv's shortest form for any float64 bits
// and for values on the ten-thousandths grid.
func FuzzAppend(f *testing.F) {
	for _, v := range formatCases {
		f.Add(math.Float64bits(v), int64(v*1e4))
	}
	f.Fuzz(func(t *testing.T, bits uint64, tenThousandths int64) {
		for _, v := range []float64{math.Float64frombits(bits), float64(tenThousandths) / 1e4} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				continue
			}
			if got, want := string(Append(nil, v)), strconv.FormatFloat(v, 'f', -1, 64); got != want {
				t.Fatalf("Append(%v) = %s, want %s", v, got, want)
			}
		}
	})
}

// BenchmarkAppend compares Append with strconv on a page of prices.
func BenchmarkAppend(b *testing.B) {
	prices := make([]float64, 3000)
	for i := range prices {
		prices[i] = 10 + float64(i%997)/100
	}
	buf := make([]byte, 0, 64<<10)
	b.Run("decimal", func(b *testing.B) {
		for b.Loop() {
			buf = buf[:0]
			for _, p := range prices {
				buf = Append(buf, p)
			}
		}
	})
	b.Run("strconv", func(b *testing.B) {
		for b.Loop() {
			buf = buf[:0]
			for _, p := range prices {
				buf = strconv.AppendFloat(buf, p, 'f', -1, 64)
			}
		}
	})
}
