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
// the MongoDB-wire server, with the caches off, and takes the store away
// two ways: killed (the proxy down, its connections reset, its port
// refusing) and paused for 20 s (every connection open, the port
// accepting, nothing answered). Either way a metered request is answered
// 503 store_unavailable with Retry-After within the node's bound, not
// held, and costs nothing; once the store is back the route serves again,
// and what the client was told is what the ledger kept.
func TestDocumentStoreOutageIsRefunded(t *testing.T) {
	t.Run("killed", func(t *testing.T) {
		storeOutage(t, (*proxy).down, (*proxy).up, 0)
	})
	t.Run("paused", func(t *testing.T) {
		storeOutage(t, (*proxy).stall, func(p *proxy, _ *testing.T) { p.resume() }, 20*time.Second)
	})
}

// storeOutage runs a node through the proxy, begins an outage, asks
// during it (three times, and for at least lasts), ends it and asks until
// served.
func storeOutage(t *testing.T, begin func(*proxy), end func(*proxy, *testing.T), lasts time.Duration) {
	proxy := startProxy(t, servers.mongoURI)
	s := stack{mongo: true, credits: 1000, rps: 1e5, burst: 100_000}
	cfg := appConfig(t, s)
	copyMongoTemplate(t, cfg.MongoDB)
	cfg.MongoURI = "mongodb://" + proxy.addr + "/?directConnection=true"
	cfg.CacheBytes = 0
	cfg.MongoTimeout = time.Second
	node := serveApp(t, cfg)
	session, key := signIn(t, node, "mongo-outage@example.com")
	// A request the bound does not answer within 10 s is a failure of the
	// bound, not a slow answer.
	hc := &http.Client{Timeout: 10 * time.Second}
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
	begin(proxy)
	began := time.Now()
	var slowest time.Duration
	for n := 0; n < 3 || time.Since(began) < lasts; n++ {
		sent := time.Now()
		status, h := get()
		if status != http.StatusServiceUnavailable || h.Get("Retry-After") == "" || h.Get("X-Credits-Cost") != "0" {
			t.Fatalf("during the outage: %d, headers %v; want 503 with Retry-After, costing 0", status, h)
		}
		slowest = max(slowest, time.Since(sent))
	}
	t.Logf("document store away %v: every request 503, the slowest in %v", time.Since(began).Round(time.Millisecond), slowest.Round(time.Millisecond))
	end(proxy, t)
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
// port. stall holds every byte in either direction, as a paused server's
// connections do (open, the port accepting, nothing answered), until
// resume forwards what was held.
type proxy struct {
	addr, target string
	mu           sync.Mutex
	ln           net.Listener
	conns        []net.Conn
	held         chan struct{} // open while the proxy stalls, closed while bytes flow
}

func startProxy(t *testing.T, targetURI string) *proxy {
	u, err := url.Parse(targetURI)
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{addr: freeAddr(t), target: u.Host, held: make(chan struct{})}
	close(p.held)
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
		go func() { p.forward(s, c); _ = s.Close() }()
		go func() { p.forward(c, s); _ = c.Close() }()
	}
}

// forward copies from src to dst, each read held while the proxy stalls.
func (p *proxy) forward(dst io.Writer, src io.Reader) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			p.flowing()
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// flowing waits while the proxy stalls.
func (p *proxy) flowing() {
	p.mu.Lock()
	held := p.held
	p.mu.Unlock()
	<-held
}

// stall holds every byte from now on, in open connections and new ones.
func (p *proxy) stall() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.held = make(chan struct{})
}

// resume forwards what was held and what follows.
func (p *proxy) resume() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.held:
	default:
		close(p.held)
	}
}

func (p *proxy) down() {
	p.resume()
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
