package http

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpInstructions is what an MCP client is told at initialization.
const mcpInstructions = `Quarry serves point-in-time financial and governed-document data for the US, India and China. ` +
	`Each tool is one data operation of the HTTP API, named by its operationId and charged in credits like the route ` +
	`(a failed call costs nothing). Read the resource quarry://catalog for datasets, costs and licences, and the prompt ` +
	`"point_in_time" for as_of and citations. Data of an internal-only licence may be read but not republished.`

// mcpPromptName names the prompt about as_of and citations.
const mcpPromptName = "point_in_time"

// mcpPromptText tells an agent how to ask what was known at a past moment
// and how to read what an answer cites.
const mcpPromptText = `You are using Quarry, a point-in-time data service. Follow these rules.

Point in time (as_of)
- Every data tool that takes "as_of" answers with only what had been filed or known by then. Give a date ("2023-06-30", meaning the end of that day, UTC) or an RFC 3339 date-time ("2023-06-30T16:00:00Z"). Without it the answer is as of now; a future instant is now.
- To learn what an investor could have known on a day, pass that day as as_of: a figure restated later shows its original value before the restating filing's date. Never mix answers of different as_of values without saying so.
- Each answer says the instant it used in meta.as_of (Ask: meta.as_of); quote it with any figure.

Asking (the "ask" tool, 25 credits)
- Ask one question at a time, naming the company by ticker, CIK or name, and the period ("fiscal 2023", "Q2 fiscal 2023", "TTM"). Pass as_of for a question about the past.
- "answer" is null with reason "no_supported_answer" when the data supports no answer: say so, do not guess.

Reading citations
- Every sentence of an answer ends with a marker [n]; citation n names its source: the dataset, the document (accession number, judgment id or record), the passage ("snippet"), "source_offsets" (where the passage is in the source text, in code points) and the route that serves the source. Repeat the marker with every fact you pass on, and give the source when asked.
- "governance" lists the datasets searched and every other dataset with the reason it was left out (no permission, not activated, not requested), and "licences" the licence of every dataset the answer cites. Tell the user when a dataset they care about was left out.
- Parties in court judgments are tokens (PTY_..., PAN_...): never try to recover a name.

Licences
- A result of an internal-only dataset (China prices, India prices and exports), and an ask answer citing one (governance.licences), carries its licence: it may be read, not republished. Say so when you show its figures.

Errors
- A tool error gives the HTTP status and message: 403 names the missing permission, 402 means the credits ran out, 429 gives the seconds to wait (quarry/retry_after), 503 means the dataset is not activated. None of them is charged.`

// mcpPrompt returns the prompt, ending with the user's question when one
// is given.
func mcpPrompt(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	text := mcpPromptText
	if q := strings.TrimSpace(req.Params.Arguments["question"]); q != "" {
		text += "\n\nThe question: " + q
	}
	return &mcp.GetPromptResult{Description: "Point-in-time questions and citations",
		Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}}}, nil
}
