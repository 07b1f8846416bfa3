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
// name and every PAN replaced by its token wherever it occurs (title, case
// number, bench, judges, citations, text), and the vault entries of the
// tokens used. Judges, courts and advocates are not PII (spec-gaps B25);
// a name in them is replaced only when it is also a party's.
func Tokenize(key pii.Key, s Source) (Judgment, []pii.Entry, error) {
	if err := s.Check(); err != nil {
		return Judgment{}, nil, err
	}
	names := make([]string, len(s.Parties))
	for i, p := range s.Parties {
		names[i] = p.Name
	}
	r, err := key.NewRedactor(names)
	if err != nil {
		return Judgment{}, nil, err
	}
	j := Judgment{
		ID:           NewID(s.Court, s.CaseNumber, s.DecisionDate),
		Court:        strings.TrimSpace(s.Court),
		Bench:        r.Redact(strings.TrimSpace(s.Bench)),
		CaseNumber:   r.Redact(strings.TrimSpace(s.CaseNumber)),
		Title:        r.Redact(strings.TrimSpace(s.Title)),
		Judges:       redactAll(r, s.Judges),
		DecisionDate: s.DecisionDate,
		Citations:    redactAll(r, s.Citations),
		Language:     s.Language,
		PageCount:    s.PageCount,
		Text:         r.Redact(s.Text),
		RetrievedAt:  s.RetrievedAt,
	}
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

func redactAll(r *pii.Redactor, in []string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = r.Redact(strings.TrimSpace(s))
	}
	return out
}
