package ingest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/form13f"
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

// sampleDataSetZip writes the sample's Form 13F data set as the SEC's zip,
// its INFOTABLE.tsv the rows of the information tables it identifies,
// then extra, and returns the zip's path.
func sampleDataSetZip(t *testing.T, extra string) string {
	t.Helper()
	names := []string{"fundholders/form13f-dataset/SUBMISSION.tsv", "fundholders/form13f-dataset/COVERPAGE.tsv"}
	for _, n := range sampledata.FundHoldersFilings {
		if strings.HasSuffix(n, ".xml") && !strings.Contains(n, "/1067983/") {
			names = append(names, n)
		}
	}
	filings, err := form13f.ParseFiles(embeddedOpener(sampledata.FundHolders), names, nil)
	if err != nil {
		t.Fatal(err)
	}
	var info strings.Builder
	info.WriteString("ACCESSION_NUMBER\tINFOTABLE_SK\tNAMEOFISSUER\tTITLEOFCLASS\tCUSIP\tVALUE\tSSHPRNAMT\tSSHPRNAMTTYPE\tPUTCALL\tINVESTMENTDISCRETION\n")
	for _, f := range filings {
		for _, h := range f.Holdings { // filed after 2023-01-03: VALUE in dollars
			fmt.Fprintf(&info, "%s\t%d\t%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\n",
				h.Accession, h.Row, h.Issuer, h.Class, h.CUSIP, h.Value, h.Shares, h.ShareType, h.PutCall, h.Discretion)
		}
	}
	table := map[string][]byte{"INFOTABLE.tsv": []byte(info.String() + extra)}
	for _, n := range names[:2] {
		if table[path.Base(n)], err = sampledata.FundHolders.ReadFile(n); err != nil {
			t.Fatal(err)
		}
	}
	return writeZip(t, t.TempDir(), "2025q4_form13f.zip", table)
}

// A data set alone is written in batches of rows, each filing whole, with
// the holders of one batch.
func TestForm13FDataSetIsWrittenInBatches(t *testing.T) {
	ctx := context.Background()
	archive := sampleDataSetZip(t, "")
	one := &holdingWrites{FundHoldingStore: memory.NewFundHoldings()}
	if n, err := IngestUSHoldings(ctx, one, &Files{Names: []string{archive}, OneBatch: true}); err != nil || n != 3 || len(one.filings) != 1 {
		t.Fatalf("one batch: %d filings in writes %v, %v", n, one.filings, err)
	}
	in, err := (&Files{Names: []string{archive}}).expand(form13fEntry)
	if err != nil {
		t.Fatal(err)
	}
	defer in.close()
	each := &holdingWrites{FundHoldingStore: memory.NewFundHoldings()}
	if n, err := writeDataSet(ctx, each, in.open, in.names(), 1); err != nil || n != 3 || !slices.Equal(each.filings, []int{1, 1, 1}) {
		t.Fatalf("batches of one row: %d filings in writes %v, %v", n, each.filings, err)
	}
	for _, acc := range []string{"0001951757-25-000093", "0000902664-25-005042", "0000902664-26-003507"} {
		want, err := one.ThirteenFFilingCUSIPs(ctx, acc)
		if err != nil || len(want) == 0 {
			t.Fatal(acc, want, err)
		}
		got, err := each.ThirteenFFilingCUSIPs(ctx, acc)
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("%s: CUSIPs %v, %v; want %v", acc, got, err, want)
		}
	}
}

// A bad row at the end of INFOTABLE.tsv refuses the data set before any
// batch is written.
func TestForm13FDataSetWithABadLastRowWritesNothing(t *testing.T) {
	archive := sampleDataSetZip(t, "0000902664-26-003507\t99\tX\tCOM\t037833100\tmany\t1\tSH\t\tSOLE\n")
	s := &holdingWrites{FundHoldingStore: memory.NewFundHoldings()}
	n, err := IngestUSHoldings(context.Background(), s, &Files{Names: []string{archive}})
	if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), "2025q4_form13f.zip:INFOTABLE.tsv:6: value \"many\"") || n != 0 || len(s.filings) != 0 {
		t.Fatalf("%d filings in writes %v, %v; want none and the bad row named", n, s.filings, err)
	}
}
