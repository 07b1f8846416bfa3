// Package nsebhavcopy reads NSE capital-market daily files, told apart by
// their header:
//
//   - the legacy bhavcopy cmDDMONYYYYbhav.csv (SYMBOL,SERIES,OPEN,HIGH,LOW,
//     CLOSE,LAST,PREVCLOSE,TOTTRDQTY,TOTTRDVAL,TIMESTAMP,TOTALTRADES,ISIN,
//     with a trailing comma; TIMESTAMP like 01-DEC-2017; TOTTRDVAL in INR);
//   - the UDiFF bhavcopy BhavCopy_NSE_CM_0_0_0_YYYYMMDD_F_0000.csv (34
//     columns, TradDt YYYY-MM-DD, TtlTrfVal in INR; the close is ClsPric,
//     which the legacy CLOSE is, not the settlement price SttlmPric); a
//     UDiFF file of another segment (Sgmt other than CM) is refused;
//   - the full bhavcopy sec_bhavdata_full_DDMMYYYY.csv (SYMBOL, SERIES,
//     DATE1, …, TURNOVER_LACS, …; values padded with a space; turnover in
//     lakhs, converted exactly to INR). It carries no ISIN: its rows come
//     back with an empty ISIN for the caller to resolve;
//   - NSE's list of equities EQUITY_L.csv (SYMBOL,NAME OF COMPANY, SERIES,
//     …, ISIN NUMBER, FACE VALUE), which maps symbols to ISINs.
//
// A file is refused as a whole, naming its line and the reason, on its
// first bad row, so a truncated or malformed file never loads in part.
// The rules applied (units, KnownAt, checks) live in domain/nse.
package nsebhavcopy

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/domain/nse"
	"github.com/quarrydata/quarry/domain/source"
)

// File is one source file and when it was retrieved, which bounds when its
// rows became known (nse.KnownAt).
type File struct {
	Name string
	// Open opens the file; it is kept open only while it is read.
	Open        func() (io.ReadCloser, error)
	RetrievedAt time.Time
}

// Set is what a run's files hold.
type Set struct {
	// Rows are the daily rows, ISIN empty for full-bhavcopy rows.
	Rows []nse.Row
	// Listings maps symbols to ISINs, from EQUITY_L files.
	Listings map[string]string
}

var (
	legacyHeader = []string{"SYMBOL", "SERIES", "OPEN", "HIGH", "LOW", "CLOSE", "LAST", "PREVCLOSE", "TOTTRDQTY", "TOTTRDVAL", "TIMESTAMP", "TOTALTRADES", "ISIN", ""}
	udiffHeader  = []string{"TradDt", "BizDt", "Sgmt", "Src", "FinInstrmTp", "FinInstrmId", "ISIN", "TckrSymb", "SctySrs", "XpryDt",
		"FininstrmActlXpryDt", "StrkPric", "OptnTp", "FinInstrmNm", "OpnPric", "HghPric", "LwPric", "ClsPric", "LastPric", "PrvsClsgPric",
		"UndrlygPric", "SttlmPric", "OpnIntrst", "ChngInOpnIntrst", "TtlTradgVol", "TtlTrfVal", "TtlNbOfTxsExctd", "SsnId", "NewBrdLotQty",
		"Rmks", "Rsvd1", "Rsvd2", "Rsvd3", "Rsvd4"}
	fullHeader = []string{"SYMBOL", "SERIES", "DATE1", "PREV_CLOSE", "OPEN_PRICE", "HIGH_PRICE", "LOW_PRICE", "LAST_PRICE", "CLOSE_PRICE",
		"AVG_PRICE", "TTL_TRD_QNTY", "TURNOVER_LACS", "NO_OF_TRADES", "DELIV_QTY", "DELIV_PER"}
	equityListHeader = []string{"SYMBOL", "NAME OF COMPANY", "SERIES", "DATE OF LISTING", "PAID UP VALUE", "MARKET LOT", "ISIN NUMBER", "FACE VALUE"}
)

// Read parses every file. Nothing is returned unless every file is whole:
// the first bad file stops the run with source.ErrBadInput.
func Read(files []File) (Set, error) {
	out := Set{Listings: map[string]string{}}
	for _, f := range files {
		got, err := ReadFile(f)
		if err != nil {
			return Set{}, err
		}
		out.Rows = append(out.Rows, got.Rows...)
		for sym, isin := range got.Listings {
			out.Listings[sym] = isin
		}
	}
	return out, nil
}

// layout reads one record of a file whose header it matched.
type layout func(rec []string) (nse.Row, error)

// ReadFile parses one file, detecting its layout by its header.
func ReadFile(f File) (Set, error) {
	rc, cr, row, err := open(f)
	if err != nil {
		return Set{}, err
	}
	defer rc.Close()
	if row == nil {
		return readEquityList(f.Name, cr)
	}
	rows, err := readRows(f, cr, row, 0)
	return Set{Rows: rows}, err
}

