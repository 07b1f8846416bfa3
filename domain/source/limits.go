package source

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Bounds on what a reader holds in memory at once. Real files pass them
// with a wide margin: the largest companyfacts documents are about 30 MB
// and EDGAR, NSE and the exchanges write lines of at most a few kilobytes.
// A file beyond them is refused rather than read: a small zip can hold
// gigabytes of whitespace, and decoding it whole once took 5 GB of memory.
const (
	// MaxDocumentBytes bounds a file a reader holds whole: a JSON
	// document, or a CSV file parsed in one piece.
	MaxDocumentBytes = 256 << 20
	// MaxLineBytes bounds one line (one record, quoted newlines included)
	// of a CSV or TSV file read line by line.
	MaxLineBytes = 1 << 20
)

// Bounds on an archive entry before it is inflated: deflate packs at most
// about 1,032 bytes into one, and real source files (CSV, TSV, JSON, XML)
// pack ten to thirty, so an entry declaring far more than that is a zip
// bomb, refused before any of it is inflated.
const (
	// MaxEntryRatio is the most bytes uncompressed an entry may declare
	// for each byte it holds compressed.
	MaxEntryRatio = 200
	// ratioFrom is the size below which an entry's ratio is not checked:
	// a small file of one repeated byte packs far tighter, harmlessly.
	ratioFrom = 1 << 20
)

// CheckEntry refuses an archive entry, before it is inflated, that
// declares more than limit bytes uncompressed (setting names the bound
// in the refusal) or, past 1 MiB, more than MaxEntryRatio times what it
// holds compressed. The archive reader refuses an entry that yields more
// than it declares, so the declared size bounds the inflating too.
func CheckEntry(name string, compressed, uncompressed uint64, limit int64, setting string) error {
	if uncompressed > uint64(limit) {
		return TooLarge(name, "declares %d bytes uncompressed, more than %s (%s)", uncompressed, Bytes(limit), setting)
	}
	if uncompressed > ratioFrom && uncompressed/max(compressed, 1) > MaxEntryRatio {
		return TooLarge(name, "declares %d bytes uncompressed from %d compressed, more than %d to one: a zip bomb", uncompressed, compressed, MaxEntryRatio)
	}
	return nil
}

// Sized is a reader that knows how many bytes it should yield: an archive
// entry's declared size, a file's size on disk. ReadAll refuses one
// declaring more than its limit before reading, and reads one declaring
// less into a buffer of that size.
type Sized interface {
	io.Reader
	Size() int64
}

// ErrTooLarge is wrapped, beside ErrBadInput, by the refusal of a file,
// a line or an archive entry beyond its bound.
var ErrTooLarge = errors.New("too large")

// quoteRunes is how much of a value an error quotes: enough to recognise
// it, never a whole field of a hostile file.
const quoteRunes = 64

// Quote quotes a value from a source file for an error message, as %q
// does, but at most its first 64 characters, followed by …(N bytes) when
// it is longer: a refusal must not echo a 100 MB field.
func Quote(s string) string {
	n := 0
	for i := range s {
		if n == quoteRunes {
			return strconv.Quote(s[:i]) + "…(" + strconv.Itoa(len(s)) + " bytes)"
		}
		n++
	}
	return strconv.Quote(s)
}

// ReadAll reads r whole, as io.ReadAll does, but refuses file once it
// holds more than limit bytes, having read no more than limit+1 of them.
// A Sized reader declaring more than limit is refused before anything is
// read, and one declaring less is read into a buffer of its size and one
// byte, so that a whole read allocates once. Otherwise the buffer doubles,
// up to limit+1, so refusing a file allocates about twice the limit in
// all, where io.ReadAll's gentler growth allocates about five times what
// it reads.
func ReadAll(file string, r io.Reader, limit int64) ([]byte, error) {
	most := int(min(limit+1, math.MaxInt))
	first := min(512, most)
	if s, ok := r.(Sized); ok {
		if s.Size() > limit {
			return nil, TooLarge(file, "%d bytes, larger than %s", s.Size(), Bytes(limit))
		}
		first = int(max(s.Size()+1, int64(first)))
	}
	buf := make([]byte, 0, first)
	for {
		if len(buf) == most {
			return nil, TooLarge(file, "larger than %s", Bytes(limit))
		}
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, min(cap(buf), most-cap(buf)))
		}
		n, err := r.Read(buf[len(buf):min(cap(buf), most)])
		buf = buf[:len(buf)+n]
		switch {
		case err == io.EOF && len(buf) == most:
			return nil, TooLarge(file, "larger than %s", Bytes(limit))
		case err == io.EOF:
			return buf, nil
		case err != nil:
			return nil, err
		}
	}
}

// TooLarge refuses a file, or an entry of an archive, for its size.
func TooLarge(file, format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s (%w)", ErrBadInput, file, fmt.Sprintf(format, args...), ErrTooLarge)
}

// Bytes writes a size as the settings take it: in GiB, MiB or KiB when
// it is a whole number of them.
func Bytes(n int64) string {
	for _, u := range []struct {
		suffix string
		size   int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + " " + u.suffix
		}
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// Lines bounds the lines of a CSV or TSV file as they are read: a read
// that would make one record longer than limit bytes fails, refusing
// file, so that a reader which buffers a record (encoding/csv does) never
// holds more. A record ends at a newline outside double quotes; a doubled
// quote inside quotes flips the state twice, so counting quotes is enough.
func Lines(file string, r io.Reader, limit int) io.Reader {
	return &lineBound{file: file, r: r, limit: limit}
}

type lineBound struct {
	file     string
	r        io.Reader
	limit    int
	line     int // lines begun, for the refusal
	run      int // bytes of the current record
	inQuotes bool
	err      error
}

func (b *lineBound) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.r.Read(p)
	for i, c := range p[:n] {
		switch {
		case c == '"':
			b.inQuotes = !b.inQuotes
		case c == '\n' && !b.inQuotes:
			b.run, b.line = 0, b.line+1
			continue
		}
		if b.run++; b.run > b.limit {
			b.err = TooLarge(fmt.Sprintf("%s:%d", b.file, b.line+1), "a line longer than %s", Bytes(int64(b.limit)))
			return i, b.err
		}
	}
	return n, err
}

// EntryNames checks the names of an archive's entries before any is read:
// each must be a local, slash-separated path (no .., no leading /, no
// backslash, no drive letter, no element that cleans away) and no two may
// be the same. Quarry never unpacks an archive to disk, but a file cited as
// archive.zip:../x, or two entries one name stands for, would make an
// error, a progress line or a stored source name point at the wrong file.
func EntryNames(archive string, names []string) error {
	seen := make(map[string]bool, len(names))
	for _, name := range names {
		if err := entryName(name); err != nil {
			return Whole(archive, "entry %s: %v", Quote(name), err)
		}
		if seen[name] {
			return Whole(archive, "entry %s appears twice", Quote(name))
		}
		seen[name] = true
	}
	return nil
}

func entryName(name string) error {
	trimmed := strings.TrimSuffix(name, "/") // a directory entry
	switch {
	case trimmed == "":
		return errors.New("an empty name")
	case strings.ContainsRune(name, '\\'):
		return errors.New("a backslash in the name; zip entries are named with /")
	case len(name) >= 2 && name[1] == ':':
		return errors.New("a drive letter; an entry's name is relative")
	case strings.ContainsAny(name, ":\x00"):
		return errors.New("a colon or NUL in the name; a run cites an entry as archive.zip:entry")
	case !fs.ValidPath(trimmed):
		return errors.New("not a local path: an absolute path, or one with an empty, . or .. element")
	}
	return nil
}
