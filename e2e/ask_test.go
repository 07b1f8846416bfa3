package e2e

import (
	"context"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/cmd/quarry/cli"
	"github.com/quarrydata/quarry/ingest"
)

type askAnswerBody struct {
	Answer    *string `json:"answer"`
	Reason    *string `json:"reason"`
	Citations []struct {
		Marker        int               `json:"marker"`
		Dataset       string            `json:"dataset"`
		DocumentID    string            `json:"document_id"`
		Route         string            `json:"route"`
		Fields        map[string]string `json:"fields"`
		Title         string            `json:"title"`
		Snippet       string            `json:"snippet"`
		SourceOffsets *struct {
			Section    string `json:"section"`
			JudgmentID string `json:"judgment_id"`
			Start, End int
		} `json:"source_offsets"`
	} `json:"citations"`
	Governance struct {
		Statement string   `json:"statement"`
		Searched  []string `json:"searched"`
		Excluded  []struct {
			Dataset string `json:"dataset"`
			Reason  string `json:"reason"`
		} `json:"excluded"`
		Licences []struct {
			Dataset               string `json:"dataset"`
			RedistributionAllowed bool   `json:"redistribution_allowed"`
			Terms                 string `json:"terms"`
		} `json:"licences"`
	} `json:"governance"`
	Meta struct {
		AsOf time.Time `json:"as_of"`
	} `json:"meta"`
}

func (a askAnswerBody) excluded(dataset string) string {
	for _, e := range a.Governance.Excluded {
		if e.Dataset == dataset {
			return e.Reason
		}
	}
	return ""
}

