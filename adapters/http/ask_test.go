package http_test

import (
	"context"
	"crypto/rand"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	bleveadapter "github.com/quarrydata/quarry/adapters/bleve"
	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/app/ask"
	"github.com/quarrydata/quarry/app/chinasecurities"
	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/app/usfilings"
	"github.com/quarrydata/quarry/app/usfinancials"
	"github.com/quarrydata/quarry/domain/account"
	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/domain/ledger"
)

// TestAskWithNothingToSearchIsRefusedBeforeTheCharge: a question whose
// datasets, jurisdictions or key leave Ask nothing to read is refused
// before the debit, 403 when only the key's permissions stand in the way,
// else 422, its message listing the exclusions, and the balance stays
// whole. Only the China listings hold data here.
func TestAskWithNothingToSearchIsRefusedBeforeTheCharge(t *testing.T) {
	ctx := context.Background()
	now := func() time.Time { return time.Date(2026, 7, 20, 9, 0, 0, 0, time.UTC) }
	p := memory.NewPlatform()
	acc := account.Account{ID: "acc_1", Email: "a@example.com", PasswordHash: "$argon2id$test", CreatedAt: now()}
	if err := p.Provision(ctx, acc, ledger.Entry{ID: "led_1", AccountID: acc.ID, Kind: ledger.Grant, Amount: 1000, CreatedAt: now()}); err != nil {
		t.Fatal(err)
	}
	mint := func(id string, scopes ...string) string {
		secret, err := apikey.Generate(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		k := apikey.Key{ID: id, AccountID: acc.ID, Name: id, Prefix: apikey.Prefix(secret), Hash: apikey.Digest(secret), Scopes: scopes, CreatedAt: now()}
		if err := p.CreateKey(ctx, k, 10); err != nil {
			t.Fatal(err)
		}
		return secret
	}
	reader, askOnly := mint("key_reader", "rag:search", "china:read"), mint("key_ask", "rag:search")

	securities := memory.NewSecurities()
	if err := securities.UpsertSecurities(ctx, []ashare.Security{{Code: "SSE.600519", Exchange: "SSE", Board: "main", CompanyName: "贵州茅台", ListingDate: "2001-08-27", Listed: true}}); err != nil {
		t.Fatal(err)
	}
	idx, err := bleveadapter.New()
	if err != nil {
		t.Fatal(err)
	}
	filings := memory.NewFilings()
	ask := ask.New(usfinancials.New(memory.NewFinancials(), now, nil), chinasecurities.New(securities), usfilings.New(filings, filings, idx), nil)
	available := usecase.NewAvailability([]usecase.DatasetProbe{chinasecurities.New(securities).Probe(), ask.Probe()})
	srv, err := httpadapter.NewServer(httpadapter.Deps{
		Metering:     platform.NewMetering(p, p, now),
		Limiter:      platform.NewRateLimiter(memory.NewLimits(), 1000, 1000, now),
		Availability: available,
		Handlers:     httpadapter.AskHandlers(ask, available, now),
		Log:          zap.NewNop(),
	})
	if err != nil {
		t.Fatal(err)
	}
	post := func(key, body string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", "/ask", strings.NewReader(body))
		r.Header.Set("X-API-KEY", key)
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		return w
	}
	balance := func() int64 {
		b, err := p.Balance(ctx, acc.ID)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}

	for _, c := range []struct {
		name, key, body string
		status          int
		lists           string // an exclusion the message must name
	}{
		{"a dataset holding no data", reader, `{"question":"What did SSE.600519 close at?","datasets":["china_prices"]}`, http.StatusUnprocessableEntity, "china_prices (not_activated)"},
		{"neither activated", reader, `{"question":"What did SSE.600519 close at?","datasets":["india_prices","us_financials"]}`, http.StatusUnprocessableEntity, "us_financials (not_activated)"},
		{"jurisdiction with nothing activated", reader, `{"question":"When was 贵州茅台 listed?","jurisdictions":["US"]}`, http.StatusUnprocessableEntity, "china_securities (not_requested)"},
		{"the dataset asked for needs a permission", askOnly, `{"question":"When was 贵州茅台 listed?","datasets":["china_securities"]}`, http.StatusForbidden, "china_securities (permission_missing)"},
		{"every dataset needs a permission", askOnly, `{"question":"When was 贵州茅台 listed?"}`, http.StatusForbidden, "china_securities (permission_missing)"},
	} {
		before := balance()
		w := post(c.key, c.body)
		if w.Code != c.status || !strings.Contains(w.Body.String(), "nothing to search") || !strings.Contains(w.Body.String(), c.lists) {
			t.Errorf("%s: %d %s, want %d naming %s", c.name, w.Code, w.Body, c.status, c.lists)

		}
		if got := balance(); got != before || w.Header().Get("X-Credits-Cost") != "0" {
			t.Errorf("%s: balance %d -> %d, X-Credits-Cost %q; want nothing debited", c.name, before, got, w.Header().Get("X-Credits-Cost"))
		}
	}

	// A question with something to search is charged, answered or not.
	before := balance()
	if w := post(reader, `{"question":"When was 贵州茅台 listed?"}`); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "2001-08-27") {
		t.Fatalf("answerable: %d %s", w.Code, w.Body)
	}
	if got := balance(); got != before-25 {
		t.Fatalf("balance %d -> %d, want one answer charged (25)", before, got)
	}
}
