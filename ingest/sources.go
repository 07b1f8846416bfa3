package ingest

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
type Files struct {
	// Names are the arguments as given.
	Names []string
	// MaxBytes bounds each file and archive entry, uncompressed
	// (QUARRY_INGEST_MAX_FILE_BYTES); zero is DefaultMaxFileBytes.
	MaxBytes int64
	Progress *progress
	// OneBatch has a dataset that writes a long run in batches bounded in
	// bytes (india_prices, china_prices) write this run in one, after
	// reading every file: `quarry sync` sets it, its runs being bounded in
	// days already.
	OneBatch bool
	// Retokenize has india_judgments read no file and bring the judgments
	// already stored up to the current rules of tokenization instead
	// (`quarry vault retokenize`, RetokenizeJudgments).
	Retokenize bool
}

// MaxFileBytesSetting is the setting that bounds a file of a run, named
// in the refusal of a file over it.
const MaxFileBytesSetting = "QUARRY_INGEST_MAX_FILE_BYTES"

// DefaultMaxFileBytes bounds one file or archive entry of a run unless
// QUARRY_INGEST_MAX_FILE_BYTES says otherwise. The largest real inputs, the
// tab-separated files of EDGAR's quarterly 13F data sets, are hundreds of
// megabytes; a zip of a few megabytes can declare, or unpack to, terabytes.
const DefaultMaxFileBytes = 16 << 30

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
	maxBytes int64
}

// none reports whether the command line names no file: the dataset's
// bundled sample is loaded then.
func (f *Files) none() bool { return f == nil || len(f.Names) == 0 }

// names are the arguments as given, or none.
func (f *Files) Given() []string {
	if f == nil {
		return nil
	}
	return f.Names
}

// expand lists the files the arguments stand for. Directories are walked,
// archives' central directories read; nothing else is opened.
func (f *Files) expand(rule entryRule) (*inputs, error) {
	in := &inputs{byName: map[string]*input{}, progress: f.progressOrNone(), maxBytes: f.maxBytes()}
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

func (f *Files) maxBytes() int64 {
	if f.MaxBytes > 0 {
		return f.MaxBytes
	}
	return DefaultMaxFileBytes
}

func (f *Files) progressOrNone() *progress {
	if f.Progress == nil {
		return &progress{}
	}
	return f.Progress
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
			return in.addFile(p, info)
		})
	case strings.EqualFold(path.Ext(arg), ".zip"):
		return in.addArchive(arg, rule)
	default:
		return in.addFile(arg, st)
	}
}

// addFile adds a file on disk, unless it is larger than a run reads.
func (in *inputs) addFile(name string, st fs.FileInfo) error {
	if st.Size() > in.maxBytes {
		return source.TooLarge(name, "%d bytes, more than %s (%s)", st.Size(), source.Bytes(in.maxBytes), MaxFileBytesSetting)
	}
	in.files = append(in.files, input{name: name, path: name, modTime: st.ModTime(), size: st.Size()})
	return nil
}

// addArchive lists an archive's entries: directories are skipped, and rule
// says which files the dataset reads. An archive with an entry whose name
// is not a local path, two entries of one name, or an entry declaring more
// bytes than a run reads or more than source.MaxEntryRatio times its
// compressed size (a zip bomb), is refused whole before any entry is read.
func (in *inputs) addArchive(name string, rule entryRule) error {
	zr, err := zip.OpenReader(name)
	if err != nil {
		return source.Whole(name, "not a readable zip archive: %v", err)
	}
	in.archives = append(in.archives, zr)
	names := make([]string, len(zr.File))
	for i, e := range zr.File {
		names[i] = e.Name
	}
	if err := source.EntryNames(name, names); err != nil {
		return err
	}
	for _, e := range zr.File {
		if e.FileInfo().IsDir() {
			continue
		}
		if err := source.CheckEntry(name+":"+e.Name, e.CompressedSize64, e.UncompressedSize64, in.maxBytes, MaxFileBytesSetting); err != nil {
			return err
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
// which prints the file's line when it is closed. It is the usecase.OpenFile
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

// openHead opens a file for a look at its first lines, past the progress
// display, which counts the bytes of the read that follows.
func (in *inputs) openHead(name string) (io.ReadCloser, error) {
	f, ok := in.byName[name]
	if !ok {
		return nil, fmt.Errorf("%s: not among the files of this run", name)
	}
	return in.openBounded(f)
}

func (in *inputs) openInput(f *input, lineAtClose bool) (io.ReadCloser, error) {
	rc, err := in.openBounded(f)
	if err != nil {
		return nil, err
	}
	return in.progress.reader(f.name, rc, lineAtClose), nil
}

// openBounded opens a file through a boundedReader.
func (in *inputs) openBounded(f *input) (io.ReadCloser, error) {
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
	return &boundedReader{ReadCloser: rc, name: f.name, limit: in.maxBytes, size: f.size}, nil
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

// boundedReader refuses a file once it yields more bytes than a run reads:
// an archive entry's declared size is checked when the archive is listed,
// but a header can lie, and a file on disk can grow after it is listed.
type boundedReader struct {
	io.ReadCloser
	name        string
	limit, read int64
	// size is what the file was listed with: its size on disk, or the
	// entry's declared size, which a reader holding the file whole
	// checks before reading (source.Sized).
	size int64
}

// Size is the file's size when the run listed it.
func (b *boundedReader) Size() int64 { return b.size }

func (b *boundedReader) Read(p []byte) (int, error) {
	if b.read > b.limit {
		return 0, b.tooLarge()
	}
	if room := b.limit + 1 - b.read; int64(len(p)) > room {
		p = p[:room] // one byte past the limit is enough to know
	}
	n, err := b.ReadCloser.Read(p)
	if b.read += int64(n); b.read > b.limit {
		return n - 1, b.tooLarge()
	}
	return n, err
}

func (b *boundedReader) tooLarge() error {
	return source.TooLarge(b.name, "more than %s once uncompressed (%s)", source.Bytes(b.limit), MaxFileBytesSetting)
}

// Ingested is the outcome of one ingest run.
type Outcome struct {
	// Read is how many records the files held that the dataset takes,
	// new or not: the same on every run over the same files.
	Read int
	// Records is how many of them were written: those new or changed
	// where the store tells unchanged records apart (prices, judgments:
	// none on a second run over the same files), every one where it
	// replaces them in place.
	Records int
	// Skipped says what the files held that the dataset does not take,
	// such as B-shares in a list of A-share listings; empty when a
	// dataset's files hold nothing it leaves out.
	Skipped string
	// Indexed says what the run added to the dataset's search index kept
	// on disk, and where; empty when no index is kept there.
	Indexed string
}

// counts says what a run read and wrote, as `quarry ingest` reports it.
func (g Outcome) Counts() string {
	return fmt.Sprintf("read %d records, wrote %d new or changed, %d unchanged", g.Read, g.Records, g.Read-g.Records)
}
