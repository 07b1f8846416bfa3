package e2e

import (
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"
)

// TestDocumentStoreOutageIsRefunded puts a TCP proxy between a node and
// the MongoDB-wire server, with the caches off, and takes the proxy down
// as a killed server is (its connections reset, its port refusing): a
// metered request is answered 503 store_unavailable with Retry-After within
// the node's bound, not held, and costs nothing; once the proxy is back the
// route serves again, and what the client was told is what the ledger kept.
func TestDocumentStoreOutageIsRefunded(t *testing.T) {
	proxy := startProxy(t, servers.mongoURI)
	s := stack{mongo: true, credits: 1000, rps: 1e5, burst: 100_000}
	cfg := appConfig(t, s)
	copyMongoTemplate(t, cfg.MongoDB)
	cfg.MongoURI = "mongodb://" + proxy.addr + "/?directConnection=true"
	cfg.CacheBytes = 0
	cfg.MongoTimeout = time.Second
	node := serveApp(t, cfg)
	session, key := signIn(t, node, "mongo-outage@example.com")
	hc := &http.Client{Timeout: 30 * time.Second}
	path := node.base + "/china/securities/SSE.600519"
	var told int64
	get := func() (int, http.Header) {
		status, h := getHeaders(t, hc, path, key)
		cost, err := strconv.ParseInt(h.Get("X-Credits-Cost"), 10, 64)
		if err != nil {
			t.Fatalf("status %d without X-Credits-Cost", status)
		}
		told += cost
		return status, h
	}
	if status, _ := get(); status != http.StatusOK {
		t.Fatalf("before the outage: %d", status)
	}
	proxy.down()
	for range 3 {
		began := time.Now()
		status, h := get()
		if status != http.StatusServiceUnavailable || h.Get("Retry-After") == "" || h.Get("X-Credits-Cost") != "0" {
			t.Fatalf("during the outage: %d, headers %v; want 503 with Retry-After, costing 0", status, h)
		}
		t.Logf("document store down: 503 in %v", time.Since(began).Round(time.Millisecond))
	}
	proxy.up(t)
	back := time.Now()
	for status, _ := get(); status != http.StatusOK; status, _ = get() {
		if time.Since(back) > time.Minute {
			t.Fatalf("not served a minute after the store came back: %d", status)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("document store back: served again after %v", time.Since(back).Round(time.Millisecond))
	if kept := 1000 - balanceOf(t, node, session); kept != told {
		t.Fatalf("told %d credits, the ledger kept %d", told, kept)
	}
}

func getHeaders(t *testing.T, hc *http.Client, url, key string) (int, http.Header) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-API-KEY", key)
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, resp.Header
}

// proxy forwards loopback connections to a server; down closes them and
// its port, as a killed server's are, and up listens again on the same
// port.
type proxy struct {
	addr, target string
	mu           sync.Mutex
	ln           net.Listener
	conns        []net.Conn
}

func startProxy(t *testing.T, targetURI string) *proxy {
	u, err := url.Parse(targetURI)
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{addr: freeAddr(t), target: u.Host}
	p.up(t)
	t.Cleanup(p.down)
	return p
}

func (p *proxy) up(t *testing.T) {
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go p.accept(ln)
}

func (p *proxy) accept(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			_ = c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, s)
		p.mu.Unlock()
		go func() { _, _ = io.Copy(s, c); _ = s.Close() }()
		go func() { _, _ = io.Copy(c, s); _ = c.Close() }()
	}
}

func (p *proxy) down() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		_ = p.ln.Close()
		p.ln = nil
	}
	for _, c := range p.conns {
		_ = c.Close()
	}
	p.conns = nil
}
