package e2e

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/quarrydata/quarry/cmd/quarry/cli"
)

// TestThreeNodesShareOneLedger runs three nodes on one PostgreSQL and one
// MongoDB-wire server, as behind a load balancer. A session from one node
// is good on the others; a key revoked through one is refused on the next
// request at every node, its cache warm on all three; then twelve clients
// spread one account's keys round robin over the three nodes against a
// balance that runs out. No node overdraws: every 200 carries exactly one
// debit, the balance ends at 0 and the ledger verifies. The rate limit and
// the sign-in throttle across nodes are nodelimits_test.go's.
func TestThreeNodesShareOneLedger(t *testing.T) {
	const initial = 100
	n1, cfg := startApp(t, stack{postgres: true, mongo: true, credits: initial, rps: 1e5, burst: 100_000})
	nodes := []*client{n1}
	for range 2 {
		c := cfg
		c.HTTPAddr = freeAddr(t)
		nodes = append(nodes, serveApp(t, c))
	}

	session, _ := signIn(t, n1, "three-nodes@example.com")
	for i, n := range nodes {
		var st creditsBody
		n.do("GET", "/account/credits", nil, bearer(session)).expect(t, http.StatusOK).JSON(t, &st)
		if st.Balance != initial {
			t.Fatalf("node %d: balance %d with the session from node 1", i+1, st.Balance)
		}
	}

	// Keys minted on different nodes; the last one is revoked.
	var keys, ids []string
	for _, n := range nodes {
		var created struct {
			KeyID  string `json:"key_id"`
			APIKey string `json:"api_key"`
		}
		n.do("POST", "/account/keys", nil, bearer(session)).expect(t, http.StatusCreated).JSON(t, &created)
		keys, ids = append(keys, created.APIKey), append(ids, created.KeyID)
	}
	revoked, revokedID := keys[len(keys)-1], ids[len(ids)-1]
	keys = keys[:len(keys)-1]
	// Every node serves the key to be revoked once, so each has it cached.
	for _, n := range nodes {
		n.do("GET", "/china/securities/SSE.600519", nil, apiKey(revoked)).expect(t, http.StatusOK)
	}
	nodes[1].do("DELETE", "/account/keys/"+revokedID, nil, bearer(session)).expect(t, http.StatusOK)
	for i, n := range nodes {
		if r := n.do("GET", "/china/securities/SSE.600519", nil, apiKey(revoked)); r.Status != http.StatusUnauthorized {
			t.Errorf("node %d answers %d to the key revoked through node 2", i+1, r.Status)
		}
	}
	balance := int64(initial - len(nodes))
	if st := credits(t, nodes[2], session); st.Balance != balance {
		t.Fatalf("balance %d before the load, want %d", st.Balance, balance)
	}

	// The load: 12 clients, 20 requests each, round robin over nodes and keys.
	const clients, each = 12, 20
	type result struct {
		status    int
		requestID string
	}
	var mu sync.Mutex
	var results []result
	httpc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	var wg sync.WaitGroup
	for g := range clients {
		wg.Go(func() {
			for i := range each {
				n := nodes[(g+i)%len(nodes)]
				key := keys[(g+i/len(nodes))%len(keys)]
				status, id, err := getWithID(httpc, n.base+"/china/securities/SSE.600519", key)
				if err != nil {
					t.Errorf("GET on %s: %v", n.base, err)
					return
				}
				mu.Lock()
				results = append(results, result{status, id})
				mu.Unlock()
			}
		})
	}
	wg.Wait()

	served := map[string]bool{}
	statuses := map[int]int{}
	for _, r := range results {
		statuses[r.status]++
		if r.status == http.StatusOK {
			if r.requestID == "" || served[r.requestID] {
				t.Fatalf("a 200 with request id %q, empty or repeated", r.requestID)
			}
			served[r.requestID] = true
		}
	}
	t.Logf("statuses over three nodes: %v", statuses)
	if int64(statuses[http.StatusOK]) != balance || statuses[http.StatusPaymentRequired] != clients*each-int(balance) {
		t.Fatalf("statuses = %v, want %d OK and the rest 402", statuses, balance)
	}

	st := credits(t, nodes[0], session)
	if st.Balance != 0 {
		t.Fatalf("balance %d after the load, want 0", st.Balance)
	}
	// The ledger is newest first: replayed from the oldest entry, the
	// balance never goes below 0.
	var running int64
	for i := len(st.Ledger) - 1; i >= 0; i-- {
		if running += st.Ledger[i].Amount; running < 0 {
			t.Fatalf("the balance went to %d at entry %s", running, st.Ledger[i].EntryID)
		}
	}
	debits := map[string]int{}
	for _, e := range st.Ledger {
		if e.Kind == "debit" && e.RequestID != nil {
			debits[*e.RequestID]++
		}
	}
	for id := range served {
		if debits[id] != 1 {
			t.Errorf("response %s was charged by %d debits", id, debits[id])
		}
	}
	if len(debits) != len(served)+len(nodes) {
		t.Errorf("%d debits for %d responses served under load and %d before", len(debits), len(served), len(nodes))
	}
	var out bytes.Buffer
	if err := cli.VerifyLedger(context.Background(), cfg, &out); err != nil {
		t.Fatalf("ledger verify: %v\n%s", err, out.String())
	}
}

// getWithID sends a GET with the key and returns the status and the
// X-Request-ID the node gave the request.
func getWithID(c *http.Client, url, key string) (int, string, error) {
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("X-API-KEY", key)
	resp, err := c.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return 0, "", fmt.Errorf("reading the body: %w", err)
	}
	return resp.StatusCode, resp.Header.Get("X-Request-ID"), nil
}
