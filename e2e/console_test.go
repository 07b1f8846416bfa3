package e2e

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// envRequireBrowser makes a missing Chromium a failure instead of a skip;
// CI sets it, so the browser test cannot silently stop running there.
const envRequireBrowser = "QUARRY_REQUIRE_BROWSER"

// chromium returns the path of the Chromium binary: Debian's real binary
// rather than its wrapper script, or whatever "chromium" is on PATH.
func chromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"/usr/lib/chromium/chromium"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv(envRequireBrowser) == "1" {
		t.Fatalf("%s=1 but no Chromium is installed: apt-get install -y chromium", envRequireBrowser)
	}
	t.Skipf("no Chromium installed (apt-get install -y chromium); set %s=1 to make this a failure", envRequireBrowser)
	return ""
}

// TestConsoleInBrowser drives the console in headless Chromium on memory and
// on PostgreSQL: sign up, mint a key and see it once, revoke it, run a
// request with "try it" (and see the 403 of a credential lacking the
// permission), see the ledger row and the chart change, read the catalog,
// sign out. It writes a screenshot of each page to e2e/screenshots/.
func TestConsoleInBrowser(t *testing.T) {
	exe := chromium(t)
	for name, s := range map[string]stack{"memory": {}, "postgres": {postgres: true}} {
		t.Run(name, func(t *testing.T) {
			c, _ := startApp(t, s)
			walkConsole(t, c, exe, filepath.Join("screenshots", name))
		})
	}
}

// browser is one headless Chromium tab, with what its console and CSP
// reported.
type browser struct {
	t        *testing.T
	ctx      context.Context
	shots    string
	n        int
	mu       sync.Mutex
	problems []string
}

func newBrowser(t *testing.T, exe, shots string) *browser {
	t.Helper()
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.WindowSize(1280, 900), chromedp.Flag("disable-dev-shm-usage", true))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(alloc)
	ctx, cancelTime := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(func() { cancelTime(); cancelTab(); cancelAlloc() })
	b := &browser{t: t, ctx: ctx, shots: shots}
	// Every console error and uncaught exception is a failure: a CSP
	// violation (an inline script or style) reports itself there.
	// The browser starts on the tab's own context: one cancelled by a
	// step's timeout would close it.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	err := chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning {
				b.report(fmt.Sprintf("console %s: %d arguments", e.Type, len(e.Args)))
			}
		case *cdplog.EventEntryAdded:
			if e.Entry.Level == cdplog.EntryLevelError {
				b.report(fmt.Sprintf("log %s: %s %s", e.Entry.Source, e.Entry.Text, e.Entry.URL))
			}
		case *runtime.EventExceptionThrown:
			b.report("exception: " + e.ExceptionDetails.Text)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func (b *browser) report(p string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.problems = append(b.problems, p)
}

// stepTimeout bounds one step, so that a page that never shows what a step
// waits for fails with what it shows instead.
const stepTimeout = 30 * time.Second

func (b *browser) run(what string, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, stepTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		b.t.Fatalf("%s: %v\npage: %s", what, err, b.showing())
	}
}

