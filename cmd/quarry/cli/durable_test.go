package cli_test

// The commands' tests run on data directories, so the test binary installs
// the durable backends, as cmd/quarry does.
import _ "github.com/quarrydata/quarry/bootstrap/durable"
