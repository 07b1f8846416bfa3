package chatcompletions_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/chatcompletions"
	"github.com/quarrydata/quarry/ports"
)

func TestParse(t *testing.T) {
	got := chatcompletions.Parse("Apple has five segments [1]. It sells iPhones. Mac sales fell [2][3]\nTrailing words without a marker")
	want := []ports.AnswerSentence{{Text: "Apple has five segments.", Marker: 1}, {Text: "It sells iPhones. Mac sales fell", Marker: 2}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Parse = %#v, want %#v", got, want)
	}
	if got := chatcompletions.Parse(""); len(got) != 0 {
		t.Errorf("Parse of nothing = %v", got)
	}
}

const key = "sk-very-secret-key"

// Errors say what went wrong with the endpoint, never the key or the body
// it answered with.
func TestErrorsHoldNoKeyNorReply(t *testing.T) {
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "internal trace "+r.Header.Get("Authorization"), http.StatusInternalServerError)
	}))
	defer failing.Close()
	garbled := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("not json " + r.Header.Get("Authorization")))
	}))
	defer garbled.Close()
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(500 * time.Millisecond):
		}
	}))
	defer slow.Close()
	for _, base := range []string{failing.URL, garbled.URL, slow.URL, "http://127.0.0.1:1"} {
		a, err := chatcompletions.New(base, "m", key, 100*time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		_, err = a.Answer(context.Background(), ports.AnswerRequest{Question: "q", Passages: []ports.Passage{{Marker: 1, Text: "p"}}})
		if err == nil || strings.Contains(err.Error(), key) || strings.Contains(err.Error(), "trace") || strings.Contains(err.Error(), "not json") {
			t.Errorf("%s: error %v, want one holding neither key nor reply", base, err)
		}
	}
}

func TestCheckURL(t *testing.T) {
	for raw, ok := range map[string]bool{
		"https://llm.example/v1": true, "http://127.0.0.1:8000/v1": true,
		"llm.example/v1": false, "ftp://llm.example": false, "https://user:pw@llm.example/v1": false,
		"https://llm.example/v1?key=x": false, "://": false,
	} {
		if err := chatcompletions.CheckURL(raw); (err == nil) != ok {
			t.Errorf("CheckURL(%q) = %v", raw, err)
		}
	}
}

// FuzzParse reads arbitrary replies: no input panics, and every sentence
// kept has text and the marker that followed it.
func FuzzParse(f *testing.F) {
	f.Add("Apple has five segments [1]. It sells iPhones. Mac sales fell [2][3]\nTrailing words")
	f.Add("[1][2]. [3] ... [999]")
	f.Add("Revenue rose [1].[2]")
	f.Fuzz(func(t *testing.T, reply string) {
		for _, s := range chatcompletions.Parse(reply) {
			if strings.TrimSpace(s.Text) == "" || s.Marker < 0 || s.Marker > 999 {
				t.Fatalf("Parse(%q) kept %#v", reply, s)
			}
		}
	})
}
