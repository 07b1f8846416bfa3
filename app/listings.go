package app

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/domain/ashare"
)

// listingHeader is the exchange-listing layout ParseListings reads.
var listingHeader = []string{"exchange", "code", "company_name", "listing_date", "delisting_date"}

// ErrBadInput reports a source file that cannot be ingested; the message
// names the file, the line and the reason.
var ErrBadInput = errors.New("bad input")

func badInput(file string, line int, format string, args ...any) error {
	return fmt.Errorf("%w: %s:%d: %s", ErrBadInput, file, line, fmt.Sprintf(format, args...))
}

// ParseListings reads China A-share listings in the exchange-listing CSV
// layout. Every row is checked (code ranges, dates, order of dates) and the
// whole file is refused on the first bad row, so a partial file never loads.
func ParseListings(file string, r io.Reader) ([]ashare.Security, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(listingHeader)
	header, err := cr.Read()
	if err != nil {
		return nil, badInput(file, 1, "reading header: %v", err)
	}
	if !slices.Equal(header, listingHeader) {
		return nil, badInput(file, 1, "header must be %s", strings.Join(listingHeader, ","))
	}
	var out []ashare.Security
	seen := map[string]bool{}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, badInput(file, csvLine(err), "%v", err)
		}
		line, _ := cr.FieldPos(0)
		sec, err := listingRow(rec)
		if err != nil {
			return nil, badInput(file, line, "%v", err)
		}
		if seen[sec.Code] {
			return nil, badInput(file, line, "duplicate code %s", sec.Code)
		}
		seen[sec.Code] = true
		out = append(out, sec)
	}
	if len(out) == 0 {
		return nil, badInput(file, 2, "no listings")
	}
	return out, nil
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
