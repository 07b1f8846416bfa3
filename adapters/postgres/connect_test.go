package postgres_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/adapters/postgres"
	"github.com/quarrydata/quarry/ports"
)

// A malformed URL must say what is wrong without echoing the password, and is
// a configuration mistake rather than an unavailable store.
func TestConnectRejectsMalformedURLWithoutEchoingIt(t *testing.T) {
	cases := map[string]string{
		"postgres://quarry:hunter2@db.internal:notaport/quarry":            "invalid port",
		"postgres://quarry:hunter2@db.internal/quarry?pool_max_conns=lots": "pool_max_conns",
		"postgres://quarry:hunter2%zz@db.internal/quarry":                  "password",
		"host=db.internal password=hunter2 port=abc":                       "invalid port",
	}
	for url, reason := range cases {
		_, err := postgres.Connect(context.Background(), url)
		if err == nil {
			t.Fatalf("Connect(%q) succeeded", url)
		}
		msg := err.Error()
		if strings.Contains(msg, "hunter2") || !strings.Contains(msg, reason) {
			t.Errorf("Connect error %q: want the reason %q and no password", msg, reason)
		}
		if errors.Is(err, ports.ErrUnavailable) {
			t.Errorf("Connect error %q is ErrUnavailable", msg)
		}
	}
}
