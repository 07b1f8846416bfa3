// Package chinalistings reads China A-share listings in the exchange-listing
// CSV layout (exchange,code,company_name,listing_date,delisting_date) into
// the securities of domain/ashare. It refuses a whole file on its first bad
// row, naming the file and the line.
package chinalistings

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/domain/source"
)

// listingHeader is the exchange-listing layout Parse reads.
var listingHeader = []string{"exchange", "code", "company_name", "listing_date", "delisting_date"}

// Parse reads China A-share listings in the exchange-listing CSV
// layout. Every row is checked (code ranges, dates, order of dates) and the
// whole file is refused on the first bad row, so a partial file never loads.
func Parse(file string, r io.Reader) ([]ashare.Security, error) {
	var out []ashare.Security
	seen := map[string]bool{}
	err := eachCSVRow(file, r, listingHeader, func(rec []string) error {
		sec, err := listingRow(rec)
		if err != nil {
			return err
		}
		if seen[sec.Code] {
			return fmt.Errorf("duplicate code %s", sec.Code)
		}
		seen[sec.Code] = true
		out = append(out, sec)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, source.AtLine(file, 2, "no listings")
	}
	return out, nil
}

// eachCSVRow reads a CSV file whose first line must be header and hands
// every record to row. A read error or an error from row stops it, as
// source.ErrBadInput naming the file and the record's line.
func eachCSVRow(file string, r io.Reader, header []string, row func(rec []string) error) error {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(header)
	got, err := cr.Read()
	if err != nil {
		return source.AtLine(file, 1, "reading header: %v", err)
	}
	if !slices.Equal(got, header) {
		return source.AtLine(file, 1, "header must be %s", strings.Join(header, ","))
	}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return source.AtLine(file, csvLine(err), "%v", err)
		}
		if err := row(rec); err != nil {
			line, _ := cr.FieldPos(0)
			return source.AtLine(file, line, "%v", err)
		}
	}
}

// csvLine is the line a CSV read error points at.
func csvLine(err error) int {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return pe.Line
	}
	return 0
}

func listingRow(rec []string) (ashare.Security, error) {
	code, err := ashare.ParseCode(rec[0] + "." + rec[1])
	if err != nil {
		return ashare.Security{}, err
	}
	name := strings.TrimSpace(rec[2])
	if name == "" {
		return ashare.Security{}, errors.New("company_name is empty")
	}
	listed, err := time.Parse(time.DateOnly, rec[3])
	if err != nil {
		return ashare.Security{}, fmt.Errorf("listing_date %q is not YYYY-MM-DD", rec[3])
	}
	if rec[4] != "" {
		delisted, err := time.Parse(time.DateOnly, rec[4])
		if err != nil {
			return ashare.Security{}, fmt.Errorf("delisting_date %q is not YYYY-MM-DD", rec[4])
		}
		if !delisted.After(listed) {
			return ashare.Security{}, errors.New("delisting_date must be after listing_date")
		}
	}
	return ashare.Security{
		Code: code.String(), Exchange: string(code.Exchange), Board: string(code.Board),
		CompanyName: name, ListingDate: rec[3], DelistingDate: rec[4], Listed: rec[4] == "",
	}, nil
}
