package sampledata

import "embed"

// IndiaJudgments holds the India judgments sample, IndiaJudgmentsFile:
// real Supreme Court and High Court judgments, tokenized when the sample
// was assembled, so it holds tokens only (sources and the assembly in
// README.md).
//
//go:embed india_judgments
var IndiaJudgments embed.FS

// IndiaJudgmentsFile is the sample's file in IndiaJudgments: one stored
// judgment per JSON line.
const IndiaJudgmentsFile = "india_judgments/judgments.jsonl"
