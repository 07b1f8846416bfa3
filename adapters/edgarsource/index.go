package edgarsource

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/domain/feed"
)

// Filing is one row of a daily form index.
type Filing struct {
	Form, Company string
	CIK           int64
	// Filed is the day filed, YYYYMMDD.
	Filed string
	// File is the filing's path under the Archives, edgar/data/….
	File string
}

var (
	twoSpaces = regexp.MustCompile(`\s{2,}`)
	fileName  = regexp.MustCompile(`^edgar/data/\d{1,10}/\d{10}-\d{2}-\d{6}\.txt$`)
	filedDay  = regexp.MustCompile(`^(19|20)\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$`)
	received  = regexp.MustCompile(`(?m)^Last Data Received:[ \t]+(\S[^\r\n]*?)[ \t]*\r?$`)
)

// Received returns the day a daily form index's header says it holds,
// its "Last Data Received" line (Feb 26, 2025, or Feb  4, 2022).
func Received(body []byte) (time.Time, error) {
	m := received.FindSubmatch(body[:min(len(body), 4096)])
	if m == nil {
		return time.Time{}, errors.New("not a daily form index: its header has no Last Data Received line")
	}
	d, err := time.Parse("Jan _2, 2006", string(m[1]))
	if err != nil {
		return time.Time{}, fmt.Errorf("the Last Data Received %q is not a day", m[1])
	}
	return d, nil
}

// OfDay refuses the form index body (its filings read) served for day
// when it is another day's: its header names another day, or it lists a
// filing filed after day. Either refusal names both days.
func OfDay(body []byte, filings []Filing, day time.Time) error {
	got, err := Received(body)
	if err != nil {
		return err
	}
	asked := day.Format(feed.DayLayout)
	if !got.Equal(day) {
		return fmt.Errorf("the index served for %s is of %s (its Last Data Received): not the day asked", asked, got.Format(feed.DayLayout))
	}
	for _, f := range filings {
		if f.Filed > day.Format("20060102") {
			filed, _ := time.Parse("20060102", f.Filed)
			return fmt.Errorf("the index served for %s lists %s filed %s, after it: not the day asked", asked, f.File, filed.Format(feed.DayLayout))
		}
	}
	return nil
}

// ParseFormIndex reads a daily form index (form.YYYYMMDD.idx): a header
// ended by a line of dashes, then one filing a line, in fixed-width
// columns of form type, company name, CIK, date filed and file name. The
// columns are read from the right, as a company name may hold anything;
// a line that does not read as a filing refuses the whole file.
func ParseFormIndex(body []byte) ([]Filing, error) {
	lines := strings.Split(strings.ReplaceAll(string(body), "\r\n", "\n"), "\n")
	start := -1
	for i, l := range lines {
		if t := strings.TrimSpace(l); len(t) >= 20 && strings.Trim(t, "-") == "" {
			start = i + 1
			break
		}
	}
	if start < 0 {
		return nil, errors.New("not a daily form index: no line of dashes ends a header")
	}
	if !bytes.HasPrefix(body, []byte("Description:")) {
		return nil, errors.New("not a daily form index: it does not open with its Description")
	}
	var out []Filing
	for i, l := range lines[start:] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		f, err := parseRow(l)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", start+i+1, err)
		}
		out = append(out, f)
	}
	return out, nil
}

// parseRow reads one filing line.
func parseRow(l string) (Filing, error) {
	fields := strings.Fields(l)
	if len(fields) < 5 {
		return Filing{}, errors.New("fewer than five columns")
	}
	n := len(fields)
	file, filed, cik := fields[n-1], fields[n-2], fields[n-3]
	if !fileName.MatchString(file) {
		return Filing{}, fmt.Errorf("file name %q is not a filing's edgar/data/CIK/ACCESSION.txt", file)
	}
	if !filedDay.MatchString(filed) {
		return Filing{}, fmt.Errorf("date filed %q is not a day YYYYMMDD", filed)
	}
	id, err := strconv.ParseInt(cik, 10, 64)
	if err != nil || id <= 0 || id > 9999999999 {
		return Filing{}, fmt.Errorf("CIK %q is not a number of at most ten digits", cik)
	}
	head := strings.TrimSpace(l[:strings.LastIndex(l, cik+" ")])
	parts := twoSpaces.Split(head, 2)
	if len(parts) < 2 {
		return Filing{}, errors.New("form type and company name are not apart")
	}
	return Filing{Form: parts[0], Company: strings.TrimSpace(parts[1]), CIK: id, Filed: filed, File: file}, nil
}
