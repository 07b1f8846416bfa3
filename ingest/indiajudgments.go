package ingest

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/adapters/judgmentfiles"
	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/domain/pii"
	"github.com/quarrydata/quarry/domain/source"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/sampledata"
)

// LoadJudgmentsSample reads the bundled judgments, tokenized when the
// sample was assembled (sampledata/README.md): they hold tokens only, and
// no mapping to the originals exists.
func LoadJudgmentsSample() ([]judgment.Judgment, error) {
	data, err := fs.ReadFile(sampledata.IndiaJudgments, sampledata.IndiaJudgmentsFile)
	if err != nil {
		return nil, err
	}
	return judgmentfiles.ParseTokenized(sampledata.IndiaJudgmentsFile, data)
}

// JudgmentBatchBytes bounds the judgment text one write of
// IngestJudgmentFiles holds: a judgment's text is some 12 KiB, so a batch
// is some seven hundred judgments, and a run of any size holds one batch,
// not every text it was given (20,000 judgments held 928 MiB at once).
const JudgmentBatchBytes = 8 << 20

// JudgmentCounts is what a run of IngestJudgmentFiles read and wrote.
type JudgmentCounts struct {
	// Read is how many judgments the files held.
	Read int
	// Records is how many of them the store inserted or changed.
	Records int
	// Tokens is how many distinct tokens the judgments read hold: the
	// vault entries written, when there is a vault and the run completes.
	Tokens int
}

// IngestJudgmentFiles reads metadata files, or .zip archives of metadata
// files and their texts, and writes their judgments tokenized with key.
// It reads them twice. First every file is parsed and every text read
// and its judgment checked, keeping no text, so a bad file writes
// nothing. Then each text is read again as its judgment is tokenized, and
// the judgments are written in batches whose texts weigh
// JudgmentBatchBytes: for each batch the vault entries of its tokens
// (when vault is not nil) before its judgments (UpsertJudgments), so
// every token served can be revealed. A failed write stops the run after
// the batches before it; writing a judgment again changes nothing, so
// running it again completes it. A file's retrieval time is its
// modification time (an archive's, for every judgment in it).
func IngestJudgmentFiles(ctx context.Context, key pii.Key, store ports.JudgmentStore, vault ports.Vault, names []string) (JudgmentCounts, error) {
	return writeJudgmentBatches(ctx, &judgmentBatch{key: key, store: store, vault: vault}, names, JudgmentBatchBytes)
}

