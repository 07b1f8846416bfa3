package bootstrap

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/quarrydata/quarry/domain/source"
)

// IngestFiles are the files named on `quarry ingest`'s command line, as an
// Ingester reads them: one at a time, through the run's progress display.
// A file names itself; a directory stands for the files under it, in
// lexical order; a .zip archive stands for its entries, named
// archive.zip:entry and read in place, never unpacked to disk. Which
// entries a dataset reads is its entryRule.
type IngestFiles struct {
	// Names are the arguments as given.
	Names    []string
	progress *progress
}

// input is one file of a run: on disk, or an entry of an open archive.
type input struct {
	name    string
	path    string    // on disk; empty for an archive entry
	entry   *zip.File // in an archive; nil for a file on disk
	modTime time.Time
	size    int64
}

// entryRule decides, for an entry of an archive, whether a dataset reads
// it (true) or skips it (false); an error refuses the archive.
type entryRule func(entry string) (bool, error)

// inputs are the expanded files of a run. Archives stay open until close:
// one descriptor per archive named, whatever the number of its entries.
type inputs struct {
	files    []input
	byName   map[string]*input
	archives []*zip.ReadCloser
	progress *progress
}

// none reports whether the command line names no file: the dataset's
// bundled sample is loaded then.
func (f *IngestFiles) none() bool { return f == nil || len(f.Names) == 0 }

// names are the arguments as given, or none.
func (f *IngestFiles) names() []string {
	if f == nil {
		return nil
	}
	return f.Names
}

// expand lists the files the arguments stand for. Directories are walked,
// archives' central directories read; nothing else is opened.
func (f *IngestFiles) expand(rule entryRule) (*inputs, error) {
	in := &inputs{byName: map[string]*input{}, progress: f.progressOrNone()}
	for _, arg := range f.Names {
		if err := in.add(arg, rule); err != nil {
			_ = in.close()
			return nil, err
		}
	}
	for i := range in.files {
		in.byName[in.files[i].name] = &in.files[i]
	}
	in.progress.expect(in.bytes())
	return in, nil
}

func (f *IngestFiles) progressOrNone() *progress {
	if f.progress == nil {
		return &progress{}
	}
	return f.progress
}

func (in *inputs) add(arg string, rule entryRule) error {
	st, err := os.Stat(arg)
	if err != nil {
		return err
	}
	switch {
	case st.IsDir():
		return filepath.WalkDir(arg, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			if strings.EqualFold(path.Ext(p), ".zip") {
				return in.add(p, rule)
			}
			in.files = append(in.files, input{name: p, path: p, modTime: info.ModTime(), size: info.Size()})
			return nil
		})
	case strings.EqualFold(path.Ext(arg), ".zip"):
		return in.addArchive(arg, rule)
	default:
		in.files = append(in.files, input{name: arg, path: arg, modTime: st.ModTime(), size: st.Size()})
		return nil
	}
}

// addArchive lists an archive's entries: directories are skipped, and rule
// says which files the dataset reads.
func (in *inputs) addArchive(name string, rule entryRule) error {
	zr, err := zip.OpenReader(name)
	if err != nil {
		return source.Whole(name, "not a readable zip archive: %v", err)
	}
	in.archives = append(in.archives, zr)
	for _, e := range zr.File {
		if e.FileInfo().IsDir() {
			continue
		}
		use, err := rule(e.Name)
		if err != nil {
			return source.Whole(name+":"+e.Name, "%v", err)
		}
		if use {
			in.files = append(in.files, input{name: name + ":" + e.Name, entry: e, modTime: e.Modified, size: int64(e.UncompressedSize64)})
		}
	}
	return nil
}

// names lists the expanded files by the names errors cite.
func (in *inputs) names() []string {
	out := make([]string, len(in.files))
	for i, f := range in.files {
		out[i] = f.name
	}
	return out
}

// bytes is the size of everything the run reads (entries uncompressed).
func (in *inputs) bytes() int64 {
	var n int64
	for _, f := range in.files {
		n += f.size
	}
	return n
}

// open opens one expanded file by name, through the progress display,
// which prints the file's line when it is closed. It is the app.OpenFile
// of readers that open files themselves.
func (in *inputs) open(name string) (io.ReadCloser, error) {
	f, ok := in.byName[name]
	if !ok {
		return nil, fmt.Errorf("%s: not among the files of this run", name)
	}
	return in.openInput(f, true)
}

// openQuiet opens a file whose reader reports its records itself, through
// progress.done, once it has parsed them.
func (in *inputs) openQuiet(name string) (io.ReadCloser, error) {
	f, ok := in.byName[name]
	if !ok {
		return nil, fmt.Errorf("%s: not among the files of this run", name)
	}
	return in.openInput(f, false)
}

func (in *inputs) openInput(f *input, lineAtClose bool) (io.ReadCloser, error) {
	var rc io.ReadCloser
	var err error
	if f.entry != nil {
		rc, err = f.entry.Open()
		if err != nil {
			err = source.Whole(f.name, "%v", err)
		}
	} else {
		rc, err = os.Open(f.path)
	}
	if err != nil {
		return nil, err
	}
	return in.progress.reader(f.name, rc, lineAtClose), nil
}

// close closes the archives.
func (in *inputs) close() error {
	var errs []error
	for _, zr := range in.archives {
		errs = append(errs, zr.Close())
	}
	in.archives = nil
	return errors.Join(errs...)
}
