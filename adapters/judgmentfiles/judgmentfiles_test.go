package judgmentfiles_test

import (
	"errors"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/quarrydata/quarry/adapters/judgmentfiles"
	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/domain/source"
)

// The metadata below describes real Supreme Court judgments (Kalawati (d)
// through LRs v Rakesh Kumar, 2018; Andhra Sugars, 2018); the texts are
// short excerpts.
const (
	kalawatiJSON = `{"court":"Supreme Court of India","case_number":"Civil Appeal No. 2244 of 2018","title":"Kalawati (d), through Lrs. and others v Rakesh Kumar and others","parties":[{"name":"Kalawati","role":"appellant"},{"name":"Rakesh Kumar","role":"respondent"}],"judges":["Madan B. Lokur","Deepak Gupta"],"decision_date":"2018-02-16","citations":[],"text_file":"kalawati.txt"}`
	andhraJSON   = `{"court":"Supreme Court of India","case_number":"Civil Appeal No. 11711 of 2016","title":"Commissioner of Customs Central Excise and Service Tax, Guntur v Andhra Sugars Limited","parties":[{"name":"Andhra Sugars Limited","role":"respondent"}],"decision_date":"2018-02-05","language":"en","page_count":12,"text_file":"andhra.txt"}`
	csvHeader    = "court,case_number,title,parties,decision_date,text_file,judges,citations\n"
	kalawatiCSV  = `Supreme Court of India,Civil Appeal No. 2244 of 2018,"Kalawati (d), through Lrs. and others v Rakesh Kumar and others","appellant: Kalawati; respondent: Rakesh Kumar",2018-02-16,kalawati.txt,Madan B. Lokur; Deepak Gupta,` + "\n"
)

func files(meta string, name string) fstest.MapFS {
	return fstest.MapFS{
		name:           {Data: []byte(meta)},
		"kalawati.txt": {Data: []byte("2. \"Ease of business\" and \"enforcement of contract\" are the two new buzzwords. The appellants (Kalawati and others) ...\n")},
		"andhra.txt":   {Data: []byte("2. The respondent M/s. Andhra Sugars Ltd. are the manufacturers of sugar.\n")},
	}
}

// load opens the metadata file name of fsys and reads its judgments.
func load(fsys fs.FS, name string, at time.Time) ([]judgment.Source, error) {
	f, err := judgmentfiles.Open(name, func(n string) ([]byte, error) { return fs.ReadFile(fsys, n) })
	if err != nil {
		return nil, err
	}
	var out []judgment.Source
	for s, err := range f.Judgments(at) {
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func TestLoadJSONLinesAndCSV(t *testing.T) {
	at := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
	for name, meta := range map[string]string{
		"meta.jsonl": kalawatiJSON + "\n" + andhraJSON + "\n",
		"meta.csv":   csvHeader + kalawatiCSV,
	} {
		t.Run(name, func(t *testing.T) {
			got, err := load(files(meta, name), name, at)
			if err != nil {
				t.Fatal(err)
			}
			k := got[0]
			if k.Court != "Supreme Court of India" || k.CaseNumber != "Civil Appeal No. 2244 of 2018" || k.DecisionDate != "2018-02-16" ||
				len(k.Parties) != 2 || k.Parties[1].Name != "Rakesh Kumar" || k.Parties[1].Role != "respondent" ||
				len(k.Judges) != 2 || k.Judges[1] != "Deepak Gupta" || k.Language != "en" || !strings.Contains(k.Text, "buzzwords") || !k.RetrievedAt.Equal(at) {
				t.Fatalf("first judgment = %+v", k)
			}
			if name == "meta.jsonl" && (len(got) != 2 || got[1].PageCount != 12) {
				t.Fatalf("judgments = %+v", got)
			}
		})
	}
}

func TestRefusals(t *testing.T) {
	cases := []struct {
		name, file, meta, want string
	}{
		{"truncated", "m.jsonl", kalawatiJSON, "m.jsonl:1: the last line has no line break"},
		{"cut inside a line", "m.jsonl", kalawatiJSON + "\n" + andhraJSON[:40] + "\n", "m.jsonl:2: not a JSON object"},
		{"unknown field", "m.jsonl", `{"court":"x","name_of_party":"y"}` + "\n", `m.jsonl:1: not a JSON object of the metadata's fields: json: unknown field "name_of_party"`},
		{"bad date", "m.jsonl", strings.Replace(kalawatiJSON, "2018-02-16", "16-02-2018", 1) + "\n", `m.jsonl:1: decision_date "16-02-2018" is not a date`},
		{"bad role", "m.jsonl", strings.Replace(kalawatiJSON, `"appellant"`, `"judge"`, 1) + "\n", `m.jsonl:1: parties[0]: role "judge" is not one of`},
		{"no parties", "m.jsonl", `{"court":"Supreme Court of India","case_number":"C.A. 1 of 2018","title":"In re","parties":[],"decision_date":"2018-01-01","text_file":"a.txt"}` + "\n", "m.jsonl:1: parties is empty"},
		{"a pdf", "m.jsonl", strings.Replace(kalawatiJSON, `"text_file"`, `"pdf_file":"k.pdf","text_file"`, 1) + "\n", "m.jsonl:1: pdf_file: original PDFs are not read"},
		{"text file in a directory", "m.jsonl", strings.Replace(kalawatiJSON, "kalawati.txt", "../etc/passwd", 1) + "\n", "must name a file beside the metadata file"},
		{"missing text file", "m.jsonl", strings.Replace(kalawatiJSON, "kalawati.txt", "gone.txt", 1) + "\n", "m.jsonl:1: text_file gone.txt:"},
		{"same judgment twice", "m.jsonl", kalawatiJSON + "\n" + strings.Replace(kalawatiJSON, "kalawati.txt", "andhra.txt", 1) + "\n", "m.jsonl:2: the same court, case number and decision date as line 1"},
		{"csv missing column", "m.csv", "court,case_number,title,parties,decision_date\nx,y,z,a: b,2018-01-01\n", `m.csv:1: column "text_file" is missing`},
		{"csv unknown column", "m.csv", "court,pan\n", `m.csv:1: unknown column "pan"`},
		{"csv party without role", "m.csv", csvHeader + strings.Replace(kalawatiCSV, "appellant: Kalawati", "Kalawati", 1), `m.csv:2: party "Kalawati": want role: name`},
		{"csv unterminated quote", "m.csv", csvHeader + `Supreme Court of India,"C.A. 1` + "\n", "m.csv:2:"},
		{"not utf-8", "m.jsonl", kalawatiJSON + "\n{\"court\":\"\xff\"}\n", "m.jsonl:2: not UTF-8"},
		{"other format", "m.txt", "x\n", `a metadata file is JSON lines (.jsonl, .ndjson) or CSV (.csv)`},
		{"empty", "m.csv", csvHeader, "m.csv: no judgment in the file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fsys := files(c.meta, c.file)
			_, err := load(fsys, c.file, time.Now())
			if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want ErrBadInput naming %q", err, c.want)
			}
			if f, err := judgmentfiles.Open(c.file, func(n string) ([]byte, error) { return fs.ReadFile(fsys, n) }); err == nil {
				if err := f.Check(); !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("Check: %v, want ErrBadInput naming %q", err, c.want)
				}
			}
		})
	}
}

