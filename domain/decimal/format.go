package decimal

import (
	"math"
	"strconv"
)

// fastLimit bounds the values Append writes from an integer: below it a
// float64's spacing is under 2^-16, finer than the 10^-4 grid, so a value
// that is the nearest float64 to a decimal of at most four places is that
// decimal's only representative on the grid, and that decimal (trailing
// zeros dropped) is its shortest round-trip form.
const fastLimit = 1e11

// Append appends f as strconv.AppendFloat(b, f, 'f', -1, 64) does, the
// shortest decimal that reads back as f, in a fraction of its time for the
// values prices and amounts hold: those with at most four decimal places
// are written from an integer count of ten-thousandths.
func Append(b []byte, f float64) []byte {
	if f == 0 || math.Abs(f) >= fastLimit {
		return strconv.AppendFloat(b, f, 'f', -1, 64)
	}
	scaled := math.Round(f * 1e4)
	if scaled/1e4 != f {
		return strconv.AppendFloat(b, f, 'f', -1, 64)
	}
	n := int64(scaled)
	if n < 0 {
		b = append(b, '-')
		n = -n
	}
	b = strconv.AppendInt(b, n/1e4, 10)
	frac := n % 1e4
	if frac == 0 {
		return b
	}
	digits := [5]byte{'.'}
	for i := 4; i >= 1; i-- {
		digits[i] = byte('0' + frac%10)
		frac /= 10
	}
	end := len(digits)
	for digits[end-1] == '0' {
		end--
	}
	return append(b, digits[:end]...)
}
