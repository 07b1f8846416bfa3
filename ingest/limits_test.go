package ingest

import (
	"archive/zip"
	"compress/flate"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/domain/source"
)

// namedEntry is one entry of an archive a test writes, in order: a map
// could not hold two entries of one name.
type namedEntry struct {
	name string
	body string
}

func writeZipEntries(t *testing.T, dir, name string, entries ...namedEntry) string {
	t.Helper()
	p := filepath.Join(dir, name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	for _, e := range entries {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: e.name, Method: zip.Deflate})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(w, e.body); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestArchiveEntryNamesMustBeLocalAndUnique: an archive is refused whole,
// by its name and the reason, when any entry's name is not a local path or
// two entries share one, even an entry the dataset would skip.
func TestArchiveEntryNamesMustBeLocalAndUnique(t *testing.T) {
	dir := t.TempDir()
	docs, tickers := sampleFinancials(t)
	tickersFile := filepath.Join(dir, "company_tickers.json")
	if err := os.WriteFile(tickersFile, tickers, 0o644); err != nil {
		t.Fatal(err)
	}
	apple := string(docs["CIK0000320193.json"])
	cases := []struct {
		name   string
		entry  string
		reason string
	}{
		{"parent", "../../CIK0000320193.json", "not a local path"},
		{"absolute", "/etc/CIK0000320193.json", "not a local path"},
		{"dot-dot inside", "sub/../CIK0000320193.json", "not a local path"},
		{"backslash", `..\..\CIK0000320193.json`, "backslash"},
		{"drive letter", "C:/CIK0000320193.json", "drive letter"},
		{"twice", "CIK0000320193.json", "appears twice"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			archive := writeZipEntries(t, dir, c.name+".zip",
				namedEntry{"CIK0000320193.json", apple}, namedEntry{c.entry, apple})
			store, n, err := ingestFinancials(t, tickersFile, archive)
			if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), c.name+".zip: entry ") || !strings.Contains(err.Error(), c.reason) {
				t.Fatalf("case %d: err = %v, want the archive and %q", i, err, c.reason)
			}
			if count, _ := store.CountCompanies(context.Background()); n != 0 || count != 0 {
				t.Fatalf("%d companies written, %d stored", n, count)
			}
		})
	}
}

// writeBomb streams size bytes of spaces into one deflated entry of a zip,
// which stays about a thousandth of that size on disk.
func writeBomb(t *testing.T, dir, entry string, size int64) string {
	t.Helper()
	p := filepath.Join(dir, "bomb.zip")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestSpeed) })
	w, err := zw.CreateHeader(&zip.FileHeader{Name: entry, Method: zip.Deflate})
	if err != nil {
		t.Fatal(err)
	}
	block := []byte(strings.Repeat(" ", 1<<20))
	for written := int64(0); written < size; written += int64(len(block)) {
		if _, err := w.Write(block); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

// allocatedBy reports how many bytes fn allocated on the heap, in all.
func allocatedBy(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestAZipBombIsRefusedBeforeItIsInflated: a 64 KiB zip holding 64 MiB
// of whitespace in one companyfacts entry was inflated up to the
// document bound before it was refused (a 1 GiB one took 5.3 GB, then
// 640 MB, and 62 s of CPU for a 4 MB bomb of 16 GiB). Its declared ratio
// of about 1,000 to one is now refused when the archive is listed, before
// any of it is inflated.
func TestAZipBombIsRefusedBeforeItIsInflated(t *testing.T) {
	dir := t.TempDir()
	_, tickers := sampleFinancials(t)
	tickersFile := filepath.Join(dir, "company_tickers.json")
	if err := os.WriteFile(tickersFile, tickers, 0o644); err != nil {
		t.Fatal(err)
	}
	bomb := writeBomb(t, dir, "CIK0000320193.json", 64<<20)
	var err error
	alloc := allocatedBy(func() { _, _, err = ingestFinancials(t, tickersFile, bomb) })
	want := "bomb.zip:CIK0000320193.json: declares 67108864 bytes uncompressed from"
	if !errors.Is(err, source.ErrTooLarge) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "a zip bomb") {
		t.Fatalf("err = %v, want %q", err, want)
	}
	if alloc > 8<<20 {
		t.Fatalf("refusing a zip bomb allocated %d MiB", alloc>>20)
	}
}

// TestADocumentDeclaringMoreThanTheDocumentBoundIsRefusedUnread: an entry
// of a reader that holds it whole, declaring 300 MiB at a ratio a real
// file could have, is refused from its declared size, before a byte is
// read; it was read up to the 256 MiB bound and refused there, at about
// 600 MB of peak RSS.
func TestADocumentDeclaringMoreThanTheDocumentBoundIsRefusedUnread(t *testing.T) {
	dir := t.TempDir()
	_, tickers := sampleFinancials(t)
	tickersFile := filepath.Join(dir, "company_tickers.json")
	if err := os.WriteFile(tickersFile, tickers, 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "large.zip")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	packed := make([]byte, 2<<20) // what the entry holds compressed
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "CIK0000320193.json", Method: zip.Deflate,
		CompressedSize64: uint64(len(packed)), UncompressedSize64: 300 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(packed); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	alloc := allocatedBy(func() { _, _, err = ingestFinancials(t, tickersFile, p) })
	want := "large.zip:CIK0000320193.json: 314572800 bytes, larger than 256 MiB"
	if !errors.Is(err, source.ErrTooLarge) || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want %q", err, want)
	}
	if alloc > 8<<20 {
		t.Fatalf("refusing the entry allocated %d MiB", alloc>>20)
	}
}

