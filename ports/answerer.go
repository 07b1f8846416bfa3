package ports

import "context"

// Passage is one retrieved, cited passage an answerer may draw on; Marker
// is its citation number, from 1.
type Passage struct {
	Marker int
	Title  string
	Text   string
}

// AnswerRequest is a question and the passages retrieved for it.
type AnswerRequest struct {
	Question string
	Passages []Passage
}

// AnswerSentence is one sentence of an answer and the marker of the
// passage it cites.
type AnswerSentence struct {
	Text   string
	Marker int
}

// Answerer writes an answer from passages, sentence by sentence, each
// sentence citing one passage. It is the seam of Ask's answering: the
// extractive answerer in app is the default, and a language model behind
// an OpenAI-compatible endpoint (adapters/chatcompletions) can stand in.
// Ask checks every sentence against its cited passage and drops the ones
// the passage does not support, so an Answerer need not be trusted.
type Answerer interface {
	// Name is the answerer's name in an answer's meta, such as
	// chat-v1:<model>.
	Name() string
	Answer(ctx context.Context, r AnswerRequest) ([]AnswerSentence, error)
}
