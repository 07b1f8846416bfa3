package bootstrap_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/julienschmidt/httprouter"
	"go.uber.org/fx"

	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/dataset"
)

// csvRows is the number of rows the test route streams: enough to pass the
// server's 4 KiB write buffer, so rows reach the client before a failure.
const csvRows = 2000

// streamedCSV serves GET /india/prices.csv as a test route whose body
// fails where the X-Test-Fail header says: "none", "before" the first byte,
// "panic" before it, "after" some rows, or "small" after a few bytes.
func streamedCSV() httpadapter.DataHandler {
	return httpadapter.DataHandler{Method: "GET", Path: "/india/prices.csv", Prepare: func(r *http.Request, _ httprouter.Params) (httpadapter.Serve, error) {
		fail := r.Header.Get("X-Test-Fail")
		return func(context.Context) (httpadapter.Response, error) {
			return httpadapter.Response{
				MediaType: "text/csv; charset=utf-8",
				Header:    http.Header{"Content-Disposition": {`attachment; filename="prices.csv"`}},
				Body:      func(_ context.Context, w io.Writer) error { return writeRows(w, fail) },
			}, nil
		}, nil
	}}
}

func writeRows(w io.Writer, fail string) error {
	switch fail {
	case "before":
		return errors.New("store failed before the first row")
	case "panic":
		panic("handler bug before the first row")
	}
	if _, err := io.WriteString(w, "symbol,close\n"); err != nil {
		return err
	}
	if fail == "small" {
		return errors.New("store failed after the header")
	}
	for i := range csvRows {
		if _, err := fmt.Fprintf(w, "TCS,%d.00\n", 3000+i); err != nil {
			return err
		}
	}
	if fail == "after" {
		return errors.New("store failed mid-stream")
	}
	return nil
}

// TestStreamedBodiesAreChargedFromTheirFirstByte shows both sides of the
// streaming rule: a body that fails before its first byte is refunded and
// answered as an error; one that fails after it is charged and reaches the
// client visibly truncated.
func TestStreamedBodiesAreChargedFromTheirFirstByte(t *testing.T) {
	// The real GET /india/prices.csv handler gives way to the test route,
	// whose body fails on demand.
	srv, session, key := memoryServer(t, fx.Decorate(fx.Annotate(func(hs []httpadapter.DataHandler) []httpadapter.DataHandler {
		out := []httpadapter.DataHandler{streamedCSV()}
		for _, h := range hs {
			if h.Path != "/india/prices.csv" {
				out = append(out, h)
			}
		}
		return out
	}, fx.ParamTags(`group:"handlers"`), fx.ResultTags(`group:"handlers"`))),
		// The dataset serves whether or not its sample is loaded.
		fx.Decorate(fx.Annotate(func(ps []usecase.DatasetProbe) []usecase.DatasetProbe {
			out := []usecase.DatasetProbe{{Dataset: dataset.IndiaPrices, Probe: func(context.Context) (bool, error) { return true, nil }}}
			for _, p := range ps {
				if p.Dataset != dataset.IndiaPrices {
					out = append(out, p)
				}
			}
			return out
		}, fx.ParamTags(`group:"probes"`), fx.ResultTags(`group:"probes"`))))
	ts := httptest.NewServer(srv)
	defer ts.Close()
	for _, tc := range []struct {
		fail      string
		status    int
		cost      int64
		truncated bool
	}{
		{"none", http.StatusOK, 25, false},
		{"before", http.StatusInternalServerError, 0, false},
		{"panic", http.StatusInternalServerError, 0, false},
		{"after", http.StatusOK, 25, true},
		{"small", http.StatusOK, 25, true},
	} {
		t.Run(tc.fail, func(t *testing.T) {
			before := balance(t, srv, session)
			// The failure is asked by a header: the route takes no query
			// parameter its operation does not declare.
			req, err := http.NewRequest("GET", ts.URL+"/india/prices.csv", nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("X-API-KEY", key)
			req.Header.Set("X-Test-Fail", tc.fail)
			resp, err := ts.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, readErr := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, body)
			}
			if got := resp.Header.Get("X-Credits-Cost"); got != strconv.FormatInt(tc.cost, 10) {
				t.Errorf("X-Credits-Cost %q, want %d", got, tc.cost)
			}
			if spent := before - balance(t, srv, session); spent != tc.cost {
				t.Errorf("balance fell by %d, want %d", spent, tc.cost)
			}
			checkBody(t, tc.status, tc.truncated, resp.Header, body, readErr)
		})
	}
}

func checkBody(t *testing.T, status int, truncated bool, h http.Header, body []byte, readErr error) {
	t.Helper()
	switch {
	case truncated && !errors.Is(readErr, io.ErrUnexpectedEOF):
		t.Errorf("a body cut short read as complete (%d bytes, err %v)", len(body), readErr)
	case truncated && !strings.HasPrefix(string(body), "symbol,close\n"):
		t.Errorf("the truncated body lost what was written: %.40q", body)
	case !truncated && readErr != nil:
		t.Errorf("read: %v", readErr)
	case status == http.StatusOK && !truncated:
		if n := strings.Count(string(body), "\n"); n != csvRows+1 || h.Get("Content-Type") != "text/csv; charset=utf-8" || h.Get("Content-Disposition") == "" {
			t.Errorf("complete body: %d lines, Content-Type %q, Content-Disposition %q", n, h.Get("Content-Type"), h.Get("Content-Disposition"))
		}
	case status != http.StatusOK:
		var e struct{ Error, Message string }
		if err := json.Unmarshal(body, &e); err != nil || e.Error != "internal" || h.Get("Content-Type") != "application/json" {
			t.Errorf("failure before the first byte answered %q (%s)", body, h.Get("Content-Type"))
		}
	}
}

// balance reads the account's balance through GET /account/credits.
func balance(t *testing.T, h http.Handler, session string) int64 {
	t.Helper()
	var credits struct {
		Balance int64 `json:"balance"`
	}
	call(t, h, "GET", "/account/credits", "", http.Header{"Authorization": {"Bearer " + session}}, &credits)
	return credits.Balance
}
