package exportfile

import (
	"context"
	"fmt"
	"io"
	"reflect"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/snappy"

	"github.com/quarrydata/quarry/domain/table"
	"github.com/quarrydata/quarry/ports"
)

// RowGroupRows bounds a Parquet row group: the writer holds one row group's
// columns in memory before writing it, so this bounds its memory (about
// 10 MiB for a dozen columns) while keeping groups large enough to read
// fast.
const RowGroupRows = 128 << 10

// writeBatch is how many rows are handed to the Parquet writer at once.
const writeBatch = 1024

// Parquet writes Apache Parquet with parquet-go, snappy-compressed, in row
// groups of at most RowGroupRows rows. Column types: a string is BYTE_ARRAY
// annotated STRING, a date INT32 annotated DATE (days since 1970-01-01), a
// decimal DOUBLE (the float64 the JSON routes answer, not a DECIMAL of a
// fixed scale, which pandas would read as Python objects), and an integer
// INT64. A nullable column is OPTIONAL, the others REQUIRED.
type Parquet struct {
	rowGroupRows int64
}

// NewParquet returns the Parquet encoder.
func NewParquet() Parquet { return Parquet{rowGroupRows: RowGroupRows} }

// Format is "parquet".
func (Parquet) Format() string { return "parquet" }

// MediaType is the media type the Parquet project registered.
func (Parquet) MediaType() string { return "application/vnd.apache.parquet" }

// Extension is "parquet".
func (Parquet) Extension() string { return "parquet" }

// Encode writes the file; row groups reach w as they fill.
func (p Parquet) Encode(ctx context.Context, w io.Writer, src ports.TableSource) error {
	cols, err := columns(src)
	if err != nil {
		return err
	}
	schema, err := parquetSchema(cols)
	if err != nil {
		return err
	}
	pw := parquet.NewWriter(w, schema, parquet.MaxRowsPerRowGroup(p.rowGroupRows),
		parquet.Compression(&snappy.Codec{}), parquet.CreatedBy("quarry", "", ""))
	batch := make([]parquet.Row, 0, writeBatch)
	flush := func() error {
		_, err := pw.WriteRows(batch)
		batch = batch[:0]
		return err
	}
	err = each(ctx, src, cols, func(row table.Row) error {
		out := make(parquet.Row, len(cols))
		for i, c := range cols {
			out[i] = parquetValue(row[i], c, i)
		}
		if batch = append(batch, out); len(batch) == writeBatch {
			return flush()
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := flush(); err != nil {
		return err
	}
	return pw.Close()
}

// parquetSchema builds the schema from a struct type made for the columns,
// since a struct keeps its fields' order (parquet.Group sorts them by name).
func parquetSchema(cols []table.Column) (*parquet.Schema, error) {
	fields := make([]reflect.StructField, len(cols))
	for i, c := range cols {
		tag := c.Name
		var typ reflect.Type
		switch c.Kind {
		case table.String:
			typ = reflect.TypeFor[string]()
		case table.Date:
			typ, tag = reflect.TypeFor[int32](), tag+",date"
		case table.Decimal:
			typ = reflect.TypeFor[float64]()
		case table.Int:
			typ = reflect.TypeFor[int64]()
		}
		if c.Nullable {
			tag += ",optional"
		}
		fields[i] = reflect.StructField{Name: fmt.Sprintf("C%d", i), Type: typ, Tag: reflect.StructTag(`parquet:"` + tag + `"`)}
	}
	var schema *parquet.Schema
	var err error
	func() {
		// SchemaOf panics on a tag it cannot read, such as a name
		// holding a comma; no caller's column must take the process down.
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("exportfile: parquet schema: %v", r)
			}
		}()
		schema = parquet.SchemaOf(reflect.New(reflect.StructOf(fields)).Elem().Interface())
	}()
	return schema, err
}

// parquetValue is v as column i holds it, with its definition level.
func parquetValue(v table.Value, c table.Column, i int) parquet.Value {
	def := 0
	if c.Nullable {
		def = 1
	}
	if v.Null {
		return parquet.NullValue().Level(0, 0, i)
	}
	var pv parquet.Value
	switch c.Kind {
	case table.Date:
		pv = parquet.Int32Value(int32(v.Day))
	case table.Decimal:
		pv = parquet.DoubleValue(v.Num)
	case table.Int:
		pv = parquet.Int64Value(v.Int)
	default:
		pv = parquet.ByteArrayValue([]byte(v.Str))
	}
	return pv.Level(0, def, i)
}
