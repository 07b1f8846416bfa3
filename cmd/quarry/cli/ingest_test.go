package cli_test

import (
	"bytes"
	"context"
	"regexp"
	"testing"

	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/cmd/quarry/cli"
)

// TestReingestingReportsTheSameReadCounts ingests each sample twice into
// one data directory: both runs report the same records read, and the
// datasets that tell unchanged records apart report none written the
// second time (the run once said "ingested 0 records", as if the files
// held none). The India sample writes fewer than it reads even the first
// time: its legacy, UDiFF and full bhavcopies of a day repeat rows.
func TestReingestingReportsTheSameReadCounts(t *testing.T) {
	cfg, err := bootstrap.LoadConfig(func(k string) string {
		if k == bootstrap.EnvDataDir {
			return t.TempDir()
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	counts := regexp.MustCompile(`: read (\d+) records, wrote (\d+) new or changed, (\d+) unchanged`)
	for _, name := range []string{"india_prices", "china_prices", "india_judgments"} {
		t.Run(name, func(t *testing.T) {
			var runs [2][]string
			for i := range runs {
				var out bytes.Buffer
				if err := cli.Ingest(context.Background(), cfg, name, nil, &out, nil); err != nil {
					t.Fatalf("run %d: %v", i+1, err)
				}
				if runs[i] = counts.FindStringSubmatch(out.String()); runs[i] == nil {
					t.Fatalf("run %d said %q", i+1, out.String())
				}
			}
			first, second := runs[0], runs[1]
			if first[1] == "0" || first[2] == "0" || second[1] != first[1] || second[2] != "0" || second[3] != first[1] {
				t.Fatalf("first run %q, second %q: want the same read count, some written, then none", first[0], second[0])
			}
		})
	}
}
