// Package nsesource keeps the India prices dataset current from NSE: the
// daily capital-market bhavcopy, fetched after the close, UDiFF from
// 2024-07-08 and the legacy layout's archive before. A weekday NSE answers
// with 404 is a holiday only on NSE's list of trading holidays
// (calendar.NSE); otherwise the day is missing, asked again later.
package nsesource

import (
	"archive/zip"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"slices"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/quarrydata/quarry/adapters/internal/fetch"
	"github.com/quarrydata/quarry/domain/calendar"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/feed"
	"github.com/quarrydata/quarry/domain/source"
	"github.com/quarrydata/quarry/ports"
)

// Name is the source's name on the command line.
const Name = "nse"

// udiffFrom is the first day NSE published the UDiFF bhavcopy.
var udiffFrom = time.Date(2024, 7, 8, 0, 0, 0, 0, time.UTC)

// closeAfter is when a day's bhavcopy is due, after midnight UTC of the
// day: 20:30 IST, a few hours after NSE publishes it.
const closeAfter = 15 * time.Hour

// Source is NSE's daily bhavcopy.
type Source struct {
	c *fetch.Client
	// maxBytes bounds the archive's entry, uncompressed.
	maxBytes int64
}

var _ ports.Source = (*Source)(nil)

// Config configures the source.
type Config struct {
	// BaseURL stands for NSE's archive host.
	BaseURL string
	// Backoff is the first wait before a retry; zero is one second.
	Backoff time.Duration
	// MaxFileBytes bounds a day's archive and its entry, uncompressed
	// (QUARRY_INGEST_MAX_FILE_BYTES); zero is fetch's bound of 1 GiB.
	MaxFileBytes int64
	Meter        ports.SourceMeter
	Log          *zap.Logger
}

// maxFileBytesSetting names the bound of an entry in its refusal.
const maxFileBytesSetting = "QUARRY_INGEST_MAX_FILE_BYTES"

// perSecond is the request rate the source keeps: NSE publishes no rule,
// and a day is one file.
const perSecond = 2

// New returns the source of cfg.
func New(cfg Config) (*Source, error) {
	c, err := fetch.New(fetch.Options{Source: Name, BaseURL: cfg.BaseURL, UserAgent: "quarry (NSE bhavcopy)",
		PerSecond: perSecond, Backoff: cfg.Backoff, MaxBytes: cfg.MaxFileBytes, Meter: cfg.Meter, Log: cfg.Log})
	if err != nil {
		return nil, err
	}
	return &Source{c: c, maxBytes: cfg.MaxFileBytes}, nil
}

// Name returns "nse".
func (s *Source) Name() string { return Name }

// Publishes reports whether day is a weekday: NSE trades on no weekend
// (special weekend sessions excepted, which this source does not fetch).
func (s *Source) Publishes(day time.Time) bool { return feed.Weekday(day) }

// Holiday reports whether day is on NSE's list of trading holidays.
func (s *Source) Holiday(day time.Time) bool { return calendar.NSE.Holiday(day) }

// Due returns 20:30 IST of day.
func (s *Source) Due(day time.Time) time.Time { return day.Add(closeAfter) }

// Path is where NSE serves the bhavcopy of day: the UDiFF file, or before
// 2024-07-08 the legacy one.
func Path(day time.Time) string {
	if day.Before(udiffFrom) {
		return fmt.Sprintf("content/historical/EQUITIES/%d/%s/cm%s%sbhav.csv.zip",
			day.Year(), strings.ToUpper(day.Format("Jan")), day.Format("02"), strings.ToUpper(day.Format("Jan2006")))
	}
	return "content/cm/BhavCopy_NSE_CM_0_0_0_" + day.Format("20060102") + "_F_0000.csv.zip"
}

// Fetch returns the day's bhavcopy zip, streamed to the run's spool and
// checked whole there, or ports.ErrNoPublication when NSE has none for
// the day.
func (s *Source) Fetch(ctx context.Context, day time.Time) ([]ports.SourceFile, error) {
	p := Path(day)
	res, err := s.c.GetFile(ctx, p, wholeZip(strings.TrimSuffix(path.Base(p), ".zip"), day, s.maxBytes))
	switch {
	case errors.Is(err, ports.ErrNotFound):
		return nil, fmt.Errorf("nse %s: %w", day.Format(feed.DayLayout), ports.ErrNoPublication)
	case err != nil:
		return nil, err
	}
	return []ports.SourceFile{{Dataset: string(dataset.IndiaPrices), Name: path.Base(p), URL: res.URL,
		Path: res.File, Spooled: true, RetrievedAt: res.RetrievedAt}}, nil
}

// wholeZip checks that a file is a zip holding the one CSV named entry,
// every byte of which reads back with its checksum, and every row of
// which is of day. An entry declaring more than maxBytes (when set) or a
// zip bomb's ratio is refused before it is inflated; the archive reader
// stops one that yields more than it declares.
func wholeZip(entry string, day time.Time, maxBytes int64) fetch.FileCheck {
	if maxBytes <= 0 {
		maxBytes = math.MaxInt64
	}
	return func(file string) error {
		zr, err := zip.OpenReader(file)
		if err != nil {
			return fmt.Errorf("not a whole zip archive: %v", err)
		}
		defer zr.Close()
		if len(zr.File) != 1 || !strings.EqualFold(zr.File[0].Name, entry) {
			return fmt.Errorf("the archive does not hold the one entry %s", entry)
		}
		e := zr.File[0]
		if err := source.CheckEntry(entry, e.CompressedSize64, e.UncompressedSize64, maxBytes, maxFileBytesSetting); err != nil {
			return err
		}
		rc, err := e.Open()
		if err != nil {
			return fmt.Errorf("entry %s: %v", entry, err)
		}
		defer rc.Close()
		if err := ofDay(rc, day); err != nil {
			return fmt.Errorf("entry %s: %w", entry, err)
		}
		if _, err := io.Copy(io.Discard, rc); err != nil {
			return fmt.Errorf("entry %s does not read whole: %v", entry, err)
		}
		return nil
	}
}

// dateColumns are the trade date's column in each layout, and how it is
// written: UDiFF's TradDt, the legacy layout's TIMESTAMP.
var dateColumns = map[string]string{"TradDt": time.DateOnly, "TIMESTAMP": "02-Jan-2006"}

// ofDay reads a bhavcopy CSV and refuses it when a row's trade date is
// not day, naming both days: a file served under one day's name holding
// another day's rows. The dataset's reader checks everything else.
func ofDay(r io.Reader, day time.Time) error {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord, cr.LazyQuotes, cr.ReuseRecord = -1, true, true
	header, err := cr.Read()
	if err != nil {
		return fmt.Errorf("no header row: %v", err)
	}
	col := slices.IndexFunc(header, func(h string) bool { return dateColumns[strings.TrimSpace(h)] != "" })
	if col < 0 {
		return errors.New("no trade date column (TradDt or TIMESTAMP)")
	}
	layout := dateColumns[strings.TrimSpace(header[col])]
	for line := 2; ; line++ {
		rec, err := cr.Read()
		switch {
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return fmt.Errorf("line %d: %v", line, err)
		case col >= len(rec):
			return fmt.Errorf("line %d has no trade date", line)
		}
		d, err := time.Parse(layout, strings.TrimSpace(rec[col]))
		if err != nil {
			return fmt.Errorf("line %d: trade date %q is not a date", line, rec[col])
		}
		if !d.Equal(day) {
			return fmt.Errorf("the file served for %s holds rows of %s (line %d): not the day asked", day.Format(feed.DayLayout), d.Format(feed.DayLayout), line)
		}
	}
}