// TestAnEntryDeclaringMoreThanTheRunReadsIsRefusedUnread: the declared
// size is checked when the archive is listed, so nothing is inflated.
func TestAnEntryDeclaringMoreThanTheRunReadsIsRefusedUnread(t *testing.T) {
	dir := t.TempDir()
	bomb := writeBomb(t, dir, "CIK0000320193.json", 64<<20)
	var err error
	alloc := allocatedBy(func() {
		_, err = (&Files{Names: []string{bomb}, MaxBytes: 1 << 20}).expand(companyFactsEntry)
	})
	want := "bomb.zip:CIK0000320193.json: declares 67108864 bytes uncompressed, more than 1 MiB (QUARRY_INGEST_MAX_FILE_BYTES)"
	if !errors.Is(err, source.ErrTooLarge) || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want %q", err, want)
	}
	if alloc > 1<<20 {
		t.Fatalf("listing the archive allocated %d KiB", alloc>>10)
	}
}

// TestAFileIsBoundedAsItIsRead: a file that grows past the bound after it
// is listed (as an entry whose header understates it would) is refused
// when the read passes the bound, not read to its end.
func TestAFileIsBoundedAsItIsRead(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "grows.csv")
	if err := os.WriteFile(p, []byte("a,b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := (&Files{Names: []string{p}, MaxBytes: 1 << 10}).expand(csvEntry)
	if err != nil {
		t.Fatal(err)
	}
	defer in.close()
	if err := os.WriteFile(p, []byte(strings.Repeat("x", 64<<10)), 0o644); err != nil {
		t.Fatal(err)
	}
	rc, err := in.open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	got, err := io.ReadAll(rc)
	if !errors.Is(err, source.ErrTooLarge) || !strings.Contains(err.Error(), "grows.csv: more than 1 KiB once uncompressed") || len(got) != 1<<10 {
		t.Fatalf("read %d bytes, err = %v", len(got), err)
	}
}

// TestAFileLargerThanTheRunReadsIsRefusedByName: a file on disk is
// checked by its size when it is listed.
func TestAFileLargerThanTheRunReadsIsRefusedByName(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.csv")
	if err := os.WriteFile(p, []byte(strings.Repeat("x", 2<<10)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := (&Files{Names: []string{p}, MaxBytes: 1 << 10}).expand(csvEntry)
	if !errors.Is(err, source.ErrTooLarge) || !strings.Contains(err.Error(), "big.csv: 2048 bytes, more than 1 KiB") {
		t.Fatalf("err = %v", err)
	}
}
