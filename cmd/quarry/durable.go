//go:build !quarry_memory

package main

// Without the quarry_memory tag the binary serves on every storage:
// PostgreSQL, MongoDB and the data directory as well as memory. `go tool
// task run` builds with the tag, which leaves their drivers out (B188).
import _ "github.com/quarrydata/quarry/bootstrap/durable"
