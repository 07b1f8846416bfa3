// Package ashareprices reads A-share daily bars in the two layouts people
// download, told apart by their header:
//
//   - Tushare's `daily` (ts_code,trade_date,open,high,low,close,pre_close,
//     change,pct_chg,vol,amount): unadjusted, pre_close the exchange's
//     reference previous close, vol in lots of 100 shares (手) and amount in
//     thousands of CNY (千元), as Tushare's documentation of `daily` states;
//   - AKShare's `stock_zh_a_hist` (日期,股票代码,开盘,收盘,最高,最低,成交量,
//     成交额,振幅,涨跌幅,涨跌额,换手率; older AKShare versions leave out
//     股票代码): 成交量 in lots (手) and 成交额 in CNY (元), as AKShare's
//     documentation of its output columns states ("注意单位: 手", "注意单位:
//     元"). It has no previous close: pre_close is 收盘 − 涨跌额.
//
// A leading unnamed column, the index pandas writes with DataFrame.to_csv
// unless told not to, is accepted and ignored in both. Rows may come newest
// first or oldest first. A file is refused as a whole, naming its line and
// the reason, on its first bad row, so a truncated or malformed file never
// loads in part. Units are converted here into the domain's (shares, CNY);
// the rules themselves live in domain/ashare.
package ashareprices

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/domain/source"
)

// File is one source file and when it was retrieved, which bounds when its
// bars became known (ashare.KnownAt).
type File struct {
	Name string
	// Open opens the file; ReadFile keeps it open only while it reads it, so
	// a run over many files holds one open at a time.
	Open        func() (io.ReadCloser, error)
	RetrievedAt time.Time
}

var (
	tushareHeader = []string{"ts_code", "trade_date", "open", "high", "low", "close", "pre_close", "change", "pct_chg", "vol", "amount"}
	akshareHeader = []string{"日期", "股票代码", "开盘", "收盘", "最高", "最低", "成交量", "成交额", "振幅", "涨跌幅", "涨跌额", "换手率"}
	// akshareOldHeader is stock_zh_a_hist before it added 股票代码.
	akshareOldHeader = slices.Delete(slices.Clone(akshareHeader), 1, 2)
)

// ReadFile parses one file, detecting its layout by its header.
func ReadFile(f File) ([]ashare.Bar, error) {
	body, err := readAll(f)
	if errors.Is(err, source.ErrBadInput) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", f.Name, err)
	}
	body = bytes.TrimPrefix(body, []byte("\uFEFF"))
	cr := csv.NewReader(bytes.NewReader(body))
	cr.ReuseRecord = false
	header, err := cr.Read()
	if err != nil {
		return nil, source.AtLine(f.Name, 1, "reading header: %v", err)
	}
	indexed := len(header) > 0 && header[0] == ""
	if indexed {
		header = header[1:]
	}
	var row func(rec []string) (ashare.Bar, error)
	switch {
	case slices.Equal(header, tushareHeader):
		row = tushareRow
	case slices.Equal(header, akshareHeader), slices.Equal(header, akshareOldHeader):
		code, err := codeFromName(f.Name)
		if err != nil {
			return nil, source.AtLine(f.Name, 1, "%v", err)
		}
		row = akshareRow(code, len(header) == len(akshareHeader))
	default:
		return nil, source.AtLine(f.Name, 1, "header is neither Tushare daily (%s) nor AKShare stock_zh_a_hist (%s)",
			strings.Join(tushareHeader, ","), strings.Join(akshareHeader, ","))
	}
	cr.FieldsPerRecord = len(header)
	if indexed {
		cr.FieldsPerRecord++
	}
	var out []ashare.Bar
	seen := map[string]bool{}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, source.AtLine(f.Name, csvLine(err), "%v", err)
		}
		line, _ := cr.FieldPos(0)
		if indexed {
			if _, err := strconv.ParseUint(rec[0], 10, 64); err != nil {
				return nil, source.AtLine(f.Name, line, "index column %s is not a row number", source.Quote(rec[0]))
			}
			rec = rec[1:]
		}
		b, err := row(rec)
		if err == nil {
			err = b.Check()
		}
		if err == nil {
			b.KnownAt, err = ashare.KnownAt(b.TradeDate, f.RetrievedAt)
		}
		if err != nil {
			return nil, source.AtLine(f.Name, line, "%v", err)
		}
		key := b.Code + " " + b.TradeDate
		if seen[key] {
			return nil, source.AtLine(f.Name, line, "a second bar for %s on %s", b.Code, b.TradeDate)
		}
		seen[key] = true
		b.Source = path.Base(strings.ReplaceAll(f.Name, "\\", "/"))
		out = append(out, b)
	}
	if len(out) == 0 {
		return nil, source.AtLine(f.Name, 2, "no bars")
	}
	return out, nil
}

// csvLine is the line a CSV read error points at (0 when it names none).
func csvLine(err error) int {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return pe.Line
	}
	return 0
}

