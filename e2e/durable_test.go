package e2e

// The suite serves on PostgreSQL, MongoDB and data directories.
import _ "github.com/quarrydata/quarry/bootstrap/durable"