// TestAsk asks POST /ask on memory and on PostgreSQL + MongoDB: listings by
// Chinese name, a figure and its point in time, a 10-K passage, a passage
// of a judgment and a party's real name that finds nothing, a refusal
// (charged, spec-gaps A37), a margin citing both operands, a listing by
// English name and a judgment by case number (spec-gaps B72), validation (not charged), and, on the
// databases, datasets left out once the key loses a permission.
func TestAsk(t *testing.T) {
	sample, err := ingest.LoadJudgmentsSample()
	if err != nil {
		t.Fatal(err)
	}
	judgmentText := map[string]string{}
	for _, j := range sample {
		judgmentText[j.ID] = j.Text
	}
	for name, s := range stacks {
		t.Run(name, func(t *testing.T) {
			c, cfg := startApp(t, s)
			session, key := signIn(t, c, "ask@example.com")
			ask := func(body map[string]any, status int) askAnswerBody {
				t.Helper()
				r := c.do("POST", "/ask", body, apiKey(key)).expect(t, status)
				want := "25"
				if status != http.StatusOK {
					want = "0"
				}
				if got := r.Header.Get("X-Credits-Cost"); got != want {
					t.Errorf("%v: cost %s, want %s", body, got, want)
				}
				var out askAnswerBody
				if status == http.StatusOK {
					r.JSON(t, &out)
				}
				return out
			}

			got := ask(map[string]any{"question": "贵州茅台什么时候上市?"}, http.StatusOK)
			if got.Answer == nil || *got.Answer != "贵州茅台 (SSE.600519) was listed on the SSE on 2001-08-27. [1]" ||
				len(got.Citations) != 1 || got.Citations[0].Route != "GET /china/securities/SSE.600519" || got.Citations[0].Fields["listing_date"] != "2001-08-27" {
				t.Fatalf("listing answer = %+v", got)
			}
			for _, ds := range []string{"us_financials", "us_filing_indexes", "us_search", "us_security_fund_holders", "china_securities", "china_prices", "india_prices", "india_judgments", "india_search"} {
				if !slices.Contains(got.Governance.Searched, ds) {
					t.Errorf("%s not searched: %+v", ds, got.Governance)
				}
			}
			if got.excluded("india_exports") != "not_indexed_for_ask" || !strings.Contains(got.Governance.Statement, "vault is never read") ||
				len(got.Governance.Licences) != 1 || got.Governance.Licences[0].Dataset != "china_securities" || !got.Governance.Licences[0].RedistributionAllowed {
				t.Errorf("governance = %+v", got.Governance)
			}

			// A day's close of an internal-only dataset: read for a key
			// that may read it, cited to its bar, its licence carried.
			got = ask(map[string]any{"question": "What did SSE.600519 close at on 2021-12-31?"}, http.StatusOK)
			if got.Answer == nil || !strings.Contains(*got.Answer, "closed at 2050 CNY on 2021-12-31") || len(got.Citations) != 1 ||
				got.Citations[0].DocumentID != "SSE.600519:2021-12-31" || len(got.Governance.Licences) != 1 ||
				got.Governance.Licences[0].Dataset != "china_prices" || got.Governance.Licences[0].RedistributionAllowed {
				t.Fatalf("price answer = %+v", got)
			}

			// A judgment's passage: cited by its id, exact offsets into the
			// stored tokenized text, the judgment's route.
			got = ask(map[string]any{"question": "What are the two new buzzwords?", "datasets": []string{"india_judgments"}}, http.StatusOK)
			const kalawati = "inj_rjb53zhkumhjenma"
			if got.Answer == nil || *got.Answer != `"Ease of business" and "enforcement of contract" are the two new buzzwords and rightly so. [1]` || len(got.Citations) != 1 {
				t.Fatalf("judgment answer = %+v", got)
			}
			if ci, o := got.Citations[0], got.Citations[0].SourceOffsets; ci.Dataset != "india_judgments" || ci.DocumentID != kalawati ||
				ci.Route != "GET /india/judgments/"+kalawati || !strings.HasPrefix(ci.Title, "PTY_") || o == nil || o.JudgmentID != kalawati || o.Section != "" ||
				cutText(t, judgmentText[kalawati], o.Start, o.End) != ci.Snippet || got.excluded("us_search") != "not_requested" {
				t.Fatalf("judgment citation = %+v", got)
			}
			// A party's real name finds nothing of theirs: the text holds tokens.
			got = ask(map[string]any{"question": "Who is Rakesh Kumar?"}, http.StatusOK)
			if got.Answer != nil || *got.Reason != "no_supported_answer" {
				t.Fatalf("a party's name = %+v", got)
			}

			got = ask(map[string]any{"question": "What was AAPL's revenue in fiscal 2023?", "as_of": "2023-11-03"}, http.StatusOK)
			if got.Answer == nil || !strings.Contains(*got.Answer, "was 383285000000 USD") || got.Citations[0].DocumentID != "0000320193-23-000106:2023-09-30" {
				t.Fatalf("figure = %+v", got)
			}
			got = ask(map[string]any{"question": "What was AAPL's revenue in fiscal 2023?", "as_of": "2023-10-01"}, http.StatusOK)
			if got.Answer != nil || got.Reason == nil || *got.Reason != "no_supported_answer" || len(got.Citations) != 0 ||
				!got.Meta.AsOf.Equal(time.Date(2023, 10, 1, 23, 59, 59, 999999000, time.UTC)) {
				t.Fatalf("before the filing = %+v", got)
			}

			got = ask(map[string]any{"question": "What is Apple's fiscal year?", "datasets": []string{"us_search"}}, http.StatusOK)
			if got.Answer == nil || *got.Answer != "The Company’s fiscal year is the 52- or 53-week period that ends on the last Saturday of September. [1]" ||
				got.Citations[0].SourceOffsets == nil || got.excluded("us_financials") != "not_requested" {
				t.Fatalf("passage = %+v", got)
			}
			got = ask(map[string]any{"question": "Who will win the 2028 presidential election?"}, http.StatusOK)
			if got.Answer != nil || *got.Reason != "no_supported_answer" {
				t.Fatalf("refusal = %+v", got)
			}

			// Issue 27: a derived figure cites both operands, and its
			// arithmetic sentence carries both markers.
			got = ask(map[string]any{"question": "AAPL gross margin FY24"}, http.StatusOK)
			if got.Answer == nil || !strings.HasSuffix(*got.Answer, "180683000000 / 391035000000 = 46.21%. [1][2]") || len(got.Citations) != 2 ||
				got.Citations[1].Fields["value"] != "391035000000" {
				t.Fatalf("margin = %+v", got)
			}
			got = ask(map[string]any{"question": "When did Kweichow Moutai go public?"}, http.StatusOK)
			if got.Answer == nil || !strings.Contains(*got.Answer, "2001-08-27") || got.Citations[0].DocumentID != "SSE.600519" {
				t.Fatalf("English listing name = %+v", got)
			}
			got = ask(map[string]any{"question": "What happened in W.P.(C) 5348/2024?", "datasets": []string{"india_judgments"}}, http.StatusOK)
			if got.Answer == nil || got.Citations[0].DocumentID != "inj_n6u3m7fhhcc7xvba" {
				t.Fatalf("case number = %+v", got)
			}

			ask(map[string]any{"question": "x", "datasets": []string{"china_securities"}, "jurisdictions": []string{"US"}}, http.StatusBadRequest)
			ask(map[string]any{"question": "x", "extra": true}, http.StatusBadRequest)
			for _, bad := range []map[string]any{
				{"question": ""}, {"question": "  "}, {"question": strings.Repeat("q", 2001)}, {"question": "x", "max_citations": 0},
				{"question": "x", "max_citations": 21}, {"question": "x", "datasets": []string{"nope"}}, {"question": "x", "as_of": "2024-13-01"},
				{"question": "x", "jurisdictions": []string{"FR"}},
				// Nothing to search: refused before the charge (spec-gaps B55).
				{"question": "x", "datasets": []string{"india_exports"}},
			} {
				ask(bad, http.StatusUnprocessableEntity)
			}
			if st := credits(t, c, session); st.Balance != 100000-11*25 {
				t.Fatalf("balance = %d, want 11 answers charged", st.Balance)
			}

			if !s.mongo {
				return
			}
			keyID := onlyKey(t, c, session).KeyID
			if err := cli.SetKeyScope(context.Background(), cfg, keyID, "china:read", false, io.Discard); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(20 * time.Second)
			for {
				got = ask(map[string]any{"question": "When was 贵州茅台 listed?"}, http.StatusOK)
				if got.excluded("china_securities") == "permission_missing" {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("china:read revoked, still = %+v", got)
				}
				time.Sleep(500 * time.Millisecond)
			}
			if got.Answer != nil || *got.Reason != "no_supported_answer" || slices.Contains(got.Governance.Searched, "china_securities") {
				t.Fatalf("without china:read = %+v", got)
			}
			// Without search:read, judgments are not read, through Ask
			// either: India judgments and India search are read as one.
			if err := cli.SetKeyScope(context.Background(), cfg, keyID, "search:read", false, io.Discard); err != nil {
				t.Fatal(err)
			}
			deadline = time.Now().Add(20 * time.Second)
			for {
				got = ask(map[string]any{"question": "What are the two new buzzwords?"}, http.StatusOK)
				if got.excluded("india_judgments") == "permission_missing" {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("search:read revoked, still = %+v", got)
				}
				time.Sleep(500 * time.Millisecond)
			}
			if got.Answer != nil || got.excluded("india_search") != "permission_missing" || got.excluded("us_search") != "permission_missing" {
				t.Fatalf("without search:read = %+v", got)
			}
		})
	}
}
