package ask

import "testing"

// matches reports whether sentence answers question by textMatch's rules.
func matches(t *testing.T, question, sentence string) bool {
	t.Helper()
	m, ok := newTextMatch(question, map[string]bool{})
	if !ok {
		t.Fatalf("%q: too few words to match", question)
	}
	sn := docSentence{said: sentence, stems: contentStems(sentence), proseEnough: proseSentence(sentence), modifies: compoundModifiers(sentence)}
	_, answers := m.score(sn, func(string) bool { return false })
	return answers
}

func TestTextMatchSameSense(t *testing.T) {
	for _, c := range []struct {
		question, sentence string
		want               bool
	}{
		// A capitalised compound's first word is not the word asked about.
		{"Who reviews the accounts?", "The Review Committee meets with the accounts staff every quarter.", false},
		{"Who compensates the board members?", "The Compensation Committee sets the pay of the board members.", false},
		// Unless the question names the compound.
		{"Which members sit on the compensation committee?", "Three independent members sit on the Compensation Committee of the board.", true},
		// The same word inflected, or its agent noun, is the word.
		{"Which firm audited the accounts?", "An independent auditor has audited the accounts of the firm this year.", true},
		{"How many weeks did the year span?", "The fiscal year spanned 53 weeks rather than the usual 52.", true},
		// A longer, different word is not.
		{"Which plants were closed?", "The plantation owners were closed out of the market last year.", false},
		{"Which plants were closed?", "Two of the plants were closed last year after a long review.", true},
	} {
		if got := matches(t, c.question, c.sentence); got != c.want {
			t.Errorf("%q answered by %q: %v, want %v", c.question, c.sentence, got, c.want)
		}
	}
}
