package http_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	httpadapter "github.com/quarrydata/quarry/adapters/http"
)

// rawConn serves h as the service does and dials it.
func rawConn(t *testing.T, h http.Handler) (net.Conn, *bufio.Reader) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h, ErrorLog: zap.NewStdLog(zap.NewNop()), ConnContext: httpadapter.ConnContext, DisableGeneralOptionsHandler: true}
	go func() { _ = srv.Serve(httpadapter.JSONErrors(ln)) }()
	t.Cleanup(func() { _ = srv.Close() })
	conn, err := net.DialTimeout("tcp", ln.Addr().String(), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	return conn, bufio.NewReader(conn)
}

// smuggled follows a request with both framings: a proxy framing it by its
// Content-Length would take it for a request of its own.
const smuggled = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"

// TestBothLengthsAre400AndClose: a request carrying Transfer-Encoding and
// Content-Length is answered 400 and its connection closed, so that what
// follows it on the connection is never served; requests framed one way are
// served as before, pipelined behind each other.
func TestBothLengthsAre400AndClose(t *testing.T) {
	srv, err := httpadapter.NewServer(httpadapter.Deps{Log: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	for name, head := range map[string]string{
		"chunked then length": "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n",
		"length then chunked": "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n",
		"other cases":         "content-length: 5\r\nTRANSFER-ENCODING: Chunked\r\n",
	} {
		t.Run(name, func(t *testing.T) {
			conn, rd := rawConn(t, srv)
			if _, err := io.WriteString(conn, "POST /healthz HTTP/1.1\r\nHost: x\r\n"+head+"\r\n0\r\n\r\n"+smuggled); err != nil {
				t.Fatal(err)
			}
			expectAmbiguous(t, rd)
			if resp, err := http.ReadResponse(rd, nil); err == nil {
				t.Fatalf("the request behind it was answered %s; want the connection closed", resp.Status)
			}
		})
	}

	conn, rd := rawConn(t, srv)
	pipeline := "POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 40\r\n\r\n" +
		"Transfer-Encoding: chunked\r\nContent-Le" + // a body, not headers
		"POST /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" +
		"1a;ext=1\r\nContent-Length: 5\r\n\r\nabcde\r\n0\r\nX-Trailer: y\r\n\r\n" +
		"OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n" +
		"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Long: a\r\n b\r\n\r\n" +
		"POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
	if _, err := io.WriteString(conn, pipeline); err != nil {
		t.Fatal(err)
	}
	for i, want := range []int{http.StatusMethodNotAllowed, http.StatusMethodNotAllowed, http.StatusOK, http.StatusOK} {
		resp, err := http.ReadResponse(rd, nil)
		if err != nil {
			t.Fatalf("pipelined request %d: %v", i+1, err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Fatalf("pipelined request %d: %s, want %d", i+1, resp.Status, want)
		}
	}
	expectAmbiguous(t, rd)
}

func expectAmbiguous(t *testing.T, rd *bufio.Reader) {
	t.Helper()
	resp, err := http.ReadResponse(rd, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct{ Error, Message string }
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || resp.StatusCode != http.StatusBadRequest ||
		body.Error != "invalid_request" || !strings.Contains(body.Message, "both Transfer-Encoding and Content-Length") || !resp.Close {
		t.Fatalf("%s %+v (%v), close %v; want 400 naming both headers, and the connection closed", resp.Status, body, err, resp.Close)
	}
}
