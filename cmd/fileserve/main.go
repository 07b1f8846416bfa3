// Command fileserve serves a directory over HTTP as a mirror of a source's
// host serves its files (Content-Length, Last-Modified, 304 on
// If-Modified-Since, 404 for a file it does not hold), so that a
// benchmark can time `quarry sync` against files laid out at a source's
// real URL paths (scripts/bench-scale.sh). It is not part of the product.
package main

import (
	"flag"
	"log"
	"net/http"
	"time"
)

func main() {
	dir := flag.String("dir", ".", "directory to serve")
	addr := flag.String("addr", "127.0.0.1:18600", "address to listen on")
	flag.Parse()
	srv := &http.Server{Addr: *addr, Handler: http.FileServer(http.Dir(*dir)), ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.ListenAndServe())
}
