package e2e

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarrydata/quarry/cmd/quarry/cli"
)

// TestRevocationUnderLoadOnTwoNodes runs two nodes on one PostgreSQL and one
// MongoDB-wire server, both authenticating the key from their caches, and
// revokes the key through one of them while both serve it under load. No
// request sent after the DELETE returned may be served data, on either
// node; every data response is charged exactly once, and nothing else is.
// Then the other node, told by PostgreSQL, refuses the key with 401 even
// where no debit is tried.
func TestRevocationUnderLoadOnTwoNodes(t *testing.T) {
	a, cfg := startApp(t, stack{postgres: true, mongo: true, rps: 1e5, burst: 100_000})
	other := cfg
	other.HTTPAddr = freeAddr(t)
	b := serveApp(t, other)
	session, key := signIn(t, a, "revoked-under-load@example.com")
	var keys struct {
		Keys []struct {
			KeyID string `json:"key_id"`
		} `json:"keys"`
	}
	a.do("GET", "/account/keys", nil, bearer(session)).expect(t, http.StatusOK).JSON(t, &keys)

	type outcome struct {
		node   string
		after  bool // sent once the DELETE had returned
		status int
	}
	var revoked, stop atomic.Bool
	var mu sync.Mutex
	counts := map[outcome]int{}
	httpc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	var wg sync.WaitGroup
	for _, node := range []*client{a, b} {
		for range 8 {
			wg.Go(func() {
				for !stop.Load() {
					after := revoked.Load()
					status, err := getStatus(httpc, node.base+"/china/securities/SSE.600519", key)
					if err != nil {
						t.Errorf("GET on %s: %v", node.base, err)
						return
					}
					mu.Lock()
					counts[outcome{node.base, after, status}]++
					mu.Unlock()
				}
			})
		}
	}
	// Both nodes serve the key before the DELETE and refuse it after, however
	// slowly a loaded machine answers: the waits are for outcomes, not times.
	seen := func(after bool, status int) bool {
		mu.Lock()
		defer mu.Unlock()
		return counts[outcome{a.base, after, status}] > 0 && counts[outcome{b.base, after, status}] > 0
	}
	waitFor(t, "both nodes serving the key", func() bool { return seen(false, http.StatusOK) })
	a.do("DELETE", "/account/keys/"+keys.Keys[0].KeyID, nil, bearer(session)).expect(t, http.StatusOK)
	revoked.Store(true)
	waitFor(t, "both nodes refusing the key", func() bool { return seen(true, http.StatusUnauthorized) })
	time.Sleep(200 * time.Millisecond)
	stop.Store(true)
	wg.Wait()

	var served int
	for o, n := range counts {
		switch {
		case o.status == http.StatusOK && o.after:
			t.Errorf("%s: %d requests sent after the DELETE returned were served data", o.node, n)
		case o.status == http.StatusOK:
			served += n
		case o.status != http.StatusUnauthorized:
			t.Errorf("%s: %d requests answered %d", o.node, n, o.status)
		}
	}
	for _, node := range []*client{a, b} {
		if counts[outcome{node.base, true, http.StatusUnauthorized}] == 0 || counts[outcome{node.base, false, http.StatusOK}] == 0 {
			t.Fatalf("%s: no data before or no refusal after the DELETE; counts %v", node.base, counts)
		}
	}
	t.Logf("outcomes: %v", counts)

	var st struct {
		Balance int64 `json:"balance"`
		Meta    struct {
			Total int `json:"total"`
		} `json:"meta"`
	}
	a.do("GET", "/account/credits?limit=1", nil, bearer(session)).expect(t, http.StatusOK).JSON(t, &st)
	if st.Meta.Total != 1+served || st.Balance != 100000-int64(served) {
		t.Fatalf("%d responses served data, but the ledger holds %d entries and a balance of %d", served, st.Meta.Total, st.Balance)
	}
	var out bytes.Buffer
	if err := cli.VerifyLedger(context.Background(), cfg, &out); err != nil {
		t.Fatalf("ledger verify: %v\n%s", err, out.String())
	}

	// A request refused before the debit (422 here) reaches no ledger: only
	// the dropped cache entry makes node b answer 401 to it.
	deadline := time.Now().Add(5 * time.Second)
	for {
		r := b.do("GET", "/china/securities/600519", nil, apiKey(key))
		if r.Status == http.StatusUnauthorized {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("node b still answers %d to the revoked key 5 s after the DELETE", r.Status)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func getStatus(c *http.Client, url, key string) (int, error) {
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("X-API-KEY", key)
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, err
}

// waitFor polls cond until it holds, failing the test after 30 seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
	}
}
