package main

import (
	"bytes"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestMemoryBuildLeavesOutTheDrivers lists the packages of the binary
// built with and without the quarry_memory tag: with it (`go tool task
// run`), no durable backend and none of their drivers; without it, the
// durable backends.
func TestMemoryBuildLeavesOutTheDrivers(t *testing.T) {
	const durable = "github.com/quarrydata/quarry/bootstrap/durable"
	if full := deps(t); !slices.Contains(full, durable) {
		t.Errorf("the default build leaves out %s", durable)
	}
	for _, dep := range deps(t, "-tags", "quarry_memory") {
		for _, d := range []string{durable, "github.com/FerretDB/", "github.com/jackc/pgx/", "go.mongodb.org/mongo-driver/", "modernc.org/sqlite"} {
			if strings.HasPrefix(dep, d) {
				t.Errorf("the quarry_memory build compiles %s", dep)
			}
		}
	}
}

// deps returns the packages `go list -deps` lists for this command with
// flags, skipping the test when there is no go command to ask.
func deps(t *testing.T, flags ...string) []string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command:", err)
	}
	cmd := exec.Command("go", append(append([]string{"list", "-deps"}, flags...), ".")...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps %v: %v\n%s", flags, err, stderr.Bytes())
	}
	return strings.Fields(string(out))
}
