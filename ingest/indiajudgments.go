package ingest

import (
	"archive/zip"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/quarrydata/quarry/adapters/judgmentfiles"
	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/domain/pii"
	"github.com/quarrydata/quarry/domain/source"
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

// TokenizeJudgmentFiles reads every metadata file, or .zip archive of
// metadata files and their texts, and tokenizes every judgment, returning
// the judgments and the vault entries of all their tokens. A file's
// retrieval time is its modification time (an archive's, for every
// judgment in it).
func TokenizeJudgmentFiles(key pii.Key, metaFiles []string) ([]judgment.Judgment, []pii.Entry, error) {
	var js []judgment.Judgment
	byToken := map[string]pii.Entry{}
	for _, name := range metaFiles {
		srcs, err := judgmentSources(name)
		if err != nil {
			return nil, nil, err
		}
		for _, s := range srcs {
			j, entries, err := judgment.Tokenize(key, s)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %s %s: %w", name, s.Court, s.CaseNumber, err)
			}
			js = append(js, j)
			for _, e := range entries {
				byToken[e.Token] = e
			}
		}
	}
	entries := make([]pii.Entry, 0, len(byToken))
	for _, e := range byToken {
		entries = append(entries, e)
	}
	return js, entries, nil
}

// judgmentSources reads one file named: a metadata file and the text
// files beside it, or a .zip archive of them.
func judgmentSources(name string) ([]judgment.Source, error) {
	st, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	at := st.ModTime().UTC().Truncate(time.Millisecond)
	if strings.EqualFold(path.Ext(name), ".zip") {
		return archivedJudgments(name, at)
	}
	return judgmentfiles.Load(filepath.ToSlash(name), at, readBounded)
}

// archivedJudgments reads every metadata file (.jsonl, .ndjson, .csv) of a
// zip archive, each with the text files it names from the archive's same
// folder, in place: nothing is unpacked to disk. An archive that cannot
// be read whole (cut short, an entry failing its checksum), holds an
// unsafe or repeated entry name, or no metadata file, is refused.
func archivedJudgments(name string, at time.Time) ([]judgment.Source, error) {
	zr, err := zip.OpenReader(name)
	if err != nil {
		return nil, source.Whole(name, "not a readable zip archive: %v", err)
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
		return nil, err
	}
	if len(metas) == 0 {
		return nil, source.Whole(name, "no metadata file (.jsonl, .ndjson or .csv) in the archive")
	}
	read := func(entry string) ([]byte, error) { return readEntry(name, entries, entry) }
	var out []judgment.Source
	for _, m := range metas {
		srcs, err := judgmentfiles.Load(m, at, read)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, srcs...)
	}
	return out, nil
}

// readEntry reads an archive's entry whole, bounded as a file on disk is.
func readEntry(archive string, entries map[string]*zip.File, entry string) ([]byte, error) {
	e, ok := entries[entry]
	if !ok {
		return nil, errors.New("not in the archive")
	}
	if e.UncompressedSize64 > source.MaxDocumentBytes {
		return nil, source.TooLarge(archive+":"+entry, "declares %d bytes uncompressed, more than %s", e.UncompressedSize64, source.Bytes(source.MaxDocumentBytes))
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
