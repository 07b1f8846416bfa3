package http

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"sync"

	"github.com/quarrydata/quarry/domain/decimal"
)

// Pages of a thousand price rows are most of what the price routes spend
// their CPU on when encoding/json writes them by reflection (half of a China
// page's time, a quarter of it formatting floats). rowsJSON writes such a
// page's rows by hand instead, byte for byte what encoding/json writes for
// the same values (jsonrows_test.go holds every row type to that).

// rowAppender appends the JSON object of row i of a page.
type rowAppender func(b []byte, i int) ([]byte, error)

// pageBuffers recycles the buffers pages are built in.
var pageBuffers = sync.Pool{New: func() any { return new([]byte) }}

// rowsJSON answers {"<field>":[rows],"meta":meta}: n rows, each appended by
// row. The page is built whole before its first byte is written, so a row
// that cannot be written fails the request before it is answered.
func rowsJSON(field string, n int, row rowAppender, meta Meta) Response {
	return Response{MediaType: "application/json", Body: func(_ context.Context, w io.Writer) error {
		buf := pageBuffers.Get().(*[]byte)
		defer pageBuffers.Put(buf)
		b, err := appendPage((*buf)[:0], field, n, row, meta)
		*buf = b
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}}
}

func appendPage(b []byte, field string, n int, row rowAppender, meta Meta) ([]byte, error) {
	b = append(append(append(b, `{"`...), field...), `":[`...)
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = row(b, i); err != nil {
			return b, err
		}
	}
	var m bytes.Buffer
	if err := encodeJSON(&m, meta); err != nil {
		return b, err
	}
	b = append(append(b, `],"meta":`...), bytes.TrimSuffix(m.Bytes(), []byte("\n"))...)
	return append(b, "}\n"...), nil
}

// appendKey appends a member's name and colon, a comma first unless it is
// the object's first: `{"name":` or `,"name":`.
func appendKey(b []byte, name string, first bool) []byte {
	if first {
		b = append(b, '{')
	} else {
		b = append(b, ',')
	}
	return append(append(append(b, '"'), name...), `":`...)
}

// appendJSONString appends s as a JSON string, as encodeJSON writes it.
// Plain printable ASCII, which codes, symbols, ISINs and dates are, is
// copied as it is; anything else goes through encoding/json.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			var m bytes.Buffer
			_ = encodeJSON(&m, s) // a string always encodes
			return append(b, bytes.TrimSuffix(m.Bytes(), []byte("\n"))...)
		}
	}
	return append(append(append(b, '"'), s...), '"')
}

// appendJSONFloat appends f as encoding/json writes a float64: the shortest
// decimal, with an exponent only below 1e-6 and from 1e21. NaN and the
// infinities have no JSON form, an error as they are for encoding/json.
func appendJSONFloat(b []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, fmt.Errorf("json: unsupported value: %s", strconv.FormatFloat(f, 'g', -1, 64))
	}
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		var m bytes.Buffer
		_ = encodeJSON(&m, f) // finite: always encodes
		return append(b, bytes.TrimSuffix(m.Bytes(), []byte("\n"))...), nil
	}
	return decimal.Append(b, f), nil
}

// appendFloats appends each named float member in order.
func appendFloats(b []byte, members []floatMember) ([]byte, error) {
	var err error
	for _, m := range members {
		b = appendKey(b, m.name, false)
		if b, err = appendJSONFloat(b, m.value); err != nil {
			return b, err
		}
	}
	return b, nil
}

// floatMember is one float member of a row: its name and value.
type floatMember struct {
	name  string
	value float64
}