// writeJudgmentBatches checks every file named, then writes their
// judgments through b in batches whose texts weigh limit bytes.
func writeJudgmentBatches(ctx context.Context, b *judgmentBatch, names []string, limit int) (JudgmentCounts, error) {
	err := eachJudgmentFile(names, func(f *judgmentfiles.File, _ time.Time) error { return f.Check() })
	if err != nil {
		return JudgmentCounts{}, err
	}
	err = eachJudgmentFile(names, func(f *judgmentfiles.File, at time.Time) error {
		for s, err := range f.Judgments(at) {
			if err != nil {
				return err
			}
			if err := b.add(s); err != nil {
				return fmt.Errorf("%s: %s %s: %w", f.Name(), s.Court, s.CaseNumber, err)
			}
			if b.held >= limit {
				if err := b.write(ctx); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err == nil {
		err = b.write(ctx)
	}
	return b.counts(), err
}

// judgmentBatch gathers tokenized judgments and their vault entries, and
// writes them.
type judgmentBatch struct {
	key     pii.Key
	store   ports.JudgmentStore
	vault   ports.Vault
	js      []judgment.Judgment
	entries map[string]pii.Entry // the batch's, by token
	held    int                  // bytes of text in the batch
	read    int
	written int
	tokens  map[string]struct{} // every token of the run
}

// add tokenizes s into the batch.
func (b *judgmentBatch) add(s judgment.Source) error {
	j, entries, err := judgment.Tokenize(b.key, s)
	if err != nil {
		return err
	}
	if b.entries == nil {
		b.entries, b.tokens = map[string]pii.Entry{}, map[string]struct{}{}
	}
	b.js, b.held, b.read = append(b.js, j), b.held+len(s.Text), b.read+1
	for _, e := range entries {
		b.entries[e.Token], b.tokens[e.Token] = e, struct{}{}
	}
	return nil
}

// write writes the batch, the vault's entries first, and empties it.
func (b *judgmentBatch) write(ctx context.Context) error {
	if len(b.js) == 0 {
		return nil
	}
	if b.vault != nil {
		if err := b.vault.Put(ctx, slices.Collect(maps.Values(b.entries))); err != nil {
			return fmt.Errorf("write the vault: %w", err)
		}
	}
	n, err := b.store.UpsertJudgments(ctx, b.js)
	b.written += n
	b.js, b.held = nil, 0
	clear(b.entries)
	return err
}

func (b *judgmentBatch) counts() JudgmentCounts {
	return JudgmentCounts{Read: b.read, Records: b.written, Tokens: len(b.tokens)}
}

// eachJudgmentFile calls fn with every metadata file named, or in a .zip
// archive named, in turn, and its retrieval time; an archive is open
// while fn reads its files, and closed after.
func eachJudgmentFile(names []string, fn func(*judgmentfiles.File, time.Time) error) error {
	for _, name := range names {
		st, err := os.Stat(name)
		if err != nil {
			return err
		}
		at := st.ModTime().UTC().Truncate(time.Millisecond)
		if strings.EqualFold(path.Ext(name), ".zip") {
			err = eachArchivedFile(name, at, fn)
		} else {
			err = eachMetadataFile(filepath.ToSlash(name), at, fn)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// eachMetadataFile calls fn with the metadata file on disk at name, its
// texts beside it.
func eachMetadataFile(name string, at time.Time, fn func(*judgmentfiles.File, time.Time) error) error {
	f, err := judgmentfiles.Open(name, readBounded)
	if err != nil {
		return err
	}
	return fn(f, at)
}

// eachArchivedFile calls fn with every metadata file (.jsonl, .ndjson,
// .csv) of a zip archive, each reading the text files it names from the
// archive's same folder, in place: nothing is unpacked to disk. An
// archive that cannot be read whole (cut short, an entry failing its
// checksum), holds an unsafe or repeated entry name, or no metadata file,
// is refused.
func eachArchivedFile(name string, at time.Time, fn func(*judgmentfiles.File, time.Time) error) error {
	zr, err := zip.OpenReader(name)
	if err != nil {
		return source.Whole(name, "not a readable zip archive: %v", err)
	}
	defer zr.Close()
	entries := map[string]*zip.File{}
	var names, metas []string
	for _, e := range zr.File {
		names = append(names, e.Name)
		if e.FileInfo().IsDir() {
			continue
		}
		entries[e.Name] = e
		switch strings.ToLower(path.Ext(e.Name)) {
		case ".jsonl", ".ndjson", ".csv":
			metas = append(metas, e.Name)
		}
	}
	if err := source.EntryNames(name, names); err != nil {
		return err
	}
	if len(metas) == 0 {
		return source.Whole(name, "no metadata file (.jsonl, .ndjson or .csv) in the archive")
	}
	read := func(entry string) ([]byte, error) { return readEntry(name, entries, entry) }
	for _, m := range metas {
		f, err := judgmentfiles.Open(m, read)
		if err == nil {
			err = fn(f, at)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}

// readEntry reads an archive's entry whole, bounded as a file on disk is.
func readEntry(archive string, entries map[string]*zip.File, entry string) ([]byte, error) {
	e, ok := entries[entry]
	if !ok {
		return nil, errors.New("not in the archive")
	}
	if err := source.CheckEntry(archive+":"+entry, e.CompressedSize64, e.UncompressedSize64, source.MaxDocumentBytes, "a document read whole"); err != nil {
		return nil, err
	}
	rc, err := e.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return source.ReadAll(archive+":"+entry, rc, source.MaxDocumentBytes)
}

// readBounded reads a metadata or text file whole, refusing one larger
// than source.MaxDocumentBytes before more of it is read.
func readBounded(name string) ([]byte, error) {
	f, err := os.Open(filepath.FromSlash(name))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return source.ReadAll(name, f, source.MaxDocumentBytes)
}
