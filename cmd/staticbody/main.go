// Command staticbody answers every request for /N (GET or POST) with a
// JSON body of N bytes, made once, through Go's net/http: the limit a
// route answering N bytes meets on this machine with the same load
// generator, beside which `go tool task bench` and scripts/benchcompare.sh
// set each route. It is not part of the product.
package main

import (
	"bytes"
	"flag"
	"io"
	"log"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18483", "address to listen on")
	flag.Parse()
	srv := &http.Server{Addr: *addr, Handler: &bodies{}, ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.ListenAndServe())
}

// bodies serves the body of each size asked, made at its first request.
type bodies struct{ made sync.Map }

// ServeHTTP answers /N with N bytes of JSON, a request body read and
// dropped as a route's is read.
func (b *bodies) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/"))
	if err != nil || n < 0 || n > 64<<20 {
		http.Error(w, "ask for /N, N bytes (at most 64 MiB)", http.StatusBadRequest)
		return
	}
	_, _ = io.Copy(io.Discard, r.Body)
	body, ok := b.made.Load(n)
	if !ok {
		body, _ = b.made.LoadOrStore(n, jsonOf(n))
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(n))
	_, _ = w.Write(body.([]byte))
}

// jsonOf is a JSON document of n bytes ({"x":"xxx…"}), or n spaces when
// n is too short for one.
func jsonOf(n int) []byte {
	const frame = len(`{"x":""}`)
	if n < frame {
		return bytes.Repeat([]byte(" "), n)
	}
	return []byte(`{"x":"` + strings.Repeat("x", n-frame) + `"}`)
}
