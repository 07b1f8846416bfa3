// Package chatcompletions answers Ask's questions through an
// OpenAI-compatible chat-completions endpoint: it implements
// ports.Answerer. Ask, not this package, decides which of the model's
// sentences are kept.
package chatcompletions

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/ports"
)

// DefaultTimeout bounds one call to the endpoint.
const DefaultTimeout = 20 * time.Second

// maxReplyBytes bounds the reply read from the endpoint.
const maxReplyBytes = 1 << 20

// Answerer calls POST <base>/chat/completions.
type Answerer struct {
	endpoint string
	model    string
	key      string
	client   *http.Client
}

// CheckURL refuses a base URL that is not absolute http or https with a
// host, or that carries credentials (the key goes in a header, never in
// the URL, so it can never be logged with it).
func CheckURL(raw string) error {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return errors.New("want an absolute http or https URL such as https://llm.example/v1")
	case u.Scheme != "http" && u.Scheme != "https", u.Host == "":
		return errors.New("want an absolute http or https URL such as https://llm.example/v1")
	case u.User != nil:
		return errors.New("want no credentials in the URL; the key goes in QUARRY_ASK_MODEL_KEY")
	case u.RawQuery != "" || u.Fragment != "":
		return errors.New("want no query or fragment in the URL")
	}
	return nil
}

// New returns an Answerer for the endpoint under base (such as
// https://llm.example/v1), asking for model, sending key as a bearer token
// when it is not empty.
func New(base, model, key string, timeout time.Duration) (*Answerer, error) {
	if err := CheckURL(base); err != nil {
		return nil, err
	}
	if model == "" {
		return nil, errors.New("chatcompletions: no model named")
	}
	return &Answerer{
		endpoint: strings.TrimRight(base, "/") + "/chat/completions",
		model:    model, key: key,
		client: &http.Client{Timeout: timeout},
	}, nil
}

// Name is chat-v1:<model>.
func (a *Answerer) Name() string { return "chat-v1:" + a.model }

const instructions = `You answer questions about company filings using only the numbered passages given.
Write at most three short sentences. End every sentence with the number of the one passage that supports it, in square brackets, such as [2].
Copy figures, dates and names exactly as the passages write them. Do not add anything the passages do not say.
If the passages do not answer the question, reply with nothing.`

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type request struct {
	Model       string    `json:"model"`
	Messages    []message `json:"messages"`
	Temperature float64   `json:"temperature"`
}

type reply struct {
	Choices []struct {
		Message message `json:"message"`
	} `json:"choices"`
}

// Answer sends the question and the numbered passages and parses the
// reply into sentences, each with its marker. An error never holds the
// key or the reply's body.
func (a *Answerer) Answer(ctx context.Context, r ports.AnswerRequest) ([]ports.AnswerSentence, error) {
	var user strings.Builder
	for _, p := range r.Passages {
		fmt.Fprintf(&user, "[%d] %s\n%s\n\n", p.Marker, p.Title, p.Text)
	}
	fmt.Fprintf(&user, "Question: %s", r.Question)
	body, err := json.Marshal(request{Model: a.model, Messages: []message{
		{Role: "system", Content: instructions}, {Role: "user", Content: user.String()},
	}})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, errors.New("chatcompletions: cannot build the request")
	}
	req.Header.Set("Content-Type", "application/json")
	if a.key != "" {
		req.Header.Set("Authorization", "Bearer "+a.key)
	}
	resp, err := a.client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) && ue.Timeout() {
			return nil, errors.New("chatcompletions: the endpoint timed out")
		}
		return nil, errors.New("chatcompletions: the endpoint could not be reached")
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxReplyBytes))
		return nil, fmt.Errorf("chatcompletions: the endpoint answered %d", resp.StatusCode)
	}
	var rep reply
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxReplyBytes)).Decode(&rep); err != nil {
		return nil, errors.New("chatcompletions: the endpoint's reply is not a chat completion")
	}
	if len(rep.Choices) == 0 {
		return nil, errors.New("chatcompletions: the endpoint's reply has no choices")
	}
	return Parse(rep.Choices[0].Message.Content), nil
}

// citedSentence is text up to a marker [n]; text after the last marker is
// cited by none and left out.
var citedSentence = regexp.MustCompile(`(?s)(.*?)\s*\[(\d{1,3})\]`)

// Parse splits a reply into sentences, each ending with its marker. A
// sentence holding several markers ([1][2]) is cited by the first; the
// text between markers that ends no sentence is dropped.
func Parse(content string) []ports.AnswerSentence {
	var out []ports.AnswerSentence
	for _, m := range citedSentence.FindAllStringSubmatch(content, -1) {
		text := strings.TrimSpace(m[1])
		n, _ := strconv.Atoi(m[2])
		// "One [1]. Two [2]." puts the full stop of a sentence after its
		// marker: give it back to that sentence.
		rest := strings.TrimLeft(text, ".!?")
		if stop := text[:len(text)-len(rest)]; stop != "" && len(out) > 0 && !strings.ContainsAny(out[len(out)-1].Text[len(out[len(out)-1].Text)-1:], ".!?") {
			out[len(out)-1].Text += stop[:1]
		}
		text = strings.TrimSpace(strings.TrimLeft(rest, ",;: "))
		if text == "" {
			continue // a second marker of the same sentence
		}
		out = append(out, ports.AnswerSentence{Text: text, Marker: n})
	}
	return out
}
