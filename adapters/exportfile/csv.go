package exportfile

import (
	"bufio"
	"context"
	"io"

	"github.com/quarrydata/quarry/domain/table"
	"github.com/quarrydata/quarry/ports"
)

// CSV writes RFC 4180 CSV: a header line of the column names, then one line
// per row, lines ended by CRLF, a field quoted when it holds a comma, a
// double quote, CR or LF (or starts with a space), its quotes doubled. Dates
// are YYYY-MM-DD, decimals the shortest text that reads back as the same
// float64, and a null is an empty field.
type CSV struct{}

// Format is "csv".
func (CSV) Format() string { return "csv" }

// MediaType is text/csv with its charset and RFC 4180's header parameter.
func (CSV) MediaType() string { return "text/csv; charset=utf-8; header=present" }

// Extension is "csv".
func (CSV) Extension() string { return "csv" }

// Encode writes the table through one buffer, allocating nothing per row.
func (CSV) Encode(ctx context.Context, w io.Writer, src ports.TableSource) error {
	cols, err := columns(src)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	line := make([]byte, 0, 512)
	for i, c := range cols {
		line = appendField(line, i, c.Name)
	}
	if _, err := bw.Write(append(line, '\r', '\n')); err != nil {
		return err
	}
	var cell []byte
	err = each(ctx, src, cols, func(row table.Row) error {
		line = line[:0]
		for i, c := range cols {
			cell = row[i].AppendText(cell[:0], c.Kind)
			line = appendField(line, i, cell)
		}
		_, err := bw.Write(append(line, '\r', '\n'))
		return err
	})
	if err != nil {
		return err
	}
	return bw.Flush()
}

// appendField appends the i-th field of a line, quoted when it must be.
func appendField[T string | []byte](b []byte, i int, f T) []byte {
	if i > 0 {
		b = append(b, ',')
	}
	if !needsQuotes(f) {
		return append(b, f...)
	}
	b = append(b, '"')
	for j := 0; j < len(f); j++ {
		if f[j] == '"' {
			b = append(b, '"')
		}
		b = append(b, f[j])
	}
	return append(b, '"')
}

// needsQuotes reports whether RFC 4180 needs f quoted; a leading space is
// quoted too, so that no reader trims it.
func needsQuotes[T string | []byte](f T) bool {
	for j := 0; j < len(f); j++ {
		switch f[j] {
		case ',', '"', '\r', '\n':
			return true
		}
	}
	return len(f) > 0 && f[0] == ' '
}
