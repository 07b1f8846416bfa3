// Package tusharesource keeps the China prices dataset current from the
// Tushare Pro HTTP API, a governed source: every request carries the
// operator's token. One POST of {api_name, token, params, fields} answers
// {code, msg, data: {fields, items}}. A trading day is one call of `daily`
// with trade_date, every listing's bar in one answer; `stock_basic`, the
// listings, is asked for at most once a day, with the first day fetched.
// The answers are written as the CSV files `quarry ingest` reads (Tushare's
// own daily and stock_basic layouts), so they load through the same
// idempotent path. An empty answer for a weekday is a holiday when the
// A-share calendar (calendar.AShare) names it, else a day missing. A refusal
// that only an operator can lift (no permission, out of points, the
// account's rate spent) stops the run with ports.ErrSourceStopped; the
// token is never logged.
package tusharesource

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/quarrydata/quarry/adapters/internal/fetch"
	"github.com/quarrydata/quarry/domain/calendar"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/feed"
	"github.com/quarrydata/quarry/ports"
)

// Name is the source's name on the command line.
const Name = "tushare"

// DefaultBaseURL is the API's host, where Tushare's own client posts.
const DefaultBaseURL = "http://api.tushare.pro"

// DefaultPerMinute is the request rate the source keeps unless told
// otherwise: `daily`'s documented limit for base points, 500 a minute.
const DefaultPerMinute = 500

// rowCap is the most rows one `daily` or `stock_basic` answer holds (6,000
// in Tushare's documentation of both); an answer that full may be cut.
const rowCap = 6000

// MaxAnswerBytes bounds one answer of the API, decoded: it is parsed
// whole in memory, into values several times its size. The largest real
// answers, 6,000 listings of stock_basic, are about 1.5 MB.
const MaxAnswerBytes = 16 << 20

// dueAfter is when a day's bars are due, after midnight UTC of the day:
// 17:00 Beijing time, an hour after Tushare says `daily` is loaded
// (15:00 to 16:00).
const dueAfter = 9 * time.Hour

// listingsEvery is how often stock_basic is asked for: it lists every
// listing in one call, and Tushare asks its users to fetch it once and keep it.
const listingsEvery = 24 * time.Hour

var (
	dailyFields   = []string{"ts_code", "trade_date", "open", "high", "low", "close", "pre_close", "change", "pct_chg", "vol", "amount"}
	listingFields = []string{"ts_code", "symbol", "name", "area", "industry", "cnspell", "market", "list_date", "act_name", "act_ent_type"}
)

// Config configures the source.
type Config struct {
	// Token is the operator's Tushare token; it is sent in each request's
	// body and never logged.
	Token string
	// BaseURL stands for the API's host: a mirror, or a test's replay
	// server.
	BaseURL string
	// PerMinute bounds the requests sent per Window; zero is DefaultPerMinute.
	PerMinute int
	// Window is the span PerMinute counts; zero is a minute (tests shorten it).
	Window time.Duration
	// Backoff is the first wait before a retry; zero is one second.
	Backoff time.Duration
	Meter   ports.SourceMeter
	Log     *zap.Logger
	// Now tells when stock_basic was last asked for; nil is time.Now.
	Now func() time.Time
}

// Source is the Tushare Pro API.
type Source struct {
	c     *fetch.Client
	token string
	log   *zap.Logger
	meter ports.SourceMeter
	now   func() time.Time

	mu       sync.Mutex
	listedAt time.Time
}

var _ ports.Source = (*Source)(nil)

