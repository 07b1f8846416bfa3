// Package judgmentfiles reads Indian court judgments as public corpora
// publish them: a metadata file, JSON lines or CSV, one judgment a line,
// naming each judgment's text file, which lies beside it. It yields the
// judgments as published (judgment.Source), names in clear, each text read
// only when its judgment is reached (File.Judgments), so a run holds one
// text however many a file names; tokenizing them is the domain's
// (judgment.Tokenize). A file that cannot be read whole is refused with
// its name, line and reason (source.ErrBadInput).
package judgmentfiles

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/domain/source"
)

// MaxMetadataBytes bounds a metadata file.
const MaxMetadataBytes = 64 << 20

// Entry is one line of a metadata file: the judgment it describes, without
// its text, and the name of its text file.
type Entry struct {
	Line     int
	Source   judgment.Source
	TextFile string
}

// metadataLine is a JSON line of a metadata file.
type metadataLine struct {
	Court        string      `json:"court"`
	Bench        string      `json:"bench"`
	CaseNumber   string      `json:"case_number"`
	Title        string      `json:"title"`
	Parties      []partyLine `json:"parties"`
	Judges       []string    `json:"judges"`
	DecisionDate string      `json:"decision_date"`
	Citations    []string    `json:"citations"`
	Language     string      `json:"language"`
	PageCount    int         `json:"page_count"`
	TextFile     string      `json:"text_file"`
	PDFFile      *string     `json:"pdf_file"`
	SourceURL    string      `json:"source_url"`
}

type partyLine struct {
	Name string `json:"name"`
	Role string `json:"role"`
}

// errNoPDF explains why an original PDF is not read.
var errNoPDF = errors.New("pdf_file: original PDFs are not read (no pure-Go extractor keeps a court PDF's text in reading order); give its text as text_file, for example from pdftotext -layout")

// ParseMetadata reads a metadata file: JSON lines when its name ends in
// .jsonl or .ndjson, CSV when it ends in .csv. Every line is checked except
// for its text, which File.Judgments reads.
func ParseMetadata(name string, data []byte) ([]Entry, error) {
	if len(data) > MaxMetadataBytes {
		return nil, source.Whole(name, "larger than %d bytes", MaxMetadataBytes)
	}
	if !utf8.Valid(data) {
		return nil, source.AtLine(name, lineOf(data, firstInvalid(data)), "not UTF-8")
	}
	if len(data) == 0 || data[len(data)-1] != '\n' {
		// Every writer of these files ends the last line; without the
		// line break a file cut inside its last line would pass for whole.
		return nil, source.AtLine(name, bytes.Count(data, []byte("\n"))+1, "the last line has no line break: the file is truncated or empty")
	}
	switch ext := strings.ToLower(path.Ext(name)); ext {
	case ".jsonl", ".ndjson":
		return parseJSONLines(name, data)
	case ".csv":
		return parseCSV(name, data)
	default:
		return nil, source.Whole(name, "a metadata file is JSON lines (.jsonl, .ndjson) or CSV (.csv), not %q", ext)
	}
}

func firstInvalid(data []byte) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return len(data)
}

func lineOf(data []byte, offset int) int { return bytes.Count(data[:offset], []byte("\n")) + 1 }

func parseJSONLines(name string, data []byte) ([]Entry, error) {
	var out []Entry
	for i, raw := range bytes.Split(data[:len(data)-1], []byte("\n")) {
		line := i + 1
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		var m metadataLine
		if err := dec.Decode(&m); err != nil {
			return nil, source.AtLine(name, line, "not a JSON object of the metadata's fields: %v", err)
		}
		if dec.More() {
			return nil, source.AtLine(name, line, "more than one JSON value on the line")
		}
		e, err := m.entry(line)
		if err != nil {
			return nil, source.LineError(name, line, err)
		}
		out = append(out, e)
	}
	return checkEntries(name, out)
}

