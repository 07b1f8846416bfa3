package mcpbridge

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestConnectFollowsNoRedirect: a remote that redirects the bridge to
// another port is an error naming the Location, and the other server never
// sees the key (it saw it before: the key rode every request, redirected
// ones too).
func TestConnectFollowsNoRedirect(t *testing.T) {
	var keys, hits atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.Header.Get("X-API-KEY") != "" || r.Header.Get("Authorization") != "" {
			keys.Add(1)
		}
		http.Error(w, "no", http.StatusUnauthorized)
	}))
	defer other.Close()
	for _, code := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect, http.StatusFound} {
		remote := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL+"/mcp", code)
		}))
		_, err := Connect(context.Background(), remote.URL+"/mcp", "qk_secret", "test")
		remote.Close()
		if err == nil || !strings.Contains(err.Error(), other.URL+"/mcp") || !strings.Contains(err.Error(), "redirect") {
			t.Errorf("%d: %v, want an error naming the redirect to %s", code, err, other.URL)
		}
		if strings.Contains(err.Error(), "qk_secret") {
			t.Errorf("%d: the error shows the key: %v", code, err)
		}
	}
	if keys.Load() != 0 || hits.Load() != 0 {
		t.Errorf("the other server was sent %d requests, %d with the key", hits.Load(), keys.Load())
	}
}

// TestConnectSaysTheRemotesRefusal: a remote refusing the key is an error
// with the remote's status, code and message, not the status text alone.
func TestConnectSaysTheRemotesRefusal(t *testing.T) {
	remote := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"error":"unauthorized","message":"missing or invalid API key","request_id":"req_1"}`))
	}))
	defer remote.Close()
	_, err := Connect(context.Background(), remote.URL+"/mcp", "qk_bad", "test")
	if err == nil || !strings.Contains(err.Error(), "401 unauthorized: missing or invalid API key") {
		t.Errorf("%v, want the remote's message", err)
	}
}
