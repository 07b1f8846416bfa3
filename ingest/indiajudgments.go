package ingest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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

// tokenizeJudgmentFiles reads every metadata file and tokenizes every
// judgment, returning the judgments and the vault entries of all their
// tokens. A metadata file's retrieval time is its modification time.
func TokenizeJudgmentFiles(key pii.Key, metaFiles []string) ([]judgment.Judgment, []pii.Entry, error) {
	var js []judgment.Judgment
	byToken := map[string]pii.Entry{}
	for _, name := range metaFiles {
		st, err := os.Stat(name)
		if err != nil {
			return nil, nil, err
		}
		srcs, err := judgmentfiles.Load(filepath.ToSlash(name), st.ModTime().UTC().Truncate(time.Millisecond), readBounded)
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