func (m metadataLine) entry(line int) (Entry, error) {
	if m.PDFFile != nil {
		return Entry{}, errNoPDF
	}
	parties := make([]judgment.SourceParty, len(m.Parties))
	for i, p := range m.Parties {
		parties[i] = judgment.SourceParty{Name: p.Name, Role: judgment.Role(p.Role)}
	}
	return newEntry(line, judgment.Source{
		Court: m.Court, Bench: m.Bench, CaseNumber: m.CaseNumber, Title: m.Title, Parties: parties,
		Judges: nonNil(m.Judges), DecisionDate: m.DecisionDate, Citations: nonNil(m.Citations), Language: m.Language, PageCount: m.PageCount,
	}, m.TextFile)
}

// newEntry checks everything of a line but the text, which is not read
// yet: a placeholder stands in for it.
func newEntry(line int, s judgment.Source, textFile string) (Entry, error) {
	if s.Language == "" {
		s.Language = "en"
	}
	if err := checkTextFile(textFile); err != nil {
		return Entry{}, err
	}
	probe := s
	probe.Text = "text"
	if err := probe.Check(); err != nil {
		return Entry{}, err
	}
	return Entry{Line: line, Source: s, TextFile: textFile}, nil
}

// checkTextFile accepts a plain file name beside the metadata file.
func checkTextFile(name string) error {
	switch {
	case name == "":
		return errors.New("text_file is empty")
	case strings.ContainsAny(name, `/\`) || name == "." || name == ".." || !utf8.ValidString(name):
		return fmt.Errorf("text_file %s must name a file beside the metadata file, without a directory", source.Quote(name))
	}
	return nil
}

// csvColumns are the CSV header's names; the first six are required.
var csvColumns = []string{"court", "case_number", "title", "parties", "decision_date", "text_file", "bench", "judges", "citations", "language", "page_count", "source_url"}

const requiredCSVColumns = 6

func parseCSV(name string, data []byte) ([]Entry, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.ReuseRecord = false
	header, err := r.Read()
	if err != nil {
		return nil, source.AtLine(name, 1, "no header row: %v", err)
	}
	col := map[string]int{}
	for i, h := range header {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		if !slices.Contains(csvColumns, h) {
			return nil, source.AtLine(name, 1, "unknown column %s (known: %s)", source.Quote(h), strings.Join(csvColumns, ", "))
		}
		if _, dup := col[h]; dup {
			return nil, source.AtLine(name, 1, "column %s appears twice", source.Quote(h))
		}
		col[h] = i
	}
	for _, c := range csvColumns[:requiredCSVColumns] {
		if _, ok := col[c]; !ok {
			return nil, source.AtLine(name, 1, "column %q is missing (required: %s)", c, strings.Join(csvColumns[:requiredCSVColumns], ", "))
		}
	}
	var out []Entry
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			line := 0
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				line = pe.StartLine
			}
			return nil, source.AtLine(name, line, "%v", err)
		}
		line, _ := r.FieldPos(0)
		e, err := csvEntry(rec, col, line)
		if err != nil {
			return nil, source.LineError(name, line, err)
		}
		out = append(out, e)
	}
	return checkEntries(name, out)
}

func csvEntry(rec []string, col map[string]int, line int) (Entry, error) {
	get := func(c string) string {
		if i, ok := col[c]; ok {
			return rec[i]
		}
		return ""
	}
	parties, err := csvParties(get("parties"))
	if err != nil {
		return Entry{}, err
	}
	pages := 0
	if raw := strings.TrimSpace(get("page_count")); raw != "" {
		if pages, err = strconv.Atoi(raw); err != nil {
			return Entry{}, fmt.Errorf("page_count %s is not a whole number", source.Quote(raw))
		}
	}
	return newEntry(line, judgment.Source{
		Court: get("court"), Bench: get("bench"), CaseNumber: get("case_number"), Title: get("title"), Parties: parties,
		Judges: list(get("judges")), DecisionDate: strings.TrimSpace(get("decision_date")), Citations: list(get("citations")),
		Language: strings.TrimSpace(get("language")), PageCount: pages,
	}, strings.TrimSpace(get("text_file")))
}

// csvParties reads "role: name; role: name".
func csvParties(raw string) ([]judgment.SourceParty, error) {
	var out []judgment.SourceParty
	for _, item := range list(raw) {
		role, name, ok := strings.Cut(item, ":")
		if !ok {
			return nil, fmt.Errorf("party %s: want role: name, such as petitioner: Union of India", source.Quote(item))
		}
		out = append(out, judgment.SourceParty{Name: strings.TrimSpace(name), Role: judgment.Role(strings.TrimSpace(role))})
	}
	return out, nil
}

// list splits a CSV cell at semicolons, dropping empty items.
func list(raw string) []string {
	out := []string{}
	for _, s := range strings.Split(raw, ";") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// checkEntries refuses a file without judgments, and one naming the same
// judgment (court, case number, decision date) or text file twice.
func checkEntries(name string, entries []Entry) ([]Entry, error) {
	if len(entries) == 0 {
		return nil, source.Whole(name, "no judgment in the file")
	}
	ids, texts := map[string]int{}, map[string]int{}
	for _, e := range entries {
		id := judgment.NewID(e.Source.Court, e.Source.CaseNumber, e.Source.DecisionDate)
		if first, dup := ids[id]; dup {
			return nil, source.AtLine(name, e.Line, "the same court, case number and decision date as line %d", first)
		}
		if first, dup := texts[e.TextFile]; dup {
			return nil, source.AtLine(name, e.Line, "text_file %s is named on line %d too", e.TextFile, first)
		}
		ids[id], texts[e.TextFile] = e.Line, e.Line
	}
	return entries, nil
}

// ReadFile reads a file by name, as os.ReadFile does.
type ReadFile func(name string) ([]byte, error)

// File is a metadata file read and parsed, whose text files are read one
// at a time, as its judgments are reached: however many it names, it
// holds one text.
type File struct {
	path    string
	entries []Entry
	read    ReadFile
}

// Open reads the metadata file at metaPath and parses it (ParseMetadata);
// read reads it, and its text files from the same directory later.
func Open(metaPath string, read ReadFile) (*File, error) {
	data, err := read(metaPath)
	if err != nil {
		return nil, source.Whole(metaPath, "%v", err)
	}
	entries, err := ParseMetadata(metaPath, data)
	if err != nil {
		return nil, err
	}
	return &File{path: metaPath, entries: entries, read: read}, nil
}

// Name is the metadata file's path, as given to Open.
func (f *File) Name() string { return f.path }

// Judgments yields the file's judgments as published, retrieved at
// retrievedAt, in the file's order, each with its text, read when it is
// reached. A text that cannot be read or fails its checks is yielded as
// an error naming the file, line and text file, and ends the sequence.
func (f *File) Judgments(retrievedAt time.Time) iter.Seq2[judgment.Source, error] {
	return func(yield func(judgment.Source, error) bool) {
		for _, e := range f.entries {
			s, err := f.judgment(e, retrievedAt)
			if !yield(s, err) || err != nil {
				return
			}
		}
	}
}

// Check reads every text file and checks its judgment, keeping no text,
// and returns the first refusal, as Judgments would yield it.
func (f *File) Check() error {
	for _, err := range f.Judgments(time.Time{}) {
		if err != nil {
			return err
		}
	}
	return nil
}

// judgment reads the text of e and checks the judgment it completes.
func (f *File) judgment(e Entry, retrievedAt time.Time) (judgment.Source, error) {
	text, err := f.read(path.Join(path.Dir(f.path), e.TextFile))
	if err != nil {
		return judgment.Source{}, source.AtLine(f.path, e.Line, "text_file %s: %v", e.TextFile, err)
	}
	s := e.Source
	s.Text, s.RetrievedAt = strings.TrimPrefix(string(text), "\ufeff"), retrievedAt
	if err := s.Check(); err != nil {
		return judgment.Source{}, source.AtLine(f.path, e.Line, "text_file %s: %v", e.TextFile, err)
	}
	return s, nil
}
