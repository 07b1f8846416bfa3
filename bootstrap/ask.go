package bootstrap

import (
	"go.uber.org/fx"

	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/app"
)

func init() { registerService(ask) }

// ask wires POST /ask over the datasets it reads (US statements, US filing
// sections, China listings). It has no store or ingester of its own, so it
// registers as a service, not as a dataset of `quarry ingest`.
func ask(Config) fx.Option {
	return fx.Options(
		fx.Provide(
			app.NewAsk,
			probe((*app.Ask).Probe),
			handlers(httpadapter.AskHandlers),
		),
	)
}
