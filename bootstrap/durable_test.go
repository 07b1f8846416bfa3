package bootstrap_test

// The wiring tests build PostgreSQL, MongoDB and data directory graphs, so
// the test binary installs the durable backends, for the package's own
// tests too.
import _ "github.com/quarrydata/quarry/bootstrap/durable"
