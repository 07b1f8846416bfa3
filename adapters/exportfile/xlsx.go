package exportfile

import (
	"archive/zip"
	"context"
	"fmt"
	"io"

	"github.com/xuri/excelize/v2"

	"github.com/quarrydata/quarry/domain/table"
	"github.com/quarrydata/quarry/ports"
)

// SheetRows is the most data rows an XLSX sheet holds: Excel's 1,048,576
// rows per sheet, less the header line.
const SheetRows = excelize.TotalRows - 1

// XLSX writes an Office Open XML workbook with excelize's stream writer,
// which keeps a sheet's rows in a temporary file once they pass 16 MiB, so
// memory stays flat. Dates are Excel dates (serial numbers shown as
// yyyy-mm-dd), decimals and integers are numbers, strings inline text, and
// a null an empty cell. A table longer than one sheet goes on in further
// sheets (data, data_2, data_3, ...), each starting with the header line.
type XLSX struct {
	// sheetRows is SheetRows, smaller only in tests, which cannot afford
	// a million rows to see a second sheet.
	sheetRows int
}

// NewXLSX returns the XLSX encoder.
func NewXLSX() XLSX { return XLSX{sheetRows: SheetRows} }

// Format is "xlsx".
func (XLSX) Format() string { return "xlsx" }

// MediaType is the workbook's registered media type.
func (XLSX) MediaType() string {
	return "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
}

// Extension is "xlsx".
func (XLSX) Extension() string { return "xlsx" }

// Encode writes the workbook. A zip is written once its parts are complete,
// so the first byte reaches w only after the last row is read.
func (x XLSX) Encode(ctx context.Context, w io.Writer, src ports.TableSource) error {
	cols, err := columns(src)
	if err != nil {
		return err
	}
	f := excelize.NewFile()
	defer func() { _ = f.Close() }() // removes the temporary files
	dateStyle, err := f.NewStyle(&excelize.Style{CustomNumFmt: ptr("yyyy-mm-dd")})
	if err != nil {
		return err
	}
	s := &sheetWriter{f: f, cols: cols, dateStyle: dateStyle, limit: x.sheetRows, values: make([]any, len(cols))}
	if err := s.next(); err != nil {
		return err
	}
	if err := each(ctx, src, cols, s.write); err != nil {
		return err
	}
	if err := s.sw.Flush(); err != nil {
		return err
	}
	// File.WriteTo would assemble the whole zip in a bytes.Buffer (the
	// size of the file, doubled as it grows); the zip writer excelize is
	// given writes to w instead, part by part, and the buffer it returns
	// stays empty. excelize's rewrite of local headers for entries over
	// 4 GiB works on that buffer and so is skipped; archive/zip writes the
	// zip64 records such an entry needs itself.
	f.SetZipWriter(func(io.Writer) excelize.ZipWriter { return zip.NewWriter(w) })
	_, err = f.WriteToBuffer()
	return err
}

// sheetWriter writes rows into the current sheet, starting the next one
// when it is full.
type sheetWriter struct {
	f         *excelize.File
	cols      []table.Column
	dateStyle int
	limit     int
	sheets    int
	sw        *excelize.StreamWriter
	rows      int // data rows in the current sheet
	values    []any
}

// next flushes the current sheet, if any, and starts the next with its
// header line.
func (s *sheetWriter) next() error {
	name := "data"
	if s.sheets == 0 {
		if err := s.f.SetSheetName("Sheet1", name); err != nil {
			return err
		}
	} else {
		if err := s.sw.Flush(); err != nil {
			return err
		}
		name = fmt.Sprintf("data_%d", s.sheets+1)
		if _, err := s.f.NewSheet(name); err != nil {
			return err
		}
	}
	s.sheets++
	sw, err := s.f.NewStreamWriter(name)
	if err != nil {
		return err
	}
	for i, c := range s.cols {
		if c.Kind == table.Date {
			// Wide enough for yyyy-mm-dd, which Excel shows as ### otherwise.
			if err := sw.SetColWidth(i+1, i+1, 11); err != nil {
				return err
			}
		}
		s.values[i] = c.Name
	}
	s.sw, s.rows = sw, 0
	return sw.SetRow("A1", s.values)
}

// write appends one row, in a new sheet when the current one is full.
func (s *sheetWriter) write(row table.Row) error {
	if s.rows == s.limit {
		if err := s.next(); err != nil {
			return err
		}
	}
	for i, c := range s.cols {
		s.values[i] = s.cell(row[i], c.Kind)
	}
	s.rows++
	cell, err := excelize.CoordinatesToCellName(1, s.rows+1)
	if err != nil {
		return err
	}
	return s.sw.SetRow(cell, s.values)
}

// cell is the value excelize writes for v.
func (s *sheetWriter) cell(v table.Value, k table.Kind) any {
	if v.Null {
		return nil
	}
	switch k {
	case table.Date:
		return excelize.Cell{StyleID: s.dateStyle, Value: v.Day.Time()}
	case table.Decimal:
		return v.Num
	case table.Int:
		return v.Int
	}
	return v.Str
}

func ptr[T any](v T) *T { return &v }
