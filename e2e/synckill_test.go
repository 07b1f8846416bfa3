package e2e

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/domain/nse"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/quarrytest/replay"
)

// nseDays are the replay server's eight real UDiFF days.
var nseDays = []string{"2025-06-18", "2025-06-19", "2025-06-20", "2025-06-23", "2025-06-24", "2025-06-25", "2025-06-26", "2025-06-27"}

// TestSyncSurvivesSIGKILL runs the binary's `quarry sync nse` over the
// replay server's eight real UDiFF days into a data directory, and kills it
// with SIGKILL at three points: once it has asked for the fourth day, and
// half a second and two seconds after it asked for the last (while it
// writes the batch, or after). After the kill each day is held whole or not at all; the same
// command is then run again to its end, and every data directory holds,
// day by day, what a clean run's holds. Where the kill lands moves with
// the machine's speed; the outcome must not.
func TestSyncSurvivesSIGKILL(t *testing.T) {
	srv := replay.New(t)
	srv.AddNSE(t)
	bin := buildQuarry(t)
	clean := t.TempDir() + "/clean"
	syncNSE(t, bin, clean, srv.URL, nil)
	want := heldNSEDays(t, clean)
	if len(want) != len(nseDays) {
		t.Fatalf("the clean run holds %d days, want %d", len(want), len(nseDays))
	}
	for name, killAt := range map[string]func([]replay.Request) bool{
		"at the fourth day": asked(nseDays[3], 0),
		"after the last":    asked(nseDays[7], 500*time.Millisecond),
		"later still":       asked(nseDays[7], 2*time.Second),
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir() + "/killed"
			syncNSE(t, bin, dir, srv.URL, func() bool { return killAt(srv.Requests()) })
			whole := 0
			for day, rows := range heldNSEDays(t, dir) {
				switch {
				case slices.EqualFunc(rows, want[day], sameRow):
					whole++
				case len(rows) > 0:
					t.Fatalf("%s after the kill: %d rows of the %d a clean run holds", day, len(rows), len(want[day]))
				}
			}
			t.Logf("after the kill, %d of the %d days held whole, none in part", whole, len(nseDays))
			syncNSE(t, bin, dir, srv.URL, nil)
			got := heldNSEDays(t, dir)
			for _, day := range nseDays {
				if !slices.EqualFunc(got[day], want[day], sameRow) {
					t.Fatalf("%s: %d rows after the kill and the second run, %d in a clean run", day, len(got[day]), len(want[day]))
				}
			}
		})
	}
}

// asked is a kill point: the replay server has been asked for day's file,
// at least wait ago.
func asked(day string, wait time.Duration) func([]replay.Request) bool {
	file := "BhavCopy_NSE_CM_0_0_0_" + strings.ReplaceAll(day, "-", "") + "_F_0000.csv.zip"
	return func(reqs []replay.Request) bool {
		i := slices.IndexFunc(reqs, func(r replay.Request) bool { return strings.HasSuffix(r.Path, file) })
		return i >= 0 && time.Since(reqs[i].At) >= wait
	}
}

// syncNSE runs `quarry sync nse` over nseDays into the data directory dir
// against the replay server at url. With kill, it is killed with SIGKILL
// as soon as kill says so (or at its end, if it ends first); without, it
// must succeed.
func syncNSE(t *testing.T, bin, dir, url string, kill func() bool) {
	t.Helper()
	cmd := exec.Command(bin, "sync", "nse", "--from", nseDays[0], "--to", nseDays[len(nseDays)-1])
	cmd.Env = append(os.Environ(), bootstrap.EnvDataDir+"="+dir, bootstrap.EnvNSEBaseURL+"="+url, bootstrap.EnvLogLevel+"=error")
	out := &strings.Builder{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	if kill == nil {
		if err := <-done; err != nil {
			t.Fatalf("quarry sync nse: %v\n%s", err, out)
		}
		return
	}
	for tick := time.NewTicker(time.Millisecond); ; {
		select {
		case <-done:
			t.Logf("the run ended before its kill point:\n%s", out)
			return
		case <-tick.C:
			if kill() {
				_ = cmd.Process.Signal(syscall.SIGKILL)
				<-done
				return
			}
		}
	}
}

// heldNSEDays opens the data directory dir in this process and returns the
// rows each of nseDays holds, in their stored order.
func heldNSEDays(t *testing.T, dir string) map[string][]nse.Row {
	t.Helper()
	cfg, err := bootstrap.LoadConfig(func(k string) string {
		return map[string]string{bootstrap.EnvDataDir: dir, bootstrap.EnvHTTPAddr: freeAddr(t), bootstrap.EnvMetricsAddr: "off",
			bootstrap.EnvSampleData: "false"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	var store ports.IndiaPriceStore
	app := fx.New(fx.NopLogger, bootstrap.Options(cfg, zap.NewNop()), fx.Populate(&store))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := app.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = app.Stop(ctx) }()
	held := map[string][]nse.Row{}
	for _, day := range nseDays {
		rows, err := store.OnDate(ctx, day)
		if err != nil {
			t.Fatal(err)
		}
		held[day] = rows
	}
	return held
}

// sameRow compares what two runs stored of a row: all but when it became
// known, which follows the time it was fetched.
func sameRow(a, b nse.Row) bool {
	a.KnownAt, b.KnownAt = time.Time{}, time.Time{}
	return a == b
}
