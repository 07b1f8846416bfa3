package edgarsource

import (
	"fmt"
	"slices"
	"time"

	"go.uber.org/zap"

	"github.com/quarrydata/quarry/domain/feed"
)

// MaxDayFilings bounds the filings of the forms fetched (10-K, 10-Q,
// 10-K/A, 13F-HR, 13F-HR/A) one day's form index may list. Real days list
// a few thousand at their busiest (13F-HR on the 45th day after a
// quarter); each takes one to four requests at the SEC's ten a second, so
// this many is already hours of fetching. An index listing more is not
// taken for a real one: refused, fetched again by the next run.
const MaxDayFilings = 10000

// progressEvery is how many filings and filers a day's fetch goes through
// between two progress lines.
const progressEvery = 500

// skipsLogged is how many skipped filings or filers a day's fetch logs
// one by one at info level; the others are logged at debug level and
// counted in the day's closing line.
const skipsLogged = 10

// checkFetched refuses a form index listing more filings of the forms
// fetched than MaxDayFilings.
func checkFetched(filings []Filing) error {
	n := 0
	for _, f := range filings {
		if slices.Contains(statementForms, f.Form) || slices.Contains(holdingsForms, f.Form) {
			n++
		}
	}
	if n > MaxDayFilings {
		return fmt.Errorf("the index lists %d filings of the forms fetched, more than the %d a day a real index lists", n, MaxDayFilings)
	}
	return nil
}

// progress logs how far a day's fetch has gone: a line every
// progressEvery filings or filers, the first skips one by one, and a
// closing line with the counts.
type progress struct {
	log          *zap.Logger
	day          string
	total        int
	count, skips int
	start        time.Time
}

func newProgress(log *zap.Logger, day time.Time, filings []Filing) *progress {
	total := len(Filers(filings))
	for _, f := range filings {
		if slices.Contains(statementForms, f.Form) || slices.Contains(holdingsForms, f.Form) {
			total++
		}
	}
	return &progress{log: log, day: day.Format(feed.DayLayout), total: total, start: time.Now()}
}

// done counts one filing or filer fetched, or skipped.
func (p *progress) done() {
	if p.count++; p.count%progressEvery == 0 {
		p.log.Info("edgar: fetching a day", zap.String("day", p.day), zap.Int("done", p.count), zap.Int("of", p.total),
			zap.Int("skipped", p.skips), zap.Duration("elapsed", time.Since(p.start)))
	}
}

// skip logs a filing or filer skipped, why, and which.
func (p *progress) skip(what string, fields ...zap.Field) {
	p.skips++
	fields = append(fields, zap.String("day", p.day))
	if p.skips <= skipsLogged {
		p.log.Info("edgar: skipped: "+what, fields...)
		return
	}
	p.log.Debug("edgar: skipped: "+what, fields...)
}

// fetched logs the day's closing line.
func (p *progress) fetched() {
	if p.total == 0 {
		return
	}
	p.log.Info("edgar: day fetched", zap.String("day", p.day), zap.Int("filings_and_filers", p.total),
		zap.Int("skipped", p.skips), zap.Duration("elapsed", time.Since(p.start)))
}