// prices reads the named plain decimals in order.
func prices(names []string, values []string) ([]float64, error) {
	out := make([]float64, len(values))
	for i, v := range values {
		var err error
		if out[i], err = ashare.ParseDecimal(names[i], v); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// signed reads a decimal that may be negative, such as a change.
func signed(name, s string) (float64, error) {
	v, err := ashare.ParseDecimal(name, strings.TrimPrefix(s, "-"))
	if strings.HasPrefix(s, "-") {
		v = -v
	}
	return v, err
}

// changeTolerance is how far a vendor's change may differ from close −
// pre_close: half a fen, as both are rounded to fen.
const changeTolerance = 0.005 + 1e-9

func tushareRow(rec []string) (ashare.Bar, error) {
	code, err := ashare.ParseAlias(rec[0])
	if err != nil {
		return ashare.Bar{}, fmt.Errorf("ts_code: %w", err)
	}
	day, err := time.Parse("20060102", rec[1])
	if err != nil {
		return ashare.Bar{}, fmt.Errorf("trade_date %s is not YYYYMMDD", source.Quote(rec[1]))
	}
	p, err := prices(tushareHeader[2:7], rec[2:7])
	if err != nil {
		return ashare.Bar{}, err
	}
	b := ashare.Bar{Code: code.String(), TradeDate: day.Format(time.DateOnly), Open: p[0], High: p[1], Low: p[2], Close: p[3], PreClose: p[4]}
	change, err := signed("change", rec[7])
	if err != nil {
		return ashare.Bar{}, err
	}
	if math.Abs(change-(b.Close-b.PreClose)) > changeTolerance {
		return ashare.Bar{}, fmt.Errorf("change %s is not close − pre_close (%s − %s)", rec[7], rec[5], rec[6])
	}
	if _, err := signed("pct_chg", rec[8]); err != nil {
		return ashare.Bar{}, err
	}
	if b.Volume, err = ashare.SharesFromLots(rec[9]); err != nil {
		return ashare.Bar{}, err
	}
	if b.Amount, err = ashare.YuanFromThousands(rec[10]); err != nil {
		return ashare.Bar{}, err
	}
	return b, nil
}

// akshareRow reads a stock_zh_a_hist row of the listing code; withCode says
// whether the row carries 股票代码.
func akshareRow(code ashare.Code, withCode bool) func(rec []string) (ashare.Bar, error) {
	return func(rec []string) (ashare.Bar, error) {
		if withCode {
			if rec[1] != code.Digits {
				return ashare.Bar{}, fmt.Errorf("股票代码 %s is not %s, the listing the file is named after", source.Quote(rec[1]), code.Digits)
			}
			rec = slices.Delete(slices.Clone(rec), 1, 2)
		}
		day, err := time.Parse(time.DateOnly, rec[0])
		if err != nil {
			return ashare.Bar{}, fmt.Errorf("日期 %s is not YYYY-MM-DD", source.Quote(rec[0]))
		}
		// 开盘, 收盘, 最高, 最低.
		p, err := prices([]string{"开盘", "收盘", "最高", "最低"}, rec[1:5])
		if err != nil {
			return ashare.Bar{}, err
		}
		change, err := signed("涨跌额", rec[9])
		if err != nil {
			return ashare.Bar{}, err
		}
		b := ashare.Bar{Code: code.String(), TradeDate: day.Format(time.DateOnly), Open: p[0], Close: p[1], High: p[2], Low: p[3],
			PreClose: ashare.Round4(p[1] - change)}
		if b.Volume, err = ashare.SharesFromLots(rec[5]); err != nil {
			return ashare.Bar{}, fmt.Errorf("成交量: %w", err)
		}
		if b.Amount, err = ashare.ParseDecimal("成交额", rec[6]); err != nil {
			return ashare.Bar{}, err
		}
		// 振幅, 涨跌幅 and 换手率 are derived figures Quarry does not
		// serve; they must be numbers when given.
		for i, name := range []string{"振幅", "涨跌幅", "换手率"} {
			if v := rec[[]int{7, 8, 10}[i]]; v != "" {
				if _, err := signed(name, v); err != nil {
					return ashare.Bar{}, err
				}
			}
		}
		return b, nil
	}
}

// codeFromName finds the listing an AKShare file holds in its name, whose
// 股票代码 column is a bare code that names no exchange: sh600519.csv,
// 600519.SH.csv, SSE.600519.csv, or such a code among words joined by _ or
// - (stock_zh_a_hist_sh600519.csv).
func codeFromName(name string) (ashare.Code, error) {
	base := path.Base(strings.ReplaceAll(name, "\\", "/"))
	base = strings.TrimSuffix(base, path.Ext(base))
	candidates := append([]string{base}, strings.FieldsFunc(base, func(r rune) bool { return r == '_' || r == '-' || r == ' ' })...)
	for _, c := range candidates {
		if code, err := ashare.ParseAlias(c); err == nil {
			return code, nil
		}
	}
	return ashare.Code{}, fmt.Errorf("an AKShare stock_zh_a_hist file gives a bare code, which names no exchange; name the file after the listing, as in sh600519.csv or 600519.SH.csv")
}

// readAll reads the whole file, up to source.MaxDocumentBytes, and closes it.
func readAll(f File) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return source.ReadAll(f.Name, rc, source.MaxDocumentBytes)
}
