// Package source names what every reader of an outside source file shares:
// the error that refuses a file, and the way a refusal cites where in the
// file the problem is. The readers themselves are adapters, one package per
// source format; they all wrap ErrBadInput, so the ingest command and any
// other caller tell a bad file from a failure of Quarry with errors.Is.
package source

import (
	"errors"
	"fmt"
	"path"
	"strings"
)

// ErrBadInput reports a source file that cannot be ingested. It is always
// wrapped with the file's name, where in it the problem is (a line, a byte
// offset or a JSON path) and the reason; a caller answering a client maps
// it to a 4xx, never to a 500.
var ErrBadInput = errors.New("bad input")

// AtLine refuses a file for a problem on one line (1 is the first; 0 when
// no line is known).
func AtLine(file string, line int, format string, args ...any) error {
	return fmt.Errorf("%w: %s:%d: %s", ErrBadInput, file, line, fmt.Sprintf(format, args...))
}

// AtPath refuses a file for a value at a place that is not a line: a JSON
// path such as facts.us-gaap.Revenues.units.USD[3].val, or a byte offset
// such as "byte 60".
func AtPath(file, place, format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s: %s", ErrBadInput, file, place, fmt.Sprintf(format, args...))
}

// Whole refuses a file as a whole, for a problem no place in it shows.
func Whole(file, format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s", ErrBadInput, file, fmt.Sprintf(format, args...))
}

// LineError refuses a file for err on one line, keeping err in the chain,
// so that a caller can still tell which rule refused the file.
func LineError(file string, line int, err error) error {
	return fmt.Errorf("%w: %s:%d: %w", ErrBadInput, file, line, err)
}

// BaseName is the last element of the name of a file an ingestion run
// reads: of a path, or of the entry in archive.zip:entry, the name an
// entry of a zip archive is read under.
func BaseName(name string) string {
	if i := strings.LastIndex(name, ":"); i >= 0 {
		name = name[i+1:]
	}
	return path.Base(name)
}
