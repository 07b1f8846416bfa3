package ingest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/domain/holdings"
	"github.com/quarrydata/quarry/domain/source"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/sampledata"
)

// holdingWrites counts the writes of a FundHoldingStore and the filings
// of each.
type holdingWrites struct {
	ports.FundHoldingStore
	filings []int
}

func (h *holdingWrites) ReplaceThirteenFFilings(ctx context.Context, filings []holdings.Filing) error {
	h.filings = append(h.filings, len(filings))
	return h.FundHoldingStore.ReplaceThirteenFFilings(ctx, filings)
}

// sampleSubmissionFiles writes the sample's full submission text file to
// a directory under names in order, each a copy under the accession number
// its name gives (the sample's own for the first), and returns the paths.
func sampleSubmissionFiles(t *testing.T, names ...string) []string {
	t.Helper()
	const sample = "fundholders/0001816616-21-000007.txt"
	raw, err := sampledata.FundHolders.ReadFile(sample)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var out []string
	for _, n := range names {
		p := filepath.Join(dir, n)
		text := strings.ReplaceAll(string(raw), "0001816616-21-000007", strings.TrimSuffix(n, ".txt"))
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// runBatches ingests the files as IngestUSHoldings does, in batches that
// reach limit bytes.
func runBatches(t *testing.T, s ports.FundHoldingStore, files []string, limit int64) (int, error) {
	t.Helper()
	in, err := (&Files{Names: files}).expand(form13fEntry)
	if err != nil {
		t.Fatal(err)
	}
	defer in.close()
	return writeHoldingBatches(context.Background(), s, in.open, holdingBatches(in.files, limit))
}

// Full submission text files are written in batches of files reaching the
// bound, each batch one write, with the holders of one batch.
func TestHoldingsAreWrittenInBatchesOfFiles(t *testing.T) {
	ctx := context.Background()
	files := sampleSubmissionFiles(t, "0001816616-21-000007.txt", "0001816616-21-000008.txt", "0001816616-21-000009.txt")
	one := &holdingWrites{FundHoldingStore: memory.NewFundHoldings()}
	if n, err := runBatches(t, one, files, HoldingsBatchBytes); err != nil || n != 3 || len(one.filings) != 1 {
		t.Fatalf("one batch: %d filings in writes %v, %v", n, one.filings, err)
	}
	each := &holdingWrites{FundHoldingStore: memory.NewFundHoldings()}
	if n, err := runBatches(t, each, files, 1); err != nil || n != 3 || len(each.filings) != 3 {
		t.Fatalf("batches of one file: %d filings in writes %v, %v", n, each.filings, err)
	}
	for _, s := range []ports.FundHoldingStore{one, each} {
		if _, err := LoadSampleMaster(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	cusips, err := one.ThirteenFFilingCUSIPs(ctx, "0001816616-21-000007")
	if err != nil || len(cusips) == 0 {
		t.Fatal(cusips, err)
	}
	cusip := cusips[0]
	q := holdings.Query{Limit: 100, AsOf: time.Now()}
	want, wantTotal, err := one.FundHolders(ctx, cusip, q)
	if err != nil || wantTotal == 0 {
		t.Fatalf("holders of one batch: %d, %v", wantTotal, err)
	}
	got, total, err := each.FundHolders(ctx, cusip, q)
	if err != nil || total != wantTotal || len(got) != len(want) {
		t.Fatalf("holders of batches: %d of %d, %v; want %d of %d", len(got), total, err, len(want), wantTotal)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("holder %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

// A bad file stops the run after the batches before its own; a filing
// given in two batches refuses the second.
func TestHoldingsBatchesStopAtABadFile(t *testing.T) {
	files := sampleSubmissionFiles(t, "0001816616-21-000007.txt", "0001816616-21-000008.txt", "0001816616-21-000009.txt")
	if err := os.WriteFile(files[1], []byte("not a filing"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := &holdingWrites{FundHoldingStore: memory.NewFundHoldings()}
	n, err := runBatches(t, s, files, 1)
	if !errors.Is(err, source.ErrBadInput) || n != 1 || len(s.filings) != 1 {
		t.Fatalf("with a bad second file: %d filings in writes %v, %v; want the first only and ErrBadInput", n, s.filings, err)
	}
	twice := sampleSubmissionFiles(t, "0001816616-21-000007.txt", "0001816616-21-000008.txt")
	twice = append(twice, sampleSubmissionFiles(t, "0001816616-21-000007.txt")...)
	s = &holdingWrites{FundHoldingStore: memory.NewFundHoldings()}
	if n, err := runBatches(t, s, twice, 1); !errors.Is(err, source.ErrBadInput) || n != 2 {
		t.Fatalf("a filing given twice: %d filings written, %v; want 2 and ErrBadInput", n, err)
	}
}
