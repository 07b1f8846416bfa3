package quarrytest_test

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/quarrydata/quarry/bootstrap"
)

// maxDeps bounds the packages a program importing quarrytest compiles,
// the standard library's included. 954 before bootstrap/durable took the
// durable backends out of the memory path, 624 after; what remains is
// the service itself (bleve's search, the Parquet and XLSX exports, the
// HTTP and MCP servers), B189.
const maxDeps = 640

// drivers are what a server on memory storage must not compile: the
// durable backends' drivers and the container kit's.
var drivers = []string{
	"github.com/FerretDB/",
	"github.com/jackc/pgx/",
	"go.mongodb.org/mongo-driver/",
	"modernc.org/sqlite",
	"github.com/testcontainers/",
	"google.golang.org/grpc",
	"github.com/quarrydata/quarry/bootstrap/durable",
}

// TestImportStaysLight holds quarrytest's dependencies, as `go list -deps`
// counts them, to maxDeps and free of the durable backends' drivers, so a
// suite importing it compiles an in-memory server and no database.
func TestImportStaysLight(t *testing.T) {
	deps := listDeps(t, ".")
	if len(deps) > maxDeps {
		t.Errorf("quarrytest compiles %d packages, more than %d", len(deps), maxDeps)
	}
	for _, dep := range deps {
		for _, d := range drivers {
			if strings.HasPrefix(dep, d) {
				t.Errorf("quarrytest compiles %s", dep)
			}
		}
	}
}

// listDeps returns the packages `go list -deps` lists for pkg, skipping
// the test when there is no go command to ask.
func listDeps(t *testing.T, pkg string) []string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command:", err)
	}
	cmd := exec.Command("go", "list", "-deps", pkg)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v\n%s", pkg, err, stderr.Bytes())
	}
	return strings.Fields(string(out))
}

// TestDurableSettingsAreRefused starts, in this test binary that installs
// no durable backends, the service on each durable setting: it fails to
// start, naming the setting and what builds the backends, rather than
// serving on memory.
func TestDurableSettingsAreRefused(t *testing.T) {
	for env, value := range map[string]string{
		bootstrap.EnvDataDir:     t.TempDir(),
		bootstrap.EnvPostgresURL: "postgres://u:p@db/quarry",
		bootstrap.EnvMongoURI:    "mongodb://db:27017",
	} {
		cfg, err := bootstrap.LoadConfig(func(k string) string { return map[string]string{env: value}[k] })
		if err != nil {
			t.Fatal(err)
		}
		err = fx.New(fx.NopLogger, bootstrap.Options(cfg, zap.NewNop())).Err()
		if err == nil || !strings.Contains(err.Error(), env+" is set, but this program serves on memory storage only") {
			t.Errorf("%s set: %v, want the memory-only refusal", env, err)
		}
	}
}
