package mongo

import (
	"context"
	"fmt"
	"strings"
	"time"

	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/mongo/readpref"

	"github.com/quarrydata/quarry/ports"
)

// pingTimeout bounds the first ping, so a wrong host fails start-up within
// seconds instead of after the driver's 30 s server selection timeout.
const pingTimeout = 10 * time.Second

// minHeartbeat is the shortest heartbeat interval the driver accepts.
const minHeartbeat = 500 * time.Millisecond

// Connect opens a client for uri and pings the primary, as ConnectWithin
// does with the driver's own timeouts.
func Connect(ctx context.Context, uri string) (*mongodrv.Client, error) {
	return ConnectWithin(ctx, uri, 0)
}

// ConnectWithin opens a client for uri and pings the primary. A positive
// timeout bounds how long an operation waits for a server to answer
// (server selection), unless the URI sets serverSelectionTimeoutMS,
// connectTimeoutMS or heartbeatFrequencyMS: a store that is down then fails
// an operation with ports.ErrUnavailable within it, instead of after the
// driver's 30 s. Half of it is the interval of the driver's heartbeats, so
// a store that is back is found within that, and the bound on a connection
// attempt and on a heartbeat's answer: a store that is paused (its
// connections open, nothing answered) fails a heartbeat and the retry the
// driver makes of it, which interrupts the operations waiting on it,
// within about two and a half times the timeout. Every error wraps
// ports.ErrUnavailable and names the hosts, never the URI itself, which
// usually carries a password.
func ConnectWithin(ctx context.Context, uri string, timeout time.Duration) (*mongodrv.Client, error) {
	opts := options.Client().SetAppName("quarry")
	if timeout > 0 {
		half := max(timeout/2, minHeartbeat)
		opts.SetServerSelectionTimeout(timeout).SetConnectTimeout(half).SetHeartbeatInterval(half)
	}
	opts.ApplyURI(uri)
	if err := opts.Validate(); err != nil {
		return nil, fmt.Errorf("mongo: invalid URI: %w: %s", ports.ErrUnavailable, describeURIError(uri, err))
	}
	client, err := mongodrv.Connect(opts)
	if err != nil {
		return nil, fmt.Errorf("mongo: cannot open a client for %s: %w: %v", hosts(opts), ports.ErrUnavailable, err)
	}
	ctx, cancel := context.WithTimeout(ctx, pingTimeout)
	defer cancel()
	if err := client.Ping(ctx, readpref.Primary()); err != nil {
		_ = client.Disconnect(context.WithoutCancel(ctx))
		return nil, fmt.Errorf("mongo: cannot reach %s: %w: %v", hosts(opts), ports.ErrUnavailable, err)
	}
	return client, nil
}

// hosts lists the servers named by the URI; host names are not secrets.
func hosts(opts *options.ClientOptions) string {
	return strings.Join(opts.Hosts, ",")
}

// describeURIError explains why the driver rejected uri. Its parse errors can
// quote fragments of the user info or of password options, so they are
// withheld whenever the URI may carry credentials.
func describeURIError(uri string, err error) string {
	if strings.Contains(uri, "@") || strings.Contains(strings.ToLower(uri), "password") {
		return "details withheld because the URI carries credentials; check the scheme, the hosts, " +
			"the percent-encoding of the user name and password, and the options"
	}
	return err.Error()
}