// New returns the source of cfg; it refuses an empty token.
func New(cfg Config) (*Source, error) {
	if strings.TrimSpace(cfg.Token) == "" {
		return nil, errors.New("tushare: no token")
	}
	if cfg.PerMinute <= 0 {
		cfg.PerMinute = DefaultPerMinute
	}
	if cfg.Window <= 0 {
		cfg.Window = time.Minute
	}
	if cfg.Log == nil {
		cfg.Log = zap.NewNop()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	c, err := fetch.New(fetch.Options{Source: Name, BaseURL: cfg.BaseURL, UserAgent: "quarry (Tushare Pro)",
		PerSecond: float64(cfg.PerMinute) / cfg.Window.Seconds(), Backoff: cfg.Backoff, DocumentBytes: MaxAnswerBytes,
		Meter: cfg.Meter, Log: cfg.Log})
	if err != nil {
		return nil, err
	}
	s := &Source{c: c, token: cfg.Token, log: cfg.Log, meter: cfg.Meter, now: cfg.Now}
	if s.meter == nil {
		s.meter = noMeter{}
	}
	return s, nil
}

// Name returns "tushare".
func (s *Source) Name() string { return Name }

// Publishes reports whether day is a weekday: the mainland exchanges
// trade on no weekend. Their holidays are answered with no rows.
func (s *Source) Publishes(day time.Time) bool { return feed.Weekday(day) }

// Holiday reports whether day is on the A-share exchanges' calendar of
// holidays.
func (s *Source) Holiday(day time.Time) bool { return calendar.AShare.Holiday(day) }

// Due returns 17:00 Beijing time of day.
func (s *Source) Due(day time.Time) time.Time { return day.Add(dueAfter) }

// Fetch returns the day's bars as one Tushare daily CSV file and, when the
// listings are due, the stock_basic listings as a second; or
// ports.ErrNoPublication when the day has no bars.
func (s *Source) Fetch(ctx context.Context, day time.Time) ([]ports.SourceFile, error) {
	date := day.Format("20060102")
	daily, err := s.file(ctx, "daily", map[string]string{"trade_date": date}, dailyFields, dataset.ChinaPrices, "daily_"+date+".csv")
	if err != nil {
		return nil, err
	}
	if daily == nil {
		return nil, fmt.Errorf("tushare daily %s: %w", day.Format(feed.DayLayout), ports.ErrNoPublication)
	}
	files := []ports.SourceFile{*daily}
	if l := s.listings(ctx); l != nil {
		files = append(files, *l)
	}
	return files, nil
}

// listings fetches stock_basic when a day has passed since it was last
// asked for. A failure is logged and the day goes on without it: the
// listings are a snapshot the next day's fetch takes again, and a token
// whose points reach `daily` but not stock_basic still keeps prices current.
func (s *Source) listings(ctx context.Context) *ports.SourceFile {
	s.mu.Lock()
	now := s.now()
	due := s.listedAt.IsZero() || now.Sub(s.listedAt) >= listingsEvery
	if due {
		s.listedAt = now
	}
	s.mu.Unlock()
	if !due {
		return nil
	}
	f, err := s.file(ctx, "stock_basic", map[string]string{"list_status": "L"}, listingFields, dataset.ChinaSecurities, "stock_basic.csv")
	if err != nil {
		s.log.Warn("tushare stock_basic not fetched; the day's bars load without the listings, asked for again in a day",
			zap.String("source", Name), zap.Error(err))
		return nil
	}
	return f
}

// file asks api for columns and writes the answer as the CSV file name of
// ds; nil when the answer has no rows.
func (s *Source) file(ctx context.Context, api string, params map[string]string, columns []string, ds dataset.ID, name string) (*ports.SourceFile, error) {
	res, a, err := s.query(ctx, api, params, columns)
	if err != nil {
		return nil, err
	}
	if len(a.Table.Items) == 0 {
		return nil, nil
	}
	if d, ok := params["trade_date"]; ok {
		if err := a.Table.Only("trade_date", d); err != nil {
			return nil, s.failed(api, fmt.Errorf("%w: tushare %s for %s: %v: not the day asked", ports.ErrSourceFailed, api, dashed(d), err))
		}
	}
	if a.Table.HasMore || len(a.Table.Items) >= rowCap {
		return nil, s.failed(api, fmt.Errorf("%w: tushare %s answered %d rows, has_more %t: the answer may stop short of every row",
			ports.ErrSourceFailed, api, len(a.Table.Items), a.Table.HasMore))
	}
	body, err := a.Table.CSV(columns)
	if err != nil {
		return nil, s.failed(api, fmt.Errorf("%w: tushare %s: %v", ports.ErrSourceFailed, api, err))
	}
	file, err := fetch.Spill(ctx, name, body, res.RetrievedAt)
	if err != nil {
		return nil, err
	}
	return &ports.SourceFile{Dataset: string(ds), Name: name, URL: res.URL + "#" + api, Path: file, Spooled: true, RetrievedAt: res.RetrievedAt}, nil
}

// query posts one request and returns its answer, or the error its
// refusal stands for.
func (s *Source) query(ctx context.Context, api string, params map[string]string, fields []string) (fetch.Response, Answer, error) {
	body, err := json.Marshal(map[string]any{"api_name": api, "token": s.token, "params": params, "fields": strings.Join(fields, ",")})
	if err != nil {
		return fetch.Response{}, Answer{}, err
	}
	var a Answer
	res, err := s.c.Post(ctx, "", "application/json", body, func(b []byte) error {
		var perr error
		a, perr = Parse(b)
		return perr
	})
	if res.File != "" {
		os.Remove(res.File) // parsed; the file loaded is written from the answer
	}
	if err != nil {
		return res, a, fmt.Errorf("tushare %s: %w", api, err)
	}
	if a.Code != 0 {
		return res, a, s.failed(api, refusal(api, a))
	}
	return res, a, nil
}

// failed logs and counts an answer the API served whole but that cannot
// be used; the client has logged the others.
func (s *Source) failed(api string, err error) error {
	s.meter.Failed(Name)
	msg := "tushare answer refused; nothing stored, the next run asks again"
	if errors.Is(err, ports.ErrSourceStopped) {
		msg = "tushare stopped serving this token; the source stops until an operator acts"
	}
	s.log.Error(msg, zap.String("source", Name), zap.String("api", api), zap.String("reason", err.Error()))
	return err
}

// dashed writes a Tushare date (YYYYMMDD) as a day is written elsewhere,
// YYYY-MM-DD; another value is returned as it is.
func dashed(d string) string {
	if t, err := time.Parse("20060102", d); err == nil {
		return t.Format(feed.DayLayout)
	}
	return d
}

// noMeter counts nothing.
type noMeter struct{}

func (noMeter) Requested(string)     {}
func (noMeter) Received(string, int) {}
func (noMeter) Failed(string)        {}
