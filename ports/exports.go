package ports

import (
	"context"
	"io"
	"iter"

	"github.com/quarrydata/quarry/domain/table"
)

// TableSource is what an export reads: a dataset's rows for one request's
// filters, as a typed table. Datasets implement it over their stores.
type TableSource interface {
	// Columns describes the table, in the order files write it.
	Columns() []table.Column
	// Rows yields the rows in the dataset's order, one value per column.
	// It streams: however many rows there are, it holds a bounded number
	// in memory, and it may hand the same Row to every iteration, so the
	// caller must not keep a Row past the next one. An error ends the
	// sequence. Stopping early releases what it holds.
	Rows(ctx context.Context) iter.Seq2[table.Row, error]
}

// TableEncoder writes a table as a file of one format.
type TableEncoder interface {
	// Format is the format's name in a request ("csv", "xlsx", "parquet").
	Format() string
	// MediaType is the file's Content-Type.
	MediaType() string
	// Extension is the file name's extension, without the dot.
	Extension() string
	// Encode writes the whole file to w in bounded memory, whatever the
	// number of rows: a table without rows is a file with the header (or
	// schema) only.
	Encode(ctx context.Context, w io.Writer, src TableSource) error
}
