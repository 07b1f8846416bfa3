package bootstrap

import (
	"go.uber.org/fx"

	"github.com/quarrydata/quarry/adapters/chatcompletions"
	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/app"
)

func init() { registerService(ask) }

// ask wires POST /ask over the datasets it reads (US statements, US filing
// sections, China listings, India judgments through their search index). It has no store or ingester of its own, so it
// registers as a service, not as a dataset of `quarry ingest`. With
// QUARRY_ASK_MODEL_URL set, text questions go to the chat-completions
// answerer; LoadConfig has checked the URL and the model.
func ask(c Config) fx.Option {
	return fx.Options(
		fx.Provide(
			fx.Annotate(func(fin *app.Financials, china *app.China, filings *app.Filings, judgments *app.Judgments, shared *app.ReadCache) (*app.Ask, error) {
				a := app.NewAsk(fin, china, filings, shared).WithJudgments(judgments)
				if c.AskModelURL == "" {
					return a, nil
				}
				m, err := chatcompletions.New(c.AskModelURL, c.AskModel, c.AskModelKey, chatcompletions.DefaultTimeout)
				if err != nil {
					return nil, err
				}
				return a.WithModel(m), nil
			}, fx.ParamTags(``, ``, ``, ``, sharedCache)),
			probe((*app.Ask).Probe),
			handlers(httpadapter.AskHandlers),
		),
	)
}