// Head is what a file's header and first row say, read without the rest:
// a run plans its order from them (a day's files together, days in order,
// listings first) before it reads any file whole.
type Head struct {
	// Listing marks NSE's list of equities (EQUITY_L), which holds no
	// rows.
	Listing bool
	// Date is the trading day of the file's first row; empty for a
	// listing.
	Date string
	// Lakhs marks a full bhavcopy: its rows take their ISINs from the
	// other files of their day, so they are read after them.
	Lakhs bool
}

// ReadHead reads a file's header and first row, refusing them as ReadFile
// does.
func ReadHead(f File) (Head, error) {
	rc, cr, row, err := open(f)
	if err != nil {
		return Head{}, err
	}
	defer rc.Close()
	if row == nil {
		return Head{Listing: true}, nil
	}
	rows, err := readRows(f, cr, row, 1)
	if err != nil {
		return Head{}, err
	}
	return Head{Date: rows[0].Date, Lakhs: rows[0].TurnoverInLakhs}, nil
}

// open opens a file and reads its header, returning the reader positioned
// at the first record and the layout of its rows: nil for EQUITY_L.
func open(f File) (io.Closer, *csv.Reader, layout, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("open %s: %w", f.Name, err)
	}
	cr, row, err := readHeader(f.Name, rc)
	if err != nil {
		rc.Close()
		return nil, nil, nil, err
	}
	return rc, cr, row, nil
}

// readHeader reads the header and returns the layout it names.
func readHeader(name string, r io.Reader) (*csv.Reader, layout, error) {
	br := bufio.NewReaderSize(source.Lines(name, r, source.MaxLineBytes), 64<<10)
	if bom, _ := br.Peek(3); string(bom) == "\uFEFF" {
		_, _ = br.Discard(3)
	}
	cr := csv.NewReader(br)
	cr.TrimLeadingSpace = true
	cr.ReuseRecord = true
	header, err := cr.Read()
	if errors.Is(err, source.ErrBadInput) {
		return nil, nil, err
	}
	if err != nil {
		return nil, nil, source.AtLine(name, 1, "reading header: %v", err)
	}
	header = trimAll(header)
	cr.FieldsPerRecord = len(header)
	switch {
	case slices.Equal(header, legacyHeader):
		return cr, legacyRow, nil
	case slices.Equal(header, udiffHeader):
		return cr, udiffRow, nil
	case slices.Equal(header, fullHeader):
		return cr, fullRow, nil
	case slices.Equal(header, equityListHeader):
		return cr, nil, nil
	}
	return nil, nil, source.AtLine(name, 1, "header is none of NSE's legacy bhavcopy (%s), UDiFF bhavcopy (TradDt,BizDt,Sgmt,…), full bhavcopy (%s) or EQUITY_L (%s)",
		strings.Join(legacyHeader, ","), strings.Join(fullHeader, ", "), strings.Join(equityListHeader, ","))
}

// readRows reads every record with row, checks it and dates it; with
// limit above zero, only that many.
func readRows(f File, cr *csv.Reader, row layout, limit int) ([]nse.Row, error) {
	name := path.Base(strings.ReplaceAll(f.Name, "\\", "/"))
	if _, entry, ok := strings.Cut(name, ":"); ok {
		name = path.Base(entry)
	}
	var out []nse.Row
	seen := map[string]bool{}
	for limit <= 0 || len(out) < limit {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if errors.Is(err, source.ErrBadInput) {
			return nil, err
		}
		if err != nil {
			return nil, source.AtLine(f.Name, csvLine(err), "%v", err)
		}
		line, _ := cr.FieldPos(0)
		r, err := row(trimAll(rec))
		if err == nil {
			err = r.Check()
		}
		if err == nil {
			r.KnownAt, err = nse.KnownAt(r.Date, f.RetrievedAt)
		}
		if err != nil {
			return nil, source.AtLine(f.Name, line, "%v", err)
		}
		key := r.Symbol + " " + r.Series + " " + r.Date
		if seen[key] {
			return nil, source.AtLine(f.Name, line, "a second row for %s %s on %s", r.Symbol, r.Series, r.Date)
		}
		seen[key] = true
		r.Source = name
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil, source.AtLine(f.Name, 2, "no rows")
	}
	return out, nil
}

func trimAll(rec []string) []string {
	for i, v := range rec {
		rec[i] = strings.TrimSpace(v)
	}
	return rec
}

// csvLine is the line a CSV read error points at (0 when it names none).
func csvLine(err error) int {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return pe.Line
	}
	return 0
}

// figures reads the common figures of a row, named as the file names them.
type figures struct {
	names  [9]string // open high low close last prev volume turnover trades
	values [9]string
}

func (fg figures) fill(r *nse.Row, turnover func(string) (float64, error)) error {
	prices := []*float64{&r.Open, &r.High, &r.Low, &r.Close, &r.Last, &r.PrevClose}
	for i, p := range prices {
		if i == 4 && (fg.values[i] == "" || fg.values[i] == "-") {
			continue // no last price: Last stays 0
		}
		v, err := nse.ParseDecimal(fg.names[i], fg.values[i])
		if err != nil {
			return err
		}
		*p = v
	}
	var err error
	if r.Volume, err = nse.ParseCount(fg.names[6], fg.values[6]); err != nil {
		return err
	}
	if r.Turnover, err = turnover(fg.values[7]); err != nil {
		return fmt.Errorf("%s: %w", fg.names[7], err)
	}
	r.Trades, err = nse.ParseCount(fg.names[8], fg.values[8])
	return err
}

