package ask_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/chatcompletions"
	"github.com/quarrydata/quarry/app/ask"
	"github.com/quarrydata/quarry/domain/scope"
)

// passageRE reads the numbered passages out of the prompt the adapter sends.
var passageRE = regexp.MustCompile(`(?m)^\[(\d+)\] .*\n(.*)$`)

// fakeModel is an OpenAI-compatible endpoint that answers with reply,
// given the passages of the request by number.
func fakeModel(t *testing.T, reply func(passages map[string]string) string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer sk-test-secret" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		var req struct {
			Model    string `json:"model"`
			Messages []struct{ Role, Content string }
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "fake-1" || len(req.Messages) != 2 {
			http.Error(w, "bad body", http.StatusBadRequest)
			return
		}
		passages := map[string]string{}
		for _, m := range passageRE.FindAllStringSubmatch(req.Messages[1].Content, -1) {
			passages[m[1]] = m[2]
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]string{"role": "assistant", "content": reply(passages)}}}})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func askWithModel(t *testing.T, base string, timeout time.Duration) *ask.Service {
	t.Helper()
	asker, _ := sampleAsk(t)
	m, err := chatcompletions.New(base+"/v1", "fake-1", "sk-test-secret", timeout)
	if err != nil {
		t.Fatal(err)
	}
	return asker.WithModel(m)
}

func askText(t *testing.T, asker *ask.Service, question string) ask.Answer {
	t.Helper()
	q, err := ask.Parse(ask.Request{Question: question}, evalNow)
	if err != nil {
		t.Fatal(err)
	}
	got, err := governedAnswer(asker, q, scope.Strings(scope.SelfServe()), allActive{})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// firstSentence is the first sentence of a passage of six words or more.
func firstSentence(t *testing.T, passage string) string {
	t.Helper()
	for _, sp := range ask.Sentences(passage, ask.Paragraphs) {
		s := string([]rune(passage)[sp[0]:sp[1]])
		if len(strings.Fields(s)) >= 6 {
			return s
		}
	}
	t.Fatalf("no sentence in passage %q", passage)
	return ""
}

func TestModelAnswerKeepsOnlyGroundedSentences(t *testing.T) {
	var grounded, crossCited string
	srv := fakeModel(t, func(p map[string]string) string {
		grounded = firstSentence(t, p["1"])
		crossCited = grounded
		wrong := "2"
		if _, ok := p["2"]; !ok || ask.Supported(grounded, p["2"]) {
			wrong = "9" // no passage 9: the marker cites nothing
		}
		return grounded + " [1] " +
			"Revenue grew 4217 percent in 1987, " + strings.TrimSuffix(grounded, ".") + " [1]. " +
			"The company plans to colonise Mars with reusable rockets next summer [1]. " +
			crossCited + " [" + wrong + "]"
	})
	got := askText(t, askWithModel(t, srv.URL, 5*time.Second), "What are Apple's reportable segments?")
	if got.Reason != "" || got.Answerer != "chat-v1:fake-1" {
		t.Fatalf("answer %+v, want one by chat-v1:fake-1", got)
	}
	if want := grounded + " [1]"; got.Text != want {
		t.Errorf("answer %q, want only the grounded sentence %q", got.Text, want)
	}
	if len(got.Citations) != 1 || got.Citations[0].Offsets == nil || !strings.Contains(got.Citations[0].Snippet, grounded) {
		t.Errorf("citations %+v, want the passage holding the sentence", got.Citations)
	}
}

func TestModelAnswerWithNothingGroundedIsNoSupportedAnswer(t *testing.T) {
	srv := fakeModel(t, func(map[string]string) string {
		return "Apple sold 9999 unicorns to the moon [1]. Nothing here is true at all today [1]."
	})
	got := askText(t, askWithModel(t, srv.URL, 5*time.Second), "What are Apple's reportable segments?")
	if got.Reason != ask.ReasonNoSupportedAnswer || got.Text != "" || len(got.Citations) != 0 {
		t.Errorf("answer %+v, want no_supported_answer", got)
	}
}

// An endpoint that fails or times out leaves the answer to the extractive
// answerer: the same answer as without a model, never an error.
func TestModelFailureFallsBackToExtractive(t *testing.T) {
	asker, _ := sampleAsk(t)
	want := askText(t, asker, "What are Apple's reportable segments?")
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "upstream exploded: internal trace", http.StatusInternalServerError)
	}))
	defer failing.Close()
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(500 * time.Millisecond):
		}
	}))
	defer slow.Close()
	for name, base := range map[string]string{"error": failing.URL, "timeout": slow.URL} {
		got := askText(t, askWithModel(t, base, 100*time.Millisecond), "What are Apple's reportable segments?")
		if got.Answerer != ask.AnswererVersion || got.Text != want.Text || got.Reason != want.Reason {
			t.Errorf("%s: answer %+v, want the extractive answer %+v", name, got, want)
		}
	}
}

func TestSupported(t *testing.T) {
	passage := "Net sales increased 2% to 383,285 million in 2023, driven by higher iPhone sales."
	for _, c := range []struct {
		sentence string
		want     bool
	}{
		{"Net sales increased 2% in 2023, driven by iPhone sales.", true},
		{"Net sales increased 3% in 2023, driven by iPhone sales.", false}, // invented number
		{"Net sales increased in 2024 on iPhone sales.", false},            // invented year
		{"The company builds rockets for lunar tourism.", false},           // unrelated
		{"Sales increased.", true},
		{"Increased.", false}, // too few content words to judge
	} {
		if got := ask.Supported(c.sentence, passage); got != c.want {
			t.Errorf("Supported(%q) = %v, want %v", c.sentence, got, c.want)
		}
	}
}
