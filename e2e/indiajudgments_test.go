package e2e

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/postgres"
	"github.com/quarrydata/quarry/adapters/postgres/vault"
	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/cmd/quarry/cli"
	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/ingest"
)

type judgmentResponse struct {
	Judgment struct {
		JudgmentID string `json:"judgment_id"`
		Court      string `json:"court"`
		Bench      *string
		CaseNumber string `json:"case_number"`
		Title      string `json:"title"`
		Parties    []struct {
			Token string `json:"token"`
			Role  string `json:"role"`
		} `json:"parties"`
		Judges       []string `json:"judges"`
		DecisionDate string   `json:"decision_date"`
		Citations    []string `json:"citations"`
		Language     string   `json:"language"`
		PageCount    *int     `json:"page_count"`
		PDFRoute     string   `json:"pdf_route"`
	} `json:"judgment"`
	Meta map[string]any `json:"meta"`
}

type indiaSearchBody struct {
	Results []struct {
		JudgmentID    string  `json:"judgment_id"`
		Court         string  `json:"court"`
		CaseNumber    string  `json:"case_number"`
		Title         string  `json:"title"`
		DecisionDate  string  `json:"decision_date"`
		Snippet       string  `json:"snippet"`
		Score         float64 `json:"score"`
		SourceOffsets struct {
			JudgmentID string `json:"judgment_id"`
			Start, End int
		} `json:"source_offsets"`
	} `json:"results"`
	Meta struct {
		Jurisdiction string `json:"jurisdiction"`
		Count        int    `json:"count"`
		NextOffset   *int   `json:"next_offset"`
	} `json:"meta"`
}

// pdfText extracts a PDF's text with poppler's pdftotext, independent of
// the renderer; the test is skipped when poppler-utils is not installed.
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("pdftotext not found: install poppler-utils (apt-get install -y poppler-utils); .ci/run installs it")
	}
	in := filepath.Join(t.TempDir(), "j.pdf")
	if err := os.WriteFile(in, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "-enc", "UTF-8", in, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v: %s", err, out)
	}
	return strings.Join(strings.Fields(string(out)), " ")
}