func rupees(s string) (float64, error) { return nse.ParseDecimal("turnover", s) }

// identity fills symbol and series, which must be given.
func identity(r *nse.Row, symbol, series string) error {
	if symbol == "" || series == "" {
		return errors.New("symbol and series must not be empty")
	}
	r.Symbol, r.Series = strings.ToUpper(symbol), strings.ToUpper(series)
	return nil
}

func isin(s string) (string, error) { return nse.ParseISIN(s) }

// day reads a date in the layout given, returning YYYY-MM-DD.
func day(name, layout, s string) (string, error) {
	d, err := time.Parse(layout, s)
	if err != nil {
		return "", fmt.Errorf("%s %s is not a date like %s", name, source.Quote(s), layout)
	}
	return d.Format(time.DateOnly), nil
}

func legacyRow(rec []string) (nse.Row, error) {
	var r nse.Row
	if err := identity(&r, rec[0], rec[1]); err != nil {
		return r, err
	}
	var err error
	if r.Date, err = day("TIMESTAMP", "02-Jan-2006", rec[10]); err != nil {
		return r, err
	}
	if r.ISIN, err = isin(rec[12]); err != nil {
		return r, err
	}
	if rec[13] != "" {
		return r, fmt.Errorf("the column after ISIN holds %s; it is empty in NSE's files", source.Quote(rec[13]))
	}
	fg := figures{names: [9]string{"OPEN", "HIGH", "LOW", "CLOSE", "LAST", "PREVCLOSE", "TOTTRDQTY", "TOTTRDVAL", "TOTALTRADES"},
		values: [9]string{rec[2], rec[3], rec[4], rec[5], rec[6], rec[7], rec[8], rec[9], rec[11]}}
	return r, fg.fill(&r, rupees)
}

func udiffRow(rec []string) (nse.Row, error) {
	var r nse.Row
	if rec[2] != "CM" {
		return r, fmt.Errorf("column Sgmt is %s, not CM: this is not a capital-market bhavcopy", source.Quote(rec[2]))
	}
	if err := identity(&r, rec[7], rec[8]); err != nil {
		return r, err
	}
	var err error
	if r.Date, err = day("TradDt", time.DateOnly, rec[0]); err != nil {
		return r, err
	}
	if r.ISIN, err = isin(rec[6]); err != nil {
		return r, err
	}
	fg := figures{names: [9]string{"OpnPric", "HghPric", "LwPric", "ClsPric", "LastPric", "PrvsClsgPric", "TtlTradgVol", "TtlTrfVal", "TtlNbOfTxsExctd"},
		values: [9]string{rec[14], rec[15], rec[16], rec[17], rec[18], rec[19], rec[24], rec[25], rec[26]}}
	return r, fg.fill(&r, rupees)
}

func fullRow(rec []string) (nse.Row, error) {
	var r nse.Row
	if err := identity(&r, rec[0], rec[1]); err != nil {
		return r, err
	}
	var err error
	if r.Date, err = day("DATE1", "02-Jan-2006", rec[2]); err != nil {
		return r, err
	}
	fg := figures{names: [9]string{"OPEN_PRICE", "HIGH_PRICE", "LOW_PRICE", "CLOSE_PRICE", "LAST_PRICE", "PREV_CLOSE", "TTL_TRD_QNTY", "TURNOVER_LACS", "NO_OF_TRADES"},
		values: [9]string{rec[4], rec[5], rec[6], rec[8], rec[7], rec[3], rec[10], rec[11], rec[12]}}
	r.TurnoverInLakhs = true
	return r, fg.fill(&r, nse.RupeesFromLakhs)
}

// readEquityList reads EQUITY_L's symbol-to-ISIN pairs.
func readEquityList(name string, cr *csv.Reader) (Set, error) {
	cr.FieldsPerRecord = len(equityListHeader)
	out := Set{Listings: map[string]string{}}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if errors.Is(err, source.ErrBadInput) {
			return Set{}, err
		}
		if err != nil {
			return Set{}, source.AtLine(name, csvLine(err), "%v", err)
		}
		line, _ := cr.FieldPos(0)
		rec = trimAll(rec)
		sym := strings.ToUpper(rec[0])
		id, err := isin(rec[6])
		if err == nil && sym == "" {
			err = errors.New("SYMBOL is empty")
		}
		if err == nil && out.Listings[sym] != "" {
			err = fmt.Errorf("a second row for %s", sym)
		}
		if err != nil {
			return Set{}, source.AtLine(name, line, "%v", err)
		}
		out.Listings[sym] = id
	}
	if len(out.Listings) == 0 {
		return Set{}, source.AtLine(name, 2, "no rows")
	}
	return out, nil
}
