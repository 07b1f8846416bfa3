package judgment

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/quarrydata/quarry/domain/pii"
	"github.com/quarrydata/quarry/domain/source"
)

// Source is a judgment as a court publishes it: names and PANs in clear.
// It exists only while `quarry ingest` reads it; Tokenize turns it into
// the Judgment that is stored.
type Source struct {
	Court        string
	Bench        string
	CaseNumber   string
	Title        string
	Parties      []SourceParty
	Judges       []string
	DecisionDate string
	Citations    []string
	Language     string
	PageCount    int
	Text         string
	RetrievedAt  time.Time
}

// SourceParty is a litigant as the source names it.
type SourceParty struct {
	Name string
	Role Role
}

// Bounds of a source judgment.
const (
	maxFieldRunes = 2000
	maxParties    = 200
	// MaxTextBytes bounds a judgment's full text: the longest Supreme
	// Court judgments run to a few megabytes of text.
	MaxTextBytes = 16 << 20
	maxPages     = 100_000
)

var languagePattern = regexp.MustCompile(`^[a-z]{2,3}$`)

// Check returns the first reason s cannot be stored, naming the field.
func (s Source) Check() error {
	for name, v := range map[string]string{"court": s.Court, "case_number": s.CaseNumber, "title": s.Title} {
		if strings.TrimSpace(v) == "" {
			return fmt.Errorf("%s is empty", name)
		}
	}
	for name, v := range map[string]string{"court": s.Court, "bench": s.Bench, "case_number": s.CaseNumber, "title": s.Title} {
		if err := checkField(name, v); err != nil {
			return err
		}
	}
	if err := checkParties(s.Parties); err != nil {
		return err
	}
	for i, j := range s.Judges {
		if strings.TrimSpace(j) == "" {
			return fmt.Errorf("judges[%d] is empty", i)
		}
		if err := checkField(fmt.Sprintf("judges[%d]", i), j); err != nil {
			return err
		}
	}
	for i, c := range s.Citations {
		if err := checkField(fmt.Sprintf("citations[%d]", i), c); err != nil {
			return err
		}
	}
	if _, err := time.Parse(time.DateOnly, s.DecisionDate); err != nil {
		return fmt.Errorf("decision_date %s is not a date YYYY-MM-DD", source.Quote(s.DecisionDate))
	}
	if !languagePattern.MatchString(s.Language) {
		return fmt.Errorf("language %s is not an ISO 639 code such as en or hi", source.Quote(s.Language))
	}
	if s.PageCount < 0 || s.PageCount > maxPages {
		return fmt.Errorf("page_count %d is outside 0 to %d", s.PageCount, maxPages)
	}
	return checkText(s.Text)
}

func checkField(name, v string) error {
	switch {
	case !utf8.ValidString(v):
		return fmt.Errorf("%s is not UTF-8", name)
	case utf8.RuneCountInString(v) > maxFieldRunes:
		return fmt.Errorf("%s is longer than %d characters", name, maxFieldRunes)
	case strings.ContainsRune(v, 0):
		return fmt.Errorf("%s holds a NUL character", name)
	}
	return nil
}

func checkParties(parties []SourceParty) error {
	if len(parties) == 0 {
		return errors.New("parties is empty: a judgment names at least one party")
	}
	if len(parties) > maxParties {
		return fmt.Errorf("more than %d parties", maxParties)
	}
	for i, p := range parties {
		if strings.TrimSpace(p.Name) == "" {
			return fmt.Errorf("parties[%d] has no name", i)
		}
		if err := checkField(fmt.Sprintf("parties[%d].name", i), p.Name); err != nil {
			return err
		}
		if _, err := ParseRole(string(p.Role)); err != nil {
			return fmt.Errorf("parties[%d]: %w", i, err)
		}
	}
	return nil
}

func checkText(text string) error {
	switch {
	case strings.TrimSpace(text) == "":
		return errors.New("the judgment's text is empty")
	case len(text) > MaxTextBytes:
		return fmt.Errorf("the judgment's text is longer than %d bytes", MaxTextBytes)
	case !utf8.ValidString(text):
		return errors.New("the judgment's text is not UTF-8")
	case strings.ContainsRune(text, 0):
		return errors.New("the judgment's text holds a NUL character")
	}
	return nil
}