// showing is the URL and text of the page, for a failure message.
func (b *browser) showing() string {
	ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
	defer cancel()
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href + "\n" + document.body.innerText`))
	if err != nil {
		return err.Error()
	}
	return text
}

// value runs one action that returns a value.
func value[T any](b *browser, what string, a chromedp.Action[T]) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, a)
	if err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
	return v
}

// shot writes a full-page screenshot named for the step.
func (b *browser) shot(name string) {
	b.t.Helper()
	b.save(name, value(b, "screenshot "+name, chromedp.FullScreenshot(100)))
}

// shotView writes a screenshot of what the window shows.
func (b *browser) shotView(name string) {
	b.t.Helper()
	b.save(name, value(b, "screenshot "+name, chromedp.CaptureScreenshot()))
}

func (b *browser) save(name string, png []byte) {
	b.t.Helper()
	b.n++
	path := filepath.Join(b.shots, fmt.Sprintf("%02d-%s.png", b.n, name))
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

func (b *browser) text(sel string) string {
	b.t.Helper()
	return strings.TrimSpace(value(b, "text of "+sel, chromedp.Text(chromedp.CSS(sel))))
}

func (b *browser) html() string {
	b.t.Helper()
	return value(b, "page source", chromedp.OuterHTML(chromedp.CSS("html")))
}

func (b *browser) chartTotal() int {
	b.t.Helper()
	v := value(b, "chart total", chromedp.AttributeValue(chromedp.CSS("#usage-chart"), "data-total"))
	n, err := strconv.Atoi(v.Value)
	if !v.Exists || err != nil {
		b.t.Fatalf("chart data-total %q", v.Value)
	}
	return n
}

// phoneWidth and phoneHeight are a phone held upright, in CSS pixels.
const phoneWidth, phoneHeight = 390, 844

// onPhone shows the current page at a phone's width, screenshots it (the
// whole page, or what the screen shows), and fails if anything makes the
// page wider than the screen (a table must scroll inside its own box) or
// draws the chart's labels too small to read; then it restores the
// desktop window.
func (b *browser) onPhone(name, table string, whole bool) {
	b.t.Helper()
	b.run("phone viewport", chromedp.EmulateViewport(phoneWidth, phoneHeight), chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(table)))
	problems := value(b, "phone layout", chromedp.Evaluate[string](fmt.Sprintf(phoneCheck, table)))
	if whole {
		b.shot(name + "-phone")
	} else {
		b.shotView(name + "-phone")
	}
	// EmulateReset would set a 0 x 0 override, which keeps the narrow
	// layout; clearing the override gives the window back its own size.
	if _, err := chromedp.Call(b.ctx, emulation.ClearDeviceMetricsOverride, cdp.Empty{}); err != nil {
		b.t.Fatalf("clear the phone viewport: %v", err)
	}
	b.run("desktop viewport", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(table)))
	if problems != "" {
		b.t.Errorf("%s at %d px wide: %s", name, phoneWidth, problems)
	}
}

// phoneCheck lists what does not fit a narrow window: the page wider than
// the window, the table's box reaching past it, a cell of the table out of
// sight (a table of records is a card per row on a phone, so every column
// shows without scrolling), and a chart label drawn under minLabelPx
// pixels high.
const phoneCheck = `(() => {
  const w = window.innerWidth, out = [];
  const page = document.documentElement.scrollWidth;
  if (page > w) out.push("the page is " + page + " px wide in a " + w + " px window");
  const table = document.querySelector(%[1]q);
  const box = table.parentElement.getBoundingClientRect();
  if (box.right > w) out.push("the table's box ends at " + Math.round(box.right) + " px");
  for (const cell of table.querySelectorAll("td, th")) {
    const r = cell.getBoundingClientRect();
    if (r.width > 0 && r.right > w + 1) { out.push("a column is out of sight: a cell ends at " + Math.round(r.right) + " px"); break; }
  }
  for (const t of document.querySelectorAll("svg.chart text.tick")) {
    const h = t.getBoundingClientRect().height;
    if (h > 0 && h < ` + minLabelPx + `) { out.push("a chart label is " + h.toFixed(1) + " px high"); break; }
  }
  return out.join("; ");
})()`

// minLabelPx is the least height of a chart label's box, in CSS pixels:
// about a 9 px font, the smallest a phone user reads without zooming.
const minLabelPx = "11"

// try sends the "try it" form and waits for its status.
func (b *browser) try(status string) {
	b.t.Helper()
	b.run("try it", chromedp.Click(chromedp.CSS("#try-send")))
	value(b, "try it answers "+status, chromedp.Poll[bool](
		fmt.Sprintf(`document.getElementById("try-status").textContent.startsWith(%q)`, status),
		chromedp.WithPollingTimeout(20*time.Second)))
}

func walkConsole(t *testing.T, c *client, exe, shots string) {
	b := newBrowser(t, exe, shots)
	base := c.base

	// Anyone not signed in is sent to the sign-up form.
	b.run("open the console", chromedp.Navigate(base+"/console/keys"), chromedp.WaitVisible(chromedp.CSS("#signup-form")))
	if grant := b.text("#grant"); grant != "100,000 credits" {
		t.Fatalf("sign-up page shows the grant as %q", grant)
	}
	b.shot("signup")

	// Sign up: the first sign-in provisions the account and shows its grant.
	b.run("sign up",
		chromedp.SendKeys(chromedp.CSS("#email"), "hopper@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), "a long enough passphrase"),
		chromedp.Click(chromedp.CSS("#signin")),
		chromedp.WaitVisible(chromedp.CSS("#welcome")))
	if w := b.text("#welcome"); !strings.Contains(w, "100,000 credits") {
		t.Fatalf("welcome says %q", w)
	}
	cookies := sessionCookie(t, b)

	// Mint a key: shown once, with a copy button, and a real key.
	b.run("mint a key",
		chromedp.SendKeys(chromedp.CSS("#key-name"), "laptop"),
		chromedp.Click(chromedp.CSS("#mint")),
		chromedp.WaitVisible(chromedp.CSS("#new-key-secret")))
	secret := b.text("#new-key-secret")
	if !regexp.MustCompile(`^qk_[0-9A-Za-z]{38}$`).MatchString(secret) {
		t.Fatalf("minted key shown as %q", secret)
	}
	if !strings.Contains(b.text("#new-key"), "only time the key is shown") {
		t.Fatal("the minted key is shown without the store-it-now warning")
	}
	b.shot("key-minted")
	c.do("GET", "/china/securities/SSE.600519", nil, apiKey(secret)).expect(t, http.StatusOK)
	b.run("back to keys", chromedp.Navigate(base+"/console/keys"), chromedp.WaitVisible(chromedp.CSS("#keys")))
	if strings.Contains(b.html(), secret) || strings.Contains(b.html(), secret[12:]) {
		t.Fatal("the key is in the page after its one-time display")
	}
	stored := value(b, "storage", chromedp.Evaluate[string](`JSON.stringify([localStorage.length, sessionStorage.length, document.cookie])`))
	if stored != `[0,0,""]` {
		t.Fatalf("the page keeps something a script can read: %s", stored)
	}
	b.shot("keys")
	b.onPhone("keys", "#keys", true)

	// Revoke it, after a confirmation page; it stops working at once.
	b.run("revoke",
		chromedp.Click(chromedp.CSS(`#keys a.danger`)),
		chromedp.WaitVisible(chromedp.CSS("#confirm-revoke")))
	b.shot("revoke-confirm")
	b.run("confirm", chromedp.Click(chromedp.CSS("#confirm-revoke")), chromedp.WaitVisible(chromedp.CSS("#revoked-notice")))
	if st := b.text("#keys tbody tr .status"); !strings.HasPrefix(st, "revoked") {
		t.Fatalf("key status after revoking: %q", st)
	}
	c.do("GET", "/china/securities/SSE.600519", nil, apiKey(secret)).expect(t, http.StatusUnauthorized)
	b.shot("key-revoked")

	// The chart before "try it": the key's one request.
	b.run("credits", chromedp.Navigate(base+"/console/credits"), chromedp.WaitVisible(chromedp.CSS("#usage-chart")))
	before := b.chartTotal()
	if before != 1 {
		t.Fatalf("chart total %d before try it, want the key's 1 credit", before)
	}

	// Try it with a browser credential: 200, charged 1 credit.
	b.run("try page", chromedp.Navigate(base+"/console/try"), chromedp.WaitVisible(chromedp.CSS("#try-form")))
	b.try("200")
	if cost, left := b.text("#try-cost"), b.text("#try-remaining"); cost != "1" || left != "99998" {
		t.Fatalf("try it: cost %q, remaining %q", cost, left)
	}
	if body := b.text("#try-body-out"); !strings.Contains(body, `"SSE.600519"`) {
		t.Fatalf("try it body: %s", body)
	}
	if cred := b.text("#try-credential"); !strings.HasPrefix(cred, "bcr_") {
		t.Fatalf("try it credential shown as %q", cred)
	}
	b.shot("try-it")

	// The same request with a credential lacking china:read: 403, free.
	b.run("untick china:read", chromedp.Click(chromedp.CSS(`input[value="china:read"]`)))
	b.try("403")
	if cost := b.text("#try-cost"); cost != "0" {
		t.Fatalf("a 403 cost %q", cost)
	}
	b.shot("try-it-403")
	b.onPhone("try-it", "#try-form", true)

	// The ledger row and the chart moved by exactly the one charged request.
	b.run("credits again", chromedp.Navigate(base+"/console/credits"), chromedp.WaitVisible(chromedp.CSS("#ledger")))
	if after := b.chartTotal(); after != before+1 {
		t.Fatalf("chart total %d after try it, want %d", after, before+1)
	}
	row := b.text("#ledger tbody tr")
	if !strings.Contains(row, "debit") || !strings.Contains(row, "GET /china/securities/{code}") || !strings.Contains(row, "bcr_") {
		t.Fatalf("newest ledger row: %q", row)
	}
	if bal := b.text("#balance"); bal != "99,998" {
		t.Fatalf("balance shown as %q", bal)
	}
	b.shot("credits")
	b.onPhone("credits", "#ledger", true)

	b.run("catalog", chromedp.Navigate(base+"/console/catalog"), chromedp.WaitVisible(chromedp.CSS("#catalog")))
	if cat := b.text("#catalog"); !strings.Contains(cat, "GET /china/securities/{code}") || !strings.Contains(cat, "china:read") {
		t.Fatalf("catalog page: %.300s", cat)
	}
	b.shot("catalog")
	b.onPhone("catalog", "#catalog", true)

	// A CSV export tried: its first lines shown, the whole offered as a file.
	b.run("try a CSV", chromedp.Navigate(base+"/console/try"), chromedp.WaitVisible(chromedp.CSS("#try-form")),
		chromedp.SetValue(chromedp.CSS("#try-path"), "/india/prices.csv?symbol=NIITTECH"))
	b.try("200")
	// The status is shown before the body, which is read from a Blob.
	value(b, "the CSV's first lines shown", chromedp.Poll[bool](`document.getElementById("try-body-out").textContent.length > 0`,
		chromedp.WithPollingTimeout(10*time.Second)))
	body := b.text("#try-body-out")
	if !strings.HasPrefix(body, "symbol,series,isin,date,") || !strings.Contains(body, "\nNIITTECH,EQ,") {
		t.Fatalf("the CSV's first lines shown as %.300q", body)
	}
	if name := value(b, "download", chromedp.Evaluate[string](`document.getElementById("try-download").hidden ? "" : document.getElementById("try-download-link").download`)); !strings.HasSuffix(name, ".csv") {
		t.Fatalf("the CSV is offered for download as %q", name)
	}
	b.shot("try-it-csv")

	// The reference, linked from every page's footer; the top of it, as it
	// is some hundred screens long.
	b.run("docs", chromedp.Click(chromedp.CSS("#docs-link")), chromedp.WaitVisible(chromedp.CSS("#op-get_china_prices")))
	if ops := value(b, "operations", chromedp.Evaluate[int](`document.querySelectorAll("article.op").length`)); ops < 20 {
		t.Fatalf("the reference shows %d operations", ops)
	}
	b.shotView("docs")
	b.run("an operation", chromedp.Navigate(base+"/docs#op-get_china_prices"), chromedp.WaitVisible(chromedp.CSS("#op-get_china_prices table.fields")))
	b.shotView("docs-operation")
	b.onPhone("docs", "table.fields", false)
	// An example's command and answer scroll in their own boxes on a phone.
	b.run("an example", chromedp.Navigate(base+"/docs#op-get_catalog"), chromedp.WaitVisible(chromedp.CSS("#op-get_catalog pre.example")))
	b.onPhone("docs-example", "#op-get_catalog pre.example.answer", false)
	b.run("back to the console", chromedp.Click(chromedp.CSS(`header nav a[href="/console/"]`)), chromedp.WaitVisible(chromedp.CSS("#keys")))

	// Sign out ends the session itself, not only the cookie.
	b.run("sign out", chromedp.Click(chromedp.CSS("#signout")), chromedp.WaitVisible(chromedp.CSS("#signup-form")))
	c.do("GET", "/account/keys", nil, bearer(cookies)).expect(t, http.StatusUnauthorized)
	b.run("signed out", chromedp.Navigate(base+"/console/credits"), chromedp.WaitVisible(chromedp.CSS("#signup-form")))
	b.shot("signed-out")

	// The base address sends a browser to the console.
	b.run("front door", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#signup-form")))
	if at := value(b, "location", chromedp.Evaluate[string](`location.pathname`)); at != "/console/signup" {
		t.Fatalf("%s/ ended at %s", base, at)
	}

	b.mu.Lock()
	defer b.mu.Unlock()
	// The 403 of the narrowed request is the only error a page may log.
	for _, p := range b.problems {
		if !strings.Contains(p, "403") {
			t.Errorf("browser reported: %s", p)
		}
	}
}

// sessionCookie returns the console's session cookie: HttpOnly,
// SameSite=Strict, scoped to /console. Its value is a session token.
func sessionCookie(t *testing.T, b *browser) string {
	t.Helper()
	res, err := chromedp.Call(b.ctx, network.GetCookies, network.GetCookiesParams{})
	if err != nil {
		t.Fatal(err)
	}
	cookies := res.Cookies
	for _, c := range cookies {
		if c.Name == "quarry_console" {
			if !c.HTTPOnly || c.SameSite != network.CookieSameSiteStrict || c.Path != "/console" {
				t.Fatalf("session cookie %+v", c)
			}
			return c.Value
		}
	}
	t.Fatalf("no session cookie among %d", len(cookies))
	return ""
}
