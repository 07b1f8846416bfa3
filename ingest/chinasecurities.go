package ingest

import (
	"context"
	"errors"
	"io"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/adapters/asharelistings"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/sampledata"
)

// LoadSample upserts the bundled China listings into s and returns how many.
func LoadChinaSecuritiesSample(ctx context.Context, s ports.SecurityStore) (int, error) {
	got, err := loadSample(ctx, s)
	return got.Records, err
}

func loadSample(ctx context.Context, s ports.SecurityStore) (Outcome, error) {
	f, err := sampledata.Files.Open(sampledata.ChinaSecurities)
	if err != nil {
		return Outcome{}, err
	}
	defer f.Close()
	n, skipped, err := writeListings(ctx, s, sampledata.ChinaSecurities, f, sampledata.ChinaSecuritiesRetrievedAt)
	return Outcome{Read: n, Records: n, Skipped: skipped.String()}, err
}

// csvEntry is the rule for an archive of CSV files (bars): CSV entries are
// read, anything else refuses the archive.
func csvEntry(entry string) (bool, error) {
	if strings.EqualFold(path.Ext(entry), ".csv") {
		return true, nil
	}
	return false, errors.New("not a CSV file")
}

// listingEntry is the rule for an archive of listings files: CSV and
// workbooks are read (a legacy .xls to be refused by name), anything else
// refuses the archive.
func listingEntry(entry string) (bool, error) {
	if slices.Contains([]string{".csv", ".xlsx", ".xls"}, strings.ToLower(path.Ext(entry))) {
		return true, nil
	}
	return false, errors.New("not a listings file (.csv or .xlsx)")
}

// ingestListings loads listings files one at a time, each parsed whole
// and written as one batch before the next is opened; the first bad file
// stops the run after the files before it are written. What the files
// skip is summed.
func IngestListings(ctx context.Context, s ports.SecurityStore, files *Files) (Outcome, error) {
	if files.none() {
		return loadSample(ctx, s)
	}
	in, err := files.expand(listingEntry)
	if err != nil {
		return Outcome{}, err
	}
	defer in.close()
	var total Outcome
	var skipped asharelistings.Skipped
	for _, f := range in.files {
		n, sk, err := ingestListingFile(ctx, s, in, f)
		if err != nil {
			return total, err
		}
		total.Read += n
		total.Records += n
		skipped = skipped.Add(sk)
	}
	total.Skipped = skipped.String()
	return total, nil
}

// ingestListingFile writes the listings of one file, retrieved when it
// was last modified: when it was downloaded, or spilled by a sync.
func ingestListingFile(ctx context.Context, s ports.SecurityStore, in *inputs, file input) (int, asharelistings.Skipped, error) {
	f, err := in.openQuiet(file.name)
	if err != nil {
		return 0, asharelistings.Skipped{}, err
	}
	defer f.Close()
	n, skipped, err := writeListings(ctx, s, file.name, f, file.modTime)
	if err == nil {
		in.progress.done(file.name, n)
	}
	return n, skipped, err
}

// writeListings parses one listings file whole, then upserts its A-share
// listings, each carrying the file's retrieval time (in UTC to the
// millisecond, as every store keeps it); it returns how many, and what the
// file held that was skipped.
func writeListings(ctx context.Context, s ports.SecurityStore, name string, r io.Reader, retrievedAt time.Time) (int, asharelistings.Skipped, error) {
	l, err := asharelistings.Parse(name, r)
	if err != nil {
		return 0, asharelistings.Skipped{}, err
	}
	at := retrievedAt.UTC().Truncate(time.Millisecond)
	for i := range l.Securities {
		l.Securities[i].RetrievedAt = at
	}
	if err := s.UpsertSecurities(ctx, l.Securities); err != nil {
		return 0, asharelistings.Skipped{}, err
	}
	return len(l.Securities), l.Skipped, nil
}
