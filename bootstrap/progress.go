package bootstrap

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/quarrydata/quarry/app"
)

// progressThreshold is the input size from which an ingest run shows a
// progress bar: below it a run takes a moment and a bar is noise.
const progressThreshold = 8 << 20

// progressOpener returns how an ingest run opens its source files: plainly,
// or, when the files add up to a long run, through a progress bar over the
// bytes read, drawn on out.
func progressOpener(files []string, out io.Writer) app.OpenFile {
	total := sourceBytes(files)
	if total < progressThreshold {
		return openFile
	}
	bar := progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(out), progressbar.OptionSetDescription("ingesting"),
		progressbar.OptionShowBytes(true), progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionOnCompletion(func() { _, _ = io.WriteString(out, "\n") }))
	return func(name string) (io.ReadCloser, error) {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		r := progressbar.NewReader(f, bar)
		return readCloser{Reader: &r, Closer: f}, nil
	}
}

type readCloser struct {
	io.Reader
	io.Closer
}

func openFile(name string) (io.ReadCloser, error) { return os.Open(name) }

// sourceBytes sums the sizes of the named files and of the files under the
// named folders; what cannot be read counts nothing and fails later, when
// it is opened.
func sourceBytes(names []string) int64 {
	var total int64
	for _, name := range names {
		_ = filepath.WalkDir(name, func(_ string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if info, err := d.Info(); err == nil {
				total += info.Size()
			}
			return nil
		})
	}
	return total
}
