package judgmentfiles

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"time"

	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/domain/pii"
	"github.com/quarrydata/quarry/domain/source"
)

// tokenizedLine is a stored judgment as a JSON line: the form a sample
// assembled ahead of time is shipped in, tokens only.
type tokenizedLine struct {
	JudgmentID   string          `json:"judgment_id"`
	Court        string          `json:"court"`
	Bench        string          `json:"bench"`
	CaseNumber   string          `json:"case_number"`
	Title        string          `json:"title"`
	Parties      []tokenizedRole `json:"parties"`
	Judges       []string        `json:"judges"`
	DecisionDate string          `json:"decision_date"`
	Citations    []string        `json:"citations"`
	Language     string          `json:"language"`
	PageCount    int             `json:"page_count"`
	Text         string          `json:"text"`
	RetrievedAt  time.Time       `json:"retrieved_at"`
}

type tokenizedRole struct {
	Token string `json:"token"`
	Role  string `json:"role"`
}

// panShaped finds what the redactor replaces; a tokenized file holds none.
var panShaped = regexp.MustCompile(`(?i)\b[A-Z]{5}[0-9]{4}[A-Z]\b`)

// WriteTokenized writes judgments as JSON lines.
func WriteTokenized(w io.Writer, js []judgment.Judgment) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for _, j := range js {
		parties := make([]tokenizedRole, len(j.Parties))
		for i, p := range j.Parties {
			parties[i] = tokenizedRole{Token: p.Token, Role: string(p.Role)}
		}
		if err := enc.Encode(tokenizedLine{
			JudgmentID: j.ID, Court: j.Court, Bench: j.Bench, CaseNumber: j.CaseNumber, Title: j.Title, Parties: parties,
			Judges: j.Judges, DecisionDate: j.DecisionDate, Citations: j.Citations, Language: j.Language,
			PageCount: j.PageCount, Text: j.Text, RetrievedAt: j.RetrievedAt,
		}); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// ParseTokenized reads judgments written by WriteTokenized, refusing one
// whose id is not the one its court, case number and date derive, whose
// parties are not tokens, or which holds a PAN-shaped word.
func ParseTokenized(name string, data []byte) ([]judgment.Judgment, error) {
	var out []judgment.Judgment
	for i, raw := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		line := i + 1
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		var l tokenizedLine
		if err := dec.Decode(&l); err != nil {
			return nil, source.AtLine(name, line, "not a tokenized judgment: %v", err)
		}
		j, err := l.judgment()
		if err != nil {
			return nil, source.LineError(name, line, err)
		}
		out = append(out, j)
	}
	return out, nil
}

func (l tokenizedLine) judgment() (judgment.Judgment, error) {
	if want := judgment.NewID(l.Court, l.CaseNumber, l.DecisionDate); l.JudgmentID != want {
		return judgment.Judgment{}, fmt.Errorf("judgment_id %s is not %s, derived from its court, case number and date", l.JudgmentID, want)
	}
	j := judgment.Judgment{
		ID: l.JudgmentID, Court: l.Court, Bench: l.Bench, CaseNumber: l.CaseNumber, Title: l.Title, Judges: nonNil(l.Judges),
		DecisionDate: l.DecisionDate, Citations: nonNil(l.Citations), Language: l.Language, PageCount: l.PageCount,
		Text: l.Text, RetrievedAt: l.RetrievedAt.UTC(),
	}
	for _, p := range l.Parties {
		role, err := judgment.ParseRole(p.Role)
		if err != nil {
			return judgment.Judgment{}, err
		}
		if !pii.IsToken(p.Token) {
			return judgment.Judgment{}, fmt.Errorf("party %s is not a token", source.Quote(p.Token))
		}
		j.Parties = append(j.Parties, judgment.Party{Token: p.Token, Role: role})
	}
	for _, s := range append([]string{l.Title, l.CaseNumber, l.Bench, l.Text}, append(l.Judges, l.Citations...)...) {
		if m := panShaped.FindString(s); m != "" && !pii.IsToken(m) {
			return judgment.Judgment{}, fmt.Errorf("holds a PAN-shaped word: not tokenized")
		}
	}
	return j, nil
}
