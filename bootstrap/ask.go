package bootstrap

import (
	"go.uber.org/fx"

	"github.com/quarrydata/quarry/adapters/chatcompletions"
	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/app/ask"
	"github.com/quarrydata/quarry/app/chinaprices"
	"github.com/quarrydata/quarry/app/chinasecurities"
	"github.com/quarrydata/quarry/app/fundholders"
	"github.com/quarrydata/quarry/app/indiajudgments"
	"github.com/quarrydata/quarry/app/indiaprices"
	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/app/usfilings"
	"github.com/quarrydata/quarry/app/usfinancials"
	"github.com/quarrydata/quarry/domain/dataset"
)

// askSlice is the slice of POST /ask over the datasets it reads (US
// statements, filing indexes and sections, 13F holders, China listings and
// prices, India prices, India judgments through their search index). It has no store or ingester of its own. With
// QUARRY_ASK_MODEL_URL set, text questions go to the chat-completions
// answerer; LoadConfig has checked the URL and the model.
func askSlice() wiring {
	return wiring{
		name: string(dataset.AskRetrieval),
		extra: func(c Config) fx.Option {
			return fx.Provide(
				fx.Annotate(func(fin *usfinancials.Service, china *chinasecurities.Service, filings *usfilings.Service, judgments *indiajudgments.Service,
					cp *chinaprices.Service, ip *indiaprices.Service, holders *fundholders.Service, shared *readcache.Cache) (*ask.Service, error) {
					a := ask.New(fin, china, filings, shared).WithJudgments(judgments).WithPrices(cp, ip).WithHolders(holders)
					if c.AskModelURL == "" {
						return a, nil
					}
					m, err := chatcompletions.New(c.AskModelURL, c.AskModel, c.AskModelKey, chatcompletions.DefaultTimeout)
					if err != nil {
						return nil, err
					}
					return a.WithModel(m), nil
				}, fx.ParamTags(``, ``, ``, ``, ``, ``, ``, sharedCache)),
				probe((*ask.Service).Probe),
				handlers(httpadapter.AskHandlers),
			)
		},
	}
}
