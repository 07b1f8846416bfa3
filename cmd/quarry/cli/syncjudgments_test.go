package cli_test

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/cmd/quarry/cli"
)

// TestSyncJudgmentsCommand runs `quarry sync judgments` and `quarry sync
// status` on a data directory: a delivery of one real Supreme Court
// judgment's metadata (Kalawati (d) through LRs v Rakesh Kumar, 2018) and an
// excerpt of its text is taken, and a cut copy of it refused.
func TestSyncJudgmentsCommand(t *testing.T) {
	inbox := t.TempDir()
	p := filepath.Join(inbox, "kalawati.zip")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for name, body := range map[string]string{
		"meta.jsonl": `{"court":"Supreme Court of India","case_number":"Civil Appeal No. 2244 of 2018","title":"Kalawati (d), through Lrs. and others v Rakesh Kumar and others",` +
			`"parties":[{"name":"Kalawati","role":"appellant"},{"name":"Rakesh Kumar","role":"respondent"}],"decision_date":"2018-02-16","text_file":"kalawati.txt"}` + "\n",
		"kalawati.txt": "4. The appellants (Kalawati and others) are aggrieved by the judgment and decree dated 10th December, 2013.\n",
	} {
		w, _ := zw.Create(name)
		_, _ = w.Write([]byte(body))
	}
	if err := zw.Close(); err != nil || f.Close() != nil {
		t.Fatal(err)
	}
	whole, _ := os.ReadFile(p)
	_ = os.WriteFile(filepath.Join(inbox, "cut.zip"), whole[:len(whole)-40], 0o600)
	old := time.Now().Add(-time.Hour)
	for _, n := range []string{"kalawati.zip", "cut.zip"} {
		_ = os.Chtimes(filepath.Join(inbox, n), old, old)
	}
	cfg, err := bootstrap.LoadConfig(func(k string) string {
		return map[string]string{bootstrap.EnvDataDir: t.TempDir(), bootstrap.EnvJudgmentsInbox: inbox, bootstrap.EnvVaultKey: strings.Repeat("07", 32)}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	err = cli.Sync(t.Context(), cfg, cli.SyncArgs{Sources: []string{"judgments"}}, &out)
	if err == nil || !strings.Contains(out.String(), "judgments: 1 files, 1 records, 1 refused; refused 1 of 2 deliveries: cut.zip: ingest india_judgments: bad input") {
		t.Fatalf("sync: %v\n%s", err, out.String())
	}
	out.Reset()
	if err := cli.SyncStatus(t.Context(), cfg, &out); err != nil || !strings.Contains(out.String(), "judgments: configured; inbox; 1 files, 1 records, 1 refused; last success never") ||
		!strings.Contains(out.String(), "judgments: last error at ") {
		t.Fatalf("status: %v\n%s", err, out.String())
	}
}
