package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/ingest"
)

// judgmentsPerFile bounds a generated metadata file's lines, well under
// the reader's 64 MiB bound on a metadata file.
const judgmentsPerFile = 10_000

// judgmentLine is a metadata line as `quarry ingest india_judgments` reads
// it (adapters/judgmentfiles).
type judgmentLine struct {
	Court        string         `json:"court"`
	Bench        string         `json:"bench"`
	CaseNumber   string         `json:"case_number"`
	Title        string         `json:"title"`
	Parties      []judgmentName `json:"parties"`
	Judges       []string       `json:"judges"`
	DecisionDate string         `json:"decision_date"`
	Citations    []string       `json:"citations"`
	Language     string         `json:"language"`
	PageCount    int            `json:"page_count"`
	TextFile     string         `json:"text_file"`
}

type judgmentName struct {
	Name string `json:"name"`
	Role string `json:"role"`
}

// writeJudgments writes n judgments under india_judgments/ as a public
// corpus lays them out: metadata JSON lines (meta-NNNN.jsonl, 10,000 a
// file) naming text files beside them. Judgment k re-lays the sample's
// real judgment k mod 21: its court, judges, date and text, its case
// number suffixed "(benchmark copy k)" and its title prefixed
// "benchmark copy of ". The sample holds tokens only, so each party's
// name is its token, which ingestion tokenizes again with the run's vault
// key wherever the text names it.
func writeJudgments(dir string, n int) (counts, error) {
	sample, err := ingest.LoadJudgmentsSample()
	if err != nil {
		return nil, err
	}
	out := filepath.Join(dir, "india_judgments")
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	keys := make([]string, 0, n)
	var meta []byte
	for k := range n {
		line, err := writeJudgmentText(out, sample[k%len(sample)], k+1)
		if err != nil {
			return nil, err
		}
		raw, err := json.Marshal(line)
		if err != nil {
			return nil, err
		}
		meta = append(append(meta, raw...), '\n')
		keys = append(keys, judgment.NewID(line.Court, line.CaseNumber, line.DecisionDate))
		if (k+1)%judgmentsPerFile == 0 || k == n-1 {
			if err := os.WriteFile(filepath.Join(out, fmt.Sprintf("meta-%04d.jsonl", k/judgmentsPerFile)), meta, 0o644); err != nil {
				return nil, err
			}
			meta = meta[:0]
		}
	}
	return counts{{"judgments", n}}, writeKeys(dir, "india_judgments", keys)
}

// writeJudgmentText writes copy k of j's text and returns its metadata.
func writeJudgmentText(dir string, j judgment.Judgment, k int) (judgmentLine, error) {
	line := judgmentLine{
		Court: j.Court, Bench: j.Bench, CaseNumber: fmt.Sprintf("%s (benchmark copy %d)", j.CaseNumber, k),
		Title: "benchmark copy of " + j.Title, Judges: j.Judges, DecisionDate: j.DecisionDate,
		Citations: j.Citations, Language: j.Language, PageCount: j.PageCount, TextFile: fmt.Sprintf("j%07d.txt", k),
	}
	for _, p := range j.Parties {
		line.Parties = append(line.Parties, judgmentName{Name: p.Token, Role: string(p.Role)})
	}
	return line, os.WriteFile(filepath.Join(dir, line.TextFile), []byte(j.Text), 0o644)
}
