package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestRateLimitHoldsAcrossNodes runs nodes on one PostgreSQL with a limit of
// 20 requests per second and a burst of 20, and spreads one key's requests
// round robin over two nodes, then over three. Each time the nodes together
// admit burst + rate × elapsed within 10%, as one node would: the bucket is
// PostgreSQL's, leased to the nodes a tenth of the burst at a time.
func TestRateLimitHoldsAcrossNodes(t *testing.T) {
	const rps, burst = 20, 20
	n1, cfg := startApp(t, stack{postgres: true, rps: rps, burst: burst})
	nodes := []*client{n1}
	for range 2 {
		c := cfg
		c.HTTPAddr = freeAddr(t)
		nodes = append(nodes, serveApp(t, c))
	}
	session, _ := signIn(t, n1, "rate-nodes@example.com")
	for _, count := range []int{2, 3} {
		var created struct {
			APIKey string `json:"api_key"`
		}
		n1.do("POST", "/account/keys", nil, bearer(session)).expect(t, http.StatusCreated).JSON(t, &created)
		admitted, elapsed := hammer(t, nodes[:count], created.APIKey, 3*time.Second)
		want := burst + rps*elapsed.Seconds()
		t.Logf("%d nodes: %d admitted in %s, one node's bucket allows %.0f (ratio %.3f)",
			count, admitted, elapsed.Round(time.Millisecond), want, float64(admitted)/want)
		if float64(admitted) > want*1.1 || float64(admitted) < want*0.9 {
			t.Errorf("%d nodes admitted %d, want %.0f within 10%%", count, admitted, want)
		}
	}
}

// hammer sends GETs with key round robin over nodes from 16 clients for the
// given time and returns how many were admitted (200) and how long the
// first request to the last answer took. Every other answer must be 429.
func hammer(t *testing.T, nodes []*client, key string, d time.Duration) (int, time.Duration) {
	t.Helper()
	httpc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	var mu sync.Mutex
	statuses := map[int]int{}
	start := time.Now()
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Go(func() {
			for i := 0; time.Since(start) < d; i++ {
				n := nodes[(g+i)%len(nodes)]
				status, _, err := getWithID(httpc, n.base+"/china/securities/SSE.600519", key)
				if err != nil {
					t.Errorf("GET on %s: %v", n.base, err)
					return
				}
				mu.Lock()
				statuses[status]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	if len(statuses) > 2 || statuses[http.StatusOK]+statuses[http.StatusTooManyRequests] != sumOf(statuses) {
		t.Fatalf("statuses %v, want only 200 and 429", statuses)
	}
	return statuses[http.StatusOK], elapsed
}

func sumOf(m map[int]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// TestSigninThrottleHoldsAcrossNodes: wrong passwords for one email from one
// address, sent to three nodes at once, are verified 5 times in all (the
// per-address burst), not 5 times per node.
func TestSigninThrottleHoldsAcrossNodes(t *testing.T) {
	n1, cfg := startApp(t, stack{postgres: true})
	nodes := []*client{n1}
	for range 2 {
		c := cfg
		c.HTTPAddr = freeAddr(t)
		nodes = append(nodes, serveApp(t, c))
	}
	const email = "throttle-nodes@example.com"
	signIn(t, n1, email)
	var mu sync.Mutex
	statuses := map[int]int{}
	var wg sync.WaitGroup
	for i := range 30 {
		wg.Go(func() {
			n := nodes[i%len(nodes)]
			body := `{"email":"` + email + `","password":"a wrong guess, long enough"}`
			resp, err := http.Post(n.base+"/account/login", "application/json", strings.NewReader(body))
			if err != nil {
				t.Errorf("POST /account/login: %v", err)
				return
			}
			resp.Body.Close()
			mu.Lock()
			statuses[resp.StatusCode]++
			mu.Unlock()
		})
	}
	wg.Wait()
	t.Logf("30 wrong passwords over three nodes: %v", statuses)
	if statuses[http.StatusUnauthorized] != 5 || statuses[http.StatusTooManyRequests] != 25 {
		t.Fatalf("statuses %v, want 5 verified (401) and 25 throttled (429)", statuses)
	}
}

// TestSignupLimitHoldsAcrossNodes: first sign-ins of eight new emails from
// one address, sent to three nodes at once, create 5 accounts in all (the
// address's sign-up limit), not 5 per node; the address still signs in to
// an account it has.
func TestSignupLimitHoldsAcrossNodes(t *testing.T) {
	n1, cfg := startApp(t, stack{postgres: true})
	nodes := []*client{n1}
	for range 2 {
		c := cfg
		c.HTTPAddr = freeAddr(t)
		nodes = append(nodes, serveApp(t, c))
	}
	var mu sync.Mutex
	statuses, messages := map[int]int{}, map[string]int{}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			email := fmt.Sprintf("signup-nodes-%d@example.com", i)
			r := nodes[i%len(nodes)].do("POST", "/account/login", map[string]string{"email": email, "password": "correct horse battery staple"})
			var body struct{ Message string }
			_ = json.Unmarshal(r.Body, &body)
			mu.Lock()
			statuses[r.Status]++
			if r.Status == http.StatusTooManyRequests {
				messages[body.Message]++
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	t.Logf("8 sign-ups from one address over three nodes: %v %v", statuses, messages)
	const refusal = "too many accounts created from this address; try again in 12 minutes"
	if statuses[http.StatusOK] != 5 || statuses[http.StatusTooManyRequests] != 3 || messages[refusal] != 3 {
		t.Fatalf("statuses %v, messages %v; want 5 created (200) and 3 refused (429) with %q", statuses, messages, refusal)
	}
	var created int
	for i := range 8 {
		r := nodes[2].do("POST", "/account/login", map[string]string{"email": fmt.Sprintf("signup-nodes-%d@example.com", i), "password": "correct horse battery staple"})
		if r.Status == http.StatusOK {
			created++
		}
	}
	if created != 5 {
		t.Fatalf("%d accounts sign in afterwards, want the 5 created", created)
	}
}
