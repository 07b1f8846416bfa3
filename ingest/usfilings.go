package ingest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"time"

	"github.com/quarrydata/quarry/adapters/edgarfiling"
	"github.com/quarrydata/quarry/domain/filing"
	"github.com/quarrydata/quarry/domain/source"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/sampledata"
)

// sampleRetrievedAt is when the bundled filing excerpts were taken from
// their sources; embedded files carry no modification time to say it.
var sampleRetrievedAt = time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)

// LoadUSFilingsSample reads every bundled filing folder.
func LoadUSFilingsSample() ([]filing.Filing, []filing.Section, error) {
	srcs, err := sampleFilingFolders()
	if err != nil {
		return nil, nil, err
	}
	return loadFilingFolders(srcs)
}

// sampleFilingFolders lists the bundled filing folders.
func sampleFilingFolders() ([]filingFolder, error) {
	entries, err := fs.ReadDir(sampledata.USFilings, sampledata.USFilingsDir)
	if err != nil {
		return nil, err
	}
	var srcs []filingFolder
	for _, e := range entries {
		dir := path.Join(sampledata.USFilingsDir, e.Name())
		sub, err := fs.Sub(sampledata.USFilings, dir)
		if err != nil {
			return nil, err
		}
		srcs = append(srcs, filingFolder{label: dir, fsys: sub, retrievedAt: sampleRetrievedAt, excerpts: sampledata.USFilingsExcerpts[e.Name()]})
	}
	return srcs, nil
}

// filingFolder is one downloaded filing to load.
type filingFolder struct {
	label       string
	fsys        fs.FS
	retrievedAt time.Time
	// excerpts are held files known to be trimmed (the bundled sample's
	// only); a user's folder has none.
	excerpts []string
}

// loadFilingFolders parses every folder.
func loadFilingFolders(folders []filingFolder) ([]filing.Filing, []filing.Section, error) {
	var filings []filing.Filing
	var sections []filing.Section
	for _, d := range folders {
		f, secs, err := loadFilingFolder(d)
		if err != nil {
			return nil, nil, err
		}
		filings, sections = append(filings, f), append(sections, secs...)
	}
	return filings, sections, nil
}

// loadFilingFolder parses one folder.
func loadFilingFolder(d filingFolder) (filing.Filing, []filing.Section, error) {
	subs, err := fs.Glob(d.fsys, "CIK??????????.json")
	if err != nil || len(subs) != 1 {
		return filing.Filing{}, nil, fmt.Errorf("%w: %s: expected one submissions file CIK##########.json next to index.json, found %d", source.ErrBadInput, d.label, len(subs))
	}
	pages, err := fs.Glob(d.fsys, "CIK??????????-submissions-???.json")
	if err != nil {
		return filing.Filing{}, nil, err
	}
	return edgarfiling.LoadFiling(edgarfiling.FilingSource{Label: d.label, Dir: d.fsys, Index: "index.json",
		Submissions: subs[0], Pages: pages, Excerpts: d.excerpts}, d.retrievedAt)
}

// FilingBatchBytes bounds the section text one write of IngestUSFilings
// holds: a 10-K's sections are about 40 KiB of text, so a batch is some
// two hundred filings, and a run of any size holds one batch, not every
// folder it was given (236,000 sections held 805 MiB at once).
const FilingBatchBytes = 8 << 20

// IngestUSFilings loads filing folders (each holding index.json, the
// company's submissions JSON, for a filing older than its recent list the
// page of older filings that lists it, and the fetched files; a path to
// index.json names its folder) or, without arguments, the bundled sample,
// and writes the filings with their sections (FilingStore.UpsertFilings)
// in batches of whole filings whose sections' text weighs FilingBatchBytes,
// or in one batch with files.OneBatch, as `quarry sync` asks. A folder
// without index.json stops the run before anything is written; a folder
// that cannot be read further on stops it after the batches before its
// own, and running it again once the folder is fixed completes it.
// Running servers pick the new sections up within Config.MongoRefresh.
func IngestUSFilings(ctx context.Context, store ports.FilingStore, files *Files) (int, error) {
	if len(files.Given()) == 0 {
		filings, sections, err := LoadUSFilingsSample()
		if err != nil {
			return 0, err
		}
		return len(filings) + len(sections), store.UpsertFilings(ctx, filings, sections)
	}
	folders, err := filingArgs(files.Given())
	if err != nil {
		return 0, err
	}
	limit := FilingBatchBytes
	if files.OneBatch {
		limit = math.MaxInt
	}
	return writeFilingBatches(ctx, store, folders, limit)
}

// writeFilingBatches parses the folders one at a time and writes them in
// batches of whole filings whose sections' text weighs limit bytes.
func writeFilingBatches(ctx context.Context, store ports.FilingStore, folders []filingFolder, limit int) (int, error) {
	n, held := 0, 0
	var filings []filing.Filing
	var sections []filing.Section
	write := func() error {
		err := store.UpsertFilings(ctx, filings, sections)
		n, held, filings, sections = n+len(filings)+len(sections), 0, nil, nil
		return err
	}
	for _, d := range folders {
		f, secs, err := loadFilingFolder(d)
		if err != nil {
			return n, err
		}
		filings, sections = append(filings, f), append(sections, secs...)
		for _, sec := range secs {
			held += len(sec.Text)
		}
		if held >= limit {
			if err := write(); err != nil {
				return n, err
			}
		}
	}
	if len(filings) == 0 {
		return n, nil
	}
	return n, write()
}

// filingArgs finds the folder of each argument; a retrieval time is its
// index.json's modification time, so ingesting it again changes nothing.
func filingArgs(args []string) ([]filingFolder, error) {
	folders := make([]filingFolder, 0, len(args))
	for _, a := range args {
		dir := a
		if filepath.Base(a) == "index.json" {
			dir = filepath.Dir(a)
		}
		st, err := os.Stat(filepath.Join(dir, "index.json"))
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %w", source.ErrBadInput, dir, errors.Unwrap(err))
		}
		folders = append(folders, filingFolder{label: dir, fsys: os.DirFS(dir), retrievedAt: st.ModTime().UTC().Truncate(time.Millisecond)})
	}
	return folders, nil
}
