package bootstrap

import (
	"go.uber.org/fx"

	"github.com/quarrydata/quarry/adapters/exportfile"
	httpadapter "github.com/quarrydata/quarry/adapters/http"
	"github.com/quarrydata/quarry/app/indiaexports"
	"github.com/quarrydata/quarry/domain/dataset"
)

// indiaExports is the slice of POST /india/exports over the datasets that
// contribute a usecase.ExportDataset from their own wiring (exportDataset)
// and the file formats of adapters/exportfile. It has no store of its own.
func indiaExports() wiring {
	return wiring{
		name: string(dataset.IndiaExports),
		provide: []any{
			exportfile.Encoders,
			fx.Annotate(indiaexports.New, fx.ParamTags(`group:"exports"`)),
			fx.Annotate(indiaexports.Probe, fx.ParamTags(`group:"exports"`), fx.ResultTags(`group:"probes"`)),
			handlers(httpadapter.ExportHandlers),
		},
	}
}

// exportDataset puts a dataset's export, a constructor or method returning
// usecase.ExportDataset, in the "exports" group.
func exportDataset(newExport any) any {
	return fx.Annotate(newExport, fx.ResultTags(`group:"exports"`))
}
