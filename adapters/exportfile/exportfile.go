// Package exportfile writes typed tables (domain/table) as files: CSV
// (RFC 4180), XLSX (excelize's stream writer) and Parquet (parquet-go), each
// streamed in bounded memory however many rows there are.
package exportfile

import (
	"context"
	"fmt"

	"github.com/quarrydata/quarry/domain/table"
	"github.com/quarrydata/quarry/ports"
)

// Encoders returns an encoder of every format, in the order the interface
// names them.
func Encoders() []ports.TableEncoder {
	return []ports.TableEncoder{CSV{}, NewXLSX(), NewParquet()}
}

// checkEvery is how many rows an encoder writes between looks at its
// context, so that a client hanging up stops a long export soon.
const checkEvery = 4096

// columns returns the source's columns once checked.
func columns(src ports.TableSource) ([]table.Column, error) {
	cols := src.Columns()
	if err := table.Check(cols); err != nil {
		return nil, fmt.Errorf("exportfile: %w", err)
	}
	return cols, nil
}

// each runs fn on every row of src, checking the row's width and nulls
// and, every checkEvery rows, the context.
func each(ctx context.Context, src ports.TableSource, cols []table.Column, fn func(table.Row) error) error {
	n := 0
	for row, err := range src.Rows(ctx) {
		if err != nil {
			return err
		}
		if err := checkRow(row, cols, n+1); err != nil {
			return err
		}
		if n++; n%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if err := fn(row); err != nil {
			return err
		}
	}
	return nil
}

// checkRow refuses a row of the wrong width or with a null where its column
// allows none: a file must never say less than its schema promises.
func checkRow(row table.Row, cols []table.Column, n int) error {
	if len(row) != len(cols) {
		return fmt.Errorf("exportfile: row %d has %d values for %d columns", n, len(row), len(cols))
	}
	for i, v := range row {
		if v.Null && !cols[i].Nullable {
			return fmt.Errorf("exportfile: row %d: null in column %q, which is not nullable", n, cols[i].Name)
		}
	}
	return nil
}
