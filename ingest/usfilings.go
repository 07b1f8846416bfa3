package ingest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
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
	entries, err := fs.ReadDir(sampledata.USFilings, sampledata.USFilingsDir)
	if err != nil {
		return nil, nil, err
	}
	var srcs []filingFolder
	for _, e := range entries {
		dir := path.Join(sampledata.USFilingsDir, e.Name())
		sub, err := fs.Sub(sampledata.USFilings, dir)
		if err != nil {
			return nil, nil, err
		}
		srcs = append(srcs, filingFolder{label: dir, fsys: sub, retrievedAt: sampleRetrievedAt, excerpts: sampledata.USFilingsExcerpts[e.Name()]})
	}
	return loadFilingFolders(srcs)
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

// loadFilingFolders parses every folder before anything is written, so a
// bad one leaves the stores as they were.
func loadFilingFolders(folders []filingFolder) ([]filing.Filing, []filing.Section, error) {
	var filings []filing.Filing
	var sections []filing.Section
	for _, d := range folders {
		subs, err := fs.Glob(d.fsys, "CIK??????????.json")
		if err != nil || len(subs) != 1 {
			return nil, nil, fmt.Errorf("%w: %s: expected one submissions file CIK##########.json next to index.json, found %d", source.ErrBadInput, d.label, len(subs))
		}
		pages, err := fs.Glob(d.fsys, "CIK??????????-submissions-???.json")
		if err != nil {
			return nil, nil, err
		}
		f, secs, err := edgarfiling.LoadFiling(edgarfiling.FilingSource{Label: d.label, Dir: d.fsys, Index: "index.json",
			Submissions: subs[0], Pages: pages, Excerpts: d.excerpts}, d.retrievedAt)
		if err != nil {
			return nil, nil, err
		}
		filings, sections = append(filings, f), append(sections, secs...)
	}
	return filings, sections, nil
}

// IngestUSFilings loads filing folders (each holding index.json, the
// company's submissions JSON, for a filing older than its recent list the
// page of older filings that lists it, and the fetched files; a path to
// index.json names its folder) or, without arguments, the bundled sample,
// and writes the filings with their sections as one batch
// (FilingStore.UpsertFilings). Running
// servers pick the new sections up within Config.MongoRefresh.
func IngestUSFilings(ctx context.Context, fs ports.FilingStore, args []string) (int, error) {
	var filings []filing.Filing
	var sections []filing.Section
	var err error
	if len(args) == 0 {
		filings, sections, err = LoadUSFilingsSample()
	} else {
		filings, sections, err = loadFilingArgs(args)
	}
	if err != nil {
		return 0, err
	}
	return len(filings) + len(sections), fs.UpsertFilings(ctx, filings, sections)
}

// loadFilingArgs reads filing folders from disk; a folder's retrieval time
// is its index.json's modification time, so ingesting it again changes
// nothing.
func loadFilingArgs(args []string) ([]filing.Filing, []filing.Section, error) {
	folders := make([]filingFolder, 0, len(args))
	for _, a := range args {
		dir := a
		if filepath.Base(a) == "index.json" {
			dir = filepath.Dir(a)
		}
		st, err := os.Stat(filepath.Join(dir, "index.json"))
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %s: %w", source.ErrBadInput, dir, errors.Unwrap(err))
		}
		folders = append(folders, filingFolder{label: dir, fsys: os.DirFS(dir), retrievedAt: st.ModTime().UTC().Truncate(time.Millisecond)})
	}
	return loadFilingFolders(folders)
}