// TestIndiaJudgments serves the bundled sample on both stacks: a
// judgment, its PDF and search, with exact offsets and the errors.
func TestIndiaJudgments(t *testing.T) {
	sample, err := ingest.LoadJudgmentsSample()
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]judgment.Judgment{}
	var cenvat judgment.Judgment
	for _, j := range sample {
		byID[j.ID] = j
		if strings.Contains(j.Text, "Cenvat Credit") && j.DecisionDate == "2018-02-05" {
			cenvat = j
		}
	}
	if cenvat.ID == "" {
		t.Fatal("the sample lacks the Andhra Sugars judgment of 2018-02-05")
	}
	for name, s := range stacks {
		t.Run(name, func(t *testing.T) {
			c, _ := startApp(t, s)
			session, key := signIn(t, c, "judgments@example.com")
			cost := func(r response, want string) {
				t.Helper()
				if got := r.Header.Get("X-Credits-Cost"); got != want {
					t.Errorf("cost %s, want %s", got, want)
				}
			}

			var got judgmentResponse
			r := c.do("GET", "/india/judgments/"+cenvat.ID, nil, apiKey(key)).expect(t, http.StatusOK)
			cost(r, "1")
			r.JSON(t, &got)
			g := got.Judgment
			if g.JudgmentID != cenvat.ID || g.Court != "Supreme Court of India" || g.CaseNumber != cenvat.CaseNumber || g.Title != cenvat.Title ||
				g.DecisionDate != "2018-02-05" || len(g.Parties) != len(cenvat.Parties) || g.Parties[0].Token != cenvat.Parties[0].Token ||
				g.Parties[0].Role != "appellant" || g.Language != "en" || g.PDFRoute != "/india/judgments/"+cenvat.ID+"/pdf" || got.Meta["jurisdiction"] != "IN" {
				t.Fatalf("judgment = %+v", got)
			}
			if !strings.HasPrefix(g.Title, "PTY_") || strings.Contains(strings.ToLower(g.Title), "andhra") {
				t.Fatalf("the title is not tokenized: %q", g.Title)
			}

			r = c.do("GET", g.PDFRoute, nil, apiKey(key)).expect(t, http.StatusOK)
			cost(r, "1")
			if r.Header.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(r.Body, []byte("%PDF-")) {
				t.Fatalf("PDF: %s %q", r.Header.Get("Content-Type"), r.Body[:min(8, len(r.Body))])
			}
			text := pdfText(t, r.Body)
			for _, want := range []string{cenvat.Parties[0].Token, cenvat.Parties[1].Token, "Cenvat Credit", "Supreme Court of India"} {
				if !strings.Contains(text, want) {
					t.Errorf("the PDF's text lacks %q", want)
				}
			}

			for path, status := range map[string]int{
				"/india/judgments/inj_aaaaaaaaaaaaaaaa":     http.StatusNotFound,
				"/india/judgments/inj_aaaaaaaaaaaaaaaa/pdf": http.StatusNotFound,
				"/india/judgments/INJ_AAAAAAAAAAAAAAAA":     http.StatusUnprocessableEntity,
				"/india/judgments/2244-of-2018/pdf":         http.StatusUnprocessableEntity,
			} {
				cost(c.do("GET", path, nil, apiKey(key)).expect(t, status), "0")
			}

			search := func(body map[string]any, status int) indiaSearchBody {
				t.Helper()
				r := c.do("POST", "/india/search", body, apiKey(key)).expect(t, status)
				var out indiaSearchBody
				if status == http.StatusOK {
					cost(r, "10")
					r.JSON(t, &out)
				} else {
					cost(r, "0")
				}
				return out
			}
			res := search(map[string]any{"query": "Cenvat Credit place of removal"}, http.StatusOK)
			if len(res.Results) == 0 || res.Results[0].JudgmentID != cenvat.ID || res.Meta.Jurisdiction != "IN" {
				t.Fatalf("results = %+v", res)
			}
			for i, h := range res.Results {
				if i > 0 && h.Score > res.Results[i-1].Score {
					t.Errorf("result %d not ranked", i)
				}
				stored := byID[h.JudgmentID]
				passage := cutText(t, stored.Text, h.SourceOffsets.Start, h.SourceOffsets.End)
				if h.SourceOffsets.JudgmentID != h.JudgmentID || passage == "" || !strings.Contains(h.Snippet, passage) ||
					h.Title != stored.Title || h.CaseNumber != stored.CaseNumber || h.DecisionDate != stored.DecisionDate {
					t.Errorf("result %d = %+v; passage %q", i, h, passage)
				}
				for _, w := range []string{"cenvat", "credit", "place", "remov"} { // terms are stemmed
					if strings.Contains(strings.ToLower(passage), w) {
						goto matched
					}
				}
				t.Errorf("result %d: passage %q holds no query word", i, passage)
			matched:
			}
			if res := search(map[string]any{"query": "writ petition", "court": "high court of delhi"}, http.StatusOK); len(res.Results) != 2 {
				t.Errorf("Delhi High Court results = %+v", res.Results)
			} else {
				for _, h := range res.Results {
					if h.Court != "High Court of Delhi" {
						t.Errorf("court filter let %s through", h.Court)
					}
				}
			}
			if res := search(map[string]any{"query": "petition", "decided_from": "2024-01-01", "decided_to": "2024-12-31", "limit": 1}, http.StatusOK); len(res.Results) != 1 ||
				res.Results[0].DecisionDate < "2024" || res.Meta.NextOffset == nil {
				t.Errorf("2024 results = %+v", res)
			}
			tok := cenvat.Parties[1].Token
			if res := search(map[string]any{"query": tok}, http.StatusOK); len(res.Results) == 0 || res.Results[0].JudgmentID != cenvat.ID {
				t.Errorf("search by the token %s: %+v", tok, res.Results)
			}
			search(map[string]any{"query": "x", "decided_from": "2020-01-02", "decided_to": "2020-01-01"}, http.StatusBadRequest)
			for _, bad := range []map[string]any{{"query": ""}, {"query": " "}, {"query": "x", "limit": 0}, {"query": "x", "decided_to": "2020-13-01"}, {"query": "x", "offset": -1}} {
				search(bad, http.StatusUnprocessableEntity)
			}
			search(map[string]any{"query": "x", "parties": "y"}, http.StatusBadRequest)
			if st := credits(t, c, session); st.Balance != 100000-2-4*10 {
				t.Fatalf("balance = %d", st.Balance)
			}
		})
	}
}