// Tokenize checks s and returns the Judgment to store, with every party's
// name, every person its text names as a litigant or a litigant's relative
// (pii.Litigants) and every PAN replaced by its token wherever it occurs
// (title, case number, bench, judges, citations, text), and the vault
// entries of the tokens used. Judges, courts and advocates are not PII
// (spec-gaps B25); a name in them is replaced only when it is also a
// party's or a litigant's.
func Tokenize(key pii.Key, s Source) (Judgment, []pii.Entry, error) {
	if err := s.Check(); err != nil {
		return Judgment{}, nil, err
	}
	names := make([]string, len(s.Parties))
	for i, p := range s.Parties {
		names[i] = p.Name
	}
	r, err := key.PeopleRedactor(findPeople(key, searched(s.Title, s.CaseNumber, s.Bench, s.Citations, s.Text), s.Judges, names))
	if err != nil {
		return Judgment{}, nil, err
	}
	j := Judgment{
		ID:           NewID(s.Court, s.CaseNumber, s.DecisionDate),
		Court:        strings.TrimSpace(s.Court),
		DecisionDate: s.DecisionDate,
		Language:     s.Language,
		PageCount:    s.PageCount,
		RetrievedAt:  s.RetrievedAt,
	}
	redactFields(r, &j, s.Bench, s.CaseNumber, s.Title, s.Judges, s.Citations, s.Text)
	for _, p := range s.Parties {
		tok, err := r.Token(p.Name)
		if err != nil {
			return Judgment{}, nil, err
		}
		role, _ := ParseRole(string(p.Role))
		j.Parties = append(j.Parties, Party{Token: tok, Role: role})
	}
	return j, r.Entries(), nil
}

// Retokenize applies the rules of Tokenize again to a judgment already
// stored: the persons its text names as litigants and the PANs that the
// rules of its time left in clear are replaced by their tokens, and the
// tokens it holds are left as they are. It serves to bring a stored
// judgment, such as the bundled sample's, whose originals are no longer
// at hand, up to rules that find more; ingesting from the source files
// gives the same result where they are at hand.
func Retokenize(key pii.Key, j Judgment) (Judgment, []pii.Entry, error) {
	if _, err := key.Token(pii.KindPAN, "AAAPA1234A"); err != nil {
		return Judgment{}, nil, err
	}
	r, err := key.PeopleRedactor(findPeople(key, searched(j.Title, j.CaseNumber, j.Bench, j.Citations, j.Text), j.Judges, nil))
	if err != nil {
		return Judgment{}, nil, err
	}
	out := j
	redactFields(r, &out, j.Bench, j.CaseNumber, j.Title, j.Judges, j.Citations, j.Text)
	return out, r.Entries(), nil
}

// findPeople finds the people of text once its PANs are tokens, as the
// redactor reads it: an address holding a PAN (a GSTIN after it) is then
// matched whole.
func findPeople(key pii.Key, text string, judges, parties []string) pii.People {
	r, err := key.NewRedactor(nil)
	if err != nil {
		return pii.FindPeople(text, judges, parties)
	}
	return pii.FindPeople(r.RedactPANs(text), judges, parties)
}

// searched is the text litigants are looked for in: every field that may
// name them, a blank line apart so no name runs from one into the next.
func searched(title, caseNumber, bench string, citations []string, text string) string {
	return strings.Join(append([]string{title, caseNumber, bench, text}, citations...), "\n\n")
}

// redactFields sets j's tokenized fields from the given originals.
func redactFields(r *pii.Redactor, j *Judgment, bench, caseNumber, title string, judges, citations []string, text string) {
	j.Bench = r.Redact(strings.TrimSpace(bench))
	j.CaseNumber = r.Redact(strings.TrimSpace(caseNumber))
	j.Title = r.Redact(strings.TrimSpace(title))
	j.Judges = redactAll(r, judges)
	j.Citations = redactAll(r, citations)
	j.Text = r.Redact(text)
}

func redactAll(r *pii.Redactor, in []string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = r.Redact(strings.TrimSpace(s))
	}
	return out
}
