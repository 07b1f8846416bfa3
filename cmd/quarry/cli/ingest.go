package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/ingest"
)

// Ingest loads source files of the named dataset into MongoDB; without
// files it loads the bundled sample. The dataset "all" loads every sample.
// It reports what it wrote on out and its progress on progressOut: a bar
// when that is a terminal, else one line per file; nil shows none (quarry
// ingest --quiet). A run that fails part way says how many records it
// wrote before the failure. On a data directory, or with QUARRY_INDEX_DIR,
// it brings the search index of what it wrote up to date too.
func Ingest(ctx context.Context, cfg bootstrap.Config, what string, files []string, out, progressOut io.Writer) error {
	if !cfg.OnMongo() {
		return errors.New("neither " + bootstrap.EnvMongoURI + " nor " + bootstrap.EnvDataDir + " is set: ingest writes to MongoDB or to the data directory")
	}
	names, err := ingestNames(what, files)
	if err != nil {
		return err
	}
	return bootstrap.WithIngesters(ctx, cfg, func(byName map[string]bootstrap.Ingester) error {
		p := ingest.NewProgress(progressOut, progressOut == nil)
		defer p.Finish()
		for _, n := range names {
			got, err := byName[n].Load(ctx, &ingest.Files{Names: files, MaxBytes: cfg.IngestMaxFileBytes, Progress: p})
			p.Finish()
			if err != nil {
				if got.Records > 0 {
					fmt.Fprintf(out, "wrote %d records of %s into %s before the error; the rest were not written\n", got.Records, n, cfg.MongoDB)
				}
				return fmt.Errorf("ingest %s: %w", n, err)
			}
			fmt.Fprintf(out, "ingested %s into %s: %s%s%s\n", n, cfg.MongoDB, got.Counts(), also(got.Indexed), also(got.Skipped))
		}
		return nil
	})
}

// also is note after a semicolon, nothing when there is none.
func also(note string) string {
	if note == "" {
		return ""
	}
	return "; " + note
}

// ingestNames checks the dataset named on the command line, before any
// connection is made, and expands "all".
func ingestNames(what string, files []string) ([]string, error) {
	switch {
	case what == "all" && len(files) > 0:
		return nil, errors.New("ingest all takes no files: it loads every bundled sample")
	case what == "all":
		return bootstrap.IngestNames(), nil
	}
	name, err := bootstrap.IngestName(what)
	if err != nil {
		return nil, fmt.Errorf("ingest: %w", err)
	}
	return []string{name}, nil
}