// TestIndiaJudgmentsIngestion ingests judgment files with the vault key
// and the vault on PostgreSQL: the documents hold tokens, the vault the
// originals, a second run changes nothing, a bad file writes nothing, and
// a name typed into search finds nothing while its token does.
func TestIndiaJudgmentsIngestion(t *testing.T) {
	ctx := context.Background()
	s := onDatabases
	s.refresh = 100 * time.Millisecond
	c, cfg := startApp(t, s)
	_, key := signIn(t, c, "ingest-judgments@example.com")
	_, vaultURL := migratedVault(t)
	ingestCfg := cfg
	ingestCfg.VaultPostgresURL, ingestCfg.VaultKey = vaultURL, bytes.Repeat([]byte{0x5a}, 32)

	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// A real Supreme Court judgment's metadata and an excerpt of its text
	// (Kalawati (d) through LRs v Rakesh Kumar, 2018), with a PAN-shaped
	// word added to show it is tokenized too.
	write("kalawati.txt", "4. The appellants (Kalawati and others) are aggrieved by the judgment and decree dated 10th December, 2013. "+
		"A suit was filed by the plaintiff (Rakesh Kumar, PAN AAAPK1234K) for specific performance of the agreement to sell dated 29th May, 1986.\n")
	meta := write("meta.jsonl", `{"court":"Supreme Court of India","case_number":"Civil Appeal No. 2244 of 2018","title":"Kalawati (d), through Lrs. and others v Rakesh Kumar and others",`+
		`"parties":[{"name":"Kalawati","role":"appellant"},{"name":"Rakesh Kumar","role":"respondent"}],"judges":["Madan B. Lokur","Deepak Gupta"],"decision_date":"2018-02-16","text_file":"kalawati.txt"}`+"\n")
	bad := write("bad.jsonl", strings.TrimSuffix(string(must2(os.ReadFile(meta))), "\n"))

	ingest := func(c bootstrap.Config, file string) (string, error) {
		var out bytes.Buffer
		err := cli.Ingest(ctx, c, "india_judgments", []string{file}, &out, nil)
		return out.String(), err
	}
	if _, err := ingest(cfg, meta); err == nil || !strings.Contains(err.Error(), "QUARRY_VAULT_KEY is not set") {
		t.Fatalf("ingest without the key: %v", err)
	}
	if _, err := ingest(ingestCfg, bad); err == nil || !strings.Contains(err.Error(), "bad.jsonl:1: the last line has no line break") {
		t.Fatalf("ingest of a truncated file: %v", err)
	}
	out, err := ingest(ingestCfg, meta)
	if err != nil || !strings.Contains(out, "ingested india_judgments into "+ingestCfg.MongoDB+": read 1 records, wrote 1 new or changed") || !strings.Contains(out, "3 tokens in the vault") {
		t.Fatalf("ingest: %q, %v", out, err)
	}
	if out, err := ingest(ingestCfg, meta); err != nil || !strings.Contains(out, "read 1 records, wrote 0 new or changed") {
		t.Fatalf("ingest again: %q, %v", out, err)
	}

	id := judgment.NewID("Supreme Court of India", "Civil Appeal No. 2244 of 2018", "2018-02-16")
	var got judgmentResponse
	deadline := time.Now().Add(30 * time.Second)
	for {
		r := c.do("POST", "/india/search", map[string]any{"query": "specific performance agreement to sell 1986"}, apiKey(key)).expect(t, http.StatusOK)
		var res indiaSearchBody
		r.JSON(t, &res)
		if len(res.Results) > 0 && res.Results[0].JudgmentID == id {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the running server never indexed the ingested judgment")
		}
		time.Sleep(50 * time.Millisecond)
	}
	c.do("GET", "/india/judgments/"+id, nil, apiKey(key)).expect(t, http.StatusOK).JSON(t, &got)
	if len(got.Judgment.Parties) != 2 || strings.Contains(got.Judgment.Title, "Kalawati") || strings.Contains(got.Judgment.Title, "Rakesh") {
		t.Fatalf("judgment = %+v", got.Judgment)
	}
	pool, err := postgres.Connect(ctx, vaultURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	v := vault.New(pool)
	for i, want := range []string{"Kalawati", "Rakesh Kumar"} {
		e, err := v.Reveal(ctx, got.Judgment.Parties[i].Token)
		if err != nil || e.Original != want {
			t.Fatalf("vault: %s -> %+v, %v", got.Judgment.Parties[i].Token, e, err)
		}
	}

	// Search runs over tokenized text only: a name or a PAN finds nothing
	// of the party's ("Kumar" is an advocate's name in a Delhi order of the
	// sample, which is found, as it should be).
	for _, q := range []string{"Kalawati", "Rakesh Kumar", "Rakesh", "AAAPK1234K"} {
		var res indiaSearchBody
		c.do("POST", "/india/search", map[string]any{"query": q}, apiKey(key)).expect(t, http.StatusOK).JSON(t, &res)
		for _, h := range res.Results {
			if h.JudgmentID == id || q != "Rakesh Kumar" {
				t.Errorf("search for %q found %+v", q, h)
			}
		}
	}
	var res indiaSearchBody
	c.do("POST", "/india/search", map[string]any{"query": got.Judgment.Parties[1].Token}, apiKey(key)).expect(t, http.StatusOK).JSON(t, &res)
	if len(res.Results) != 1 || res.Results[0].JudgmentID != id {
		t.Errorf("search by token: %+v", res.Results)
	}

	pdf := c.do("GET", "/india/judgments/"+id+"/pdf", nil, apiKey(key)).expect(t, http.StatusOK).Body
	text := pdfText(t, pdf)
	for _, tok := range []string{got.Judgment.Parties[0].Token, got.Judgment.Parties[1].Token, "PAN_"} {
		if !strings.Contains(text, tok) {
			t.Errorf("the PDF lacks %s: %s", tok, text)
		}
	}
	for _, original := range []string{"kalawati", "rakesh", "aaapk1234k"} {
		if strings.Contains(strings.ToLower(text), original) {
			t.Errorf("the PDF holds %q: %s", original, text)
		}
	}

	// The judgment ingested again with more of its text (its paragraph 2):
	// the running server, which has cached the judgment and its PDF,
	// serves the new version, in the PDF and in search.
	write("kalawati.txt", "2. For ease of doing business insofar as justice delivery is concerned, it is time to introspect and introduce case management programmes.\n"+
		string(must2(os.ReadFile(filepath.Join(dir, "kalawati.txt")))))
	if out, err := ingest(ingestCfg, meta); err != nil || !strings.Contains(out, "wrote 1 new or changed") {
		t.Fatalf("ingest the new version: %q, %v", out, err)
	}
	deadline = time.Now().Add(30 * time.Second)
	for {
		var res indiaSearchBody
		c.do("POST", "/india/search", map[string]any{"query": "introspect case management programmes"}, apiKey(key)).expect(t, http.StatusOK).JSON(t, &res)
		pdf := pdfText(t, c.do("GET", "/india/judgments/"+id+"/pdf", nil, apiKey(key)).expect(t, http.StatusOK).Body)
		if len(res.Results) > 0 && res.Results[0].JudgmentID == id && strings.Contains(strings.Join(strings.Fields(pdf), " "), "case management programmes") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the running server never served the judgment's new version")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func must2[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