// TestTextsAreReadAsTheirJudgmentsAreReached: opening a metadata file
// reads it alone; each text is read when its judgment is reached, so
// stopping early reads no more, and a bad text further on is found by
// Check, which reads them all, and by Judgments only once it is reached.
func TestTextsAreReadAsTheirJudgmentsAreReached(t *testing.T) {
	fsys := files(kalawatiJSON+"\n"+andhraJSON+"\n", "meta.jsonl")
	var read []string
	f, err := judgmentfiles.Open("meta.jsonl", func(n string) ([]byte, error) {
		read = append(read, n)
		return fs.ReadFile(fsys, n)
	})
	if err != nil || len(read) != 1 {
		t.Fatalf("Open read %v: %v", read, err)
	}
	for s, err := range f.Judgments(time.Now()) {
		if err != nil || !strings.Contains(s.Text, "buzzwords") {
			t.Fatalf("first judgment %+v, %v", s, err)
		}
		break
	}
	if !slices.Equal(read, []string{"meta.jsonl", "kalawati.txt"}) {
		t.Fatalf("read %v, want the metadata and the first text only", read)
	}
	fsys["andhra.txt"] = &fstest.MapFile{Data: []byte("\xff\n")}
	if err := f.Check(); !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), "meta.jsonl:2: text_file andhra.txt") {
		t.Fatalf("Check with a bad second text: %v", err)
	}
	n := 0
	for _, err := range f.Judgments(time.Now()) {
		if n++; (n == 1) != (err == nil) {
			t.Fatalf("judgment %d: %v", n, err)
		}
	}
	if n != 2 {
		t.Fatalf("%d judgments yielded, want the first and the refusal of the second", n)
	}
}

// FuzzParseMetadata feeds any bytes as JSON lines and as CSV: nothing
// panics, a refusal is ErrBadInput naming the file, and every entry
// accepted is a judgment that passes its checks.
func FuzzParseMetadata(f *testing.F) {
	f.Add([]byte(kalawatiJSON+"\n"+andhraJSON+"\n"), false)
	f.Add([]byte(csvHeader+kalawatiCSV), true)
	f.Fuzz(func(t *testing.T, data []byte, isCSV bool) {
		name := "meta.jsonl"
		if isCSV {
			name = "meta.csv"
		}
		entries, err := judgmentfiles.ParseMetadata(name, data)
		if err != nil {
			if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), name) {
				t.Fatalf("refusal %v is not ErrBadInput naming %s", err, name)
			}
			return
		}
		for _, e := range entries {
			s := e.Source
			s.Text = "text"
			if err := s.Check(); err != nil || e.TextFile == "" || strings.Contains(e.TextFile, "/") {
				t.Fatalf("line %d accepted: %+v (%v)", e.Line, e, err)
			}
		}
		if len(entries) == 0 {
			t.Fatalf("accepted %q with no judgment", data)
		}
	})
}
