package bootstrap_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/fx"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/quarrydata/quarry/app/chinasecurities"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/ingest"
	"github.com/quarrydata/quarry/ports"
)

// TestStartDataPerDataset starts the service with one dataset loaded from
// files, one left empty and the rest from their samples, and checks what
// each then holds.
func TestStartDataPerDataset(t *testing.T) {
	csv := filepath.Join(t.TempDir(), "stock_basic.csv")
	body := "ts_code,symbol,name,area,industry,cnspell,market,list_date,act_name,act_ent_type\n" +
		"000001.SZ,000001,平安银行,深圳,银行,PAYH,主板,19910403,无实际控制人,其他\n"
	if err := os.WriteFile(csv, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := memoryConfig(t)
	cfg.Files = map[string][]string{"china_securities": {csv}}
	cfg.Empty = []string{"us_financials"}
	fixed := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	cfg.Clock = func() time.Time { return fixed }

	var got struct {
		fx.In
		Availability *usecase.Availability
		China        *chinasecurities.Service
		Clock        usecase.Clock
	}
	start(t, cfg, fx.Populate(&got))
	ctx := context.Background()

	if _, err := got.China.Security(ctx, mustCode(t, "SZSE.000001")); err != nil {
		t.Errorf("the listing from the given file: %v", err)
	}
	if _, err := got.China.Security(ctx, mustCode(t, "SSE.600519")); !errors.Is(err, ports.ErrNotFound) {
		t.Errorf("a sample listing, with files given instead: %v, want not found", err)
	}
	for id, serving := range map[dataset.ID]bool{
		dataset.ChinaSecurities: true, dataset.USFinancials: false,
		dataset.USFilingIndexes: true, dataset.USSearch: true, dataset.USFundHolders: true,
	} {
		st, err := got.Availability.Status(ctx, id)
		if err != nil || st.Serving() != serving {
			t.Errorf("%s: %+v, %v; want serving %v", id, st, err, serving)
		}
	}
	if now := got.Clock(); !now.Equal(fixed) {
		t.Errorf("clock: %v, want the configured %v", now, fixed)
	}
}

// TestStartDataRefusesUnknownNames checks that a misspelt dataset, or a
// dataset given no files, stops the start with a message naming it.
func TestStartDataRefusesUnknownNames(t *testing.T) {
	for name, set := range map[string]func(*bootstrap.Config){
		"files":    func(c *bootstrap.Config) { c.Files = map[string][]string{"china-listings": {"x.csv"}} },
		"empty":    func(c *bootstrap.Config) { c.Empty = []string{"us_financial"} },
		"no files": func(c *bootstrap.Config) { c.Files = map[string][]string{"us_filing_indexes": nil} },
	} {
		t.Run(name, func(t *testing.T) {
			cfg := memoryConfig(t)
			set(&cfg)
			err := fx.New(fx.NopLogger, bootstrap.Options(cfg, zap.NewNop())).Err()
			if err == nil || !strings.Contains(err.Error(), "dataset") {
				t.Fatalf("start: %v, want a refusal naming the dataset", err)
			}
		})
	}
}

// TestStartServesAGivenListener checks that the service serves the
// listener it is given rather than opening one on HTTPAddr.
func TestStartServesAGivenListener(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg := memoryConfig(t)
	cfg.HTTPAddr, cfg.Listener = "127.0.0.1:1", ln
	start(t, cfg)
	res, err := http.Get("http://" + ln.Addr().String() + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /healthz: %s", res.Status)
	}
}

func memoryConfig(t *testing.T) bootstrap.Config {
	t.Helper()
	cfg, err := bootstrap.LoadConfig(func(k string) string {
		if k == bootstrap.EnvHTTPAddr {
			return "127.0.0.1:0"
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func start(t *testing.T, cfg bootstrap.Config, opts ...fx.Option) {
	t.Helper()
	fxApp := fx.New(fx.NopLogger, bootstrap.Options(cfg, zap.NewNop()), fx.Options(opts...))
	if err := fxApp.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = fxApp.Stop(context.Background()) })
}

func mustCode(t *testing.T, s string) ashare.Code {
	t.Helper()
	c, err := ashare.ParseCode(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestAnEmptyDatasetNamesTheCommandThatFillsIt: with every dataset left
// empty, the 503 of each names the `quarry ingest` command that loads it,
// or, for the judgments, whose governed source is not configured, the
// settings that configure it.
func TestAnEmptyDatasetNamesTheCommandThatFillsIt(t *testing.T) {
	cfg := memoryConfig(t)
	for _, d := range bootstrap.IngestDatasets() {
		cfg.Empty = append(cfg.Empty, d.Name)
	}
	var got struct {
		fx.In
		Availability *usecase.Availability
	}
	start(t, cfg, fx.Populate(&got))
	want := map[dataset.ID]string{
		dataset.USFinancials:    "`quarry ingest us_financials` or `quarry sync edgar --from YYYY-MM-DD`",
		dataset.USFilingIndexes: "`quarry ingest us_filing_indexes`",
		dataset.USSearch:        "`quarry ingest us_filing_indexes`",
		dataset.USFundHolders:   "`quarry ingest us_security_fund_holders` or `quarry sync edgar --from YYYY-MM-DD`",
		dataset.ChinaSecurities: "`quarry ingest china_securities`",
		dataset.ChinaPrices:     "`quarry ingest china_prices`",
		dataset.IndiaPrices:     "`quarry ingest india_prices` or `quarry sync nse --from YYYY-MM-DD`",
		dataset.IndiaExports:    "`quarry ingest india_prices` or `quarry sync nse --from YYYY-MM-DD`",
		dataset.IndiaJudgments:  "",
		dataset.IndiaSearch:     "",
		dataset.AskRetrieval:    "`quarry ingest china_securities`, `quarry ingest us_filing_indexes` or `quarry ingest us_financials`",
	}
	for _, d := range dataset.Catalog() {
		err := got.Availability.Require(context.Background(), d.ID)
		var un *usecase.UnavailableError
		if !errors.As(err, &un) {
			t.Errorf("%s: %v, want unavailable", d.ID, err)
			continue
		}
		msg := "an operator loads it with " + want[d.ID]
		if d.ID == dataset.IndiaJudgments || d.ID == dataset.IndiaSearch {
			msg = "governed_source_not_configured; an operator sets QUARRY_JUDGMENTS_INBOX and QUARRY_VAULT_KEY (never for serve) and runs `quarry sync judgments`, or loads files with `quarry ingest india_judgments FILE` and the key"
		} else if want[d.ID] == "" {
			t.Errorf("%s: no remedy expected", d.ID)
		}
		if !strings.HasSuffix(err.Error(), msg) {
			t.Errorf("%s: %q, want it to end %q", d.ID, err, msg)
		}
	}
}

// TestStartLogsWhatTheSearchIndexesHold: the start-up lines count the
// sections and judgments the indexes hold once the samples are loaded, not
// what the last refresh added (none: storing the sample indexed them).
func TestStartLogsWhatTheSearchIndexesHold(t *testing.T) {
	_, sections, err := ingest.LoadUSFilingsSample()
	if err != nil {
		t.Fatal(err)
	}
	judgments, err := ingest.LoadJudgmentsSample()
	if err != nil {
		t.Fatal(err)
	}
	core, logs := observer.New(zap.InfoLevel)
	fxApp := fx.New(fx.NopLogger, bootstrap.Options(memoryConfig(t), zap.New(core)))
	if err := fxApp.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = fxApp.Stop(context.Background()) })
	for msg, want := range map[string]map[string]int64{
		"US filing search index ready":      {"sections": int64(len(sections))},
		"India judgment search index ready": {"judgments": int64(len(judgments))},
	} {
		lines := logs.FilterMessage(msg).All()
		if len(lines) != 1 {
			t.Fatalf("%d lines %q", len(lines), msg)
		}
		for field, n := range want {
			if got := lines[0].ContextMap()[field]; got != n || n == 0 {
				t.Errorf("%s: %s = %v, want %d", msg, field, got, n)
			}
		}
	}
}
