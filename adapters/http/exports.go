package http

import (
	"context"
	"io"
	"mime"
	"net/http"
	"time"

	"github.com/julienschmidt/httprouter"

	"github.com/quarrydata/quarry/app/indiaexports"
	"github.com/quarrydata/quarry/app/platform"
)

// exportBody is the body of POST /india/exports.
type exportBody struct {
	Dataset *string           `json:"dataset"`
	Format  *string           `json:"format"`
	Filters map[string]string `json:"filters"`
}

// asOfHeader carries the as_of an export's rows were read at, so that the
// same export can be asked for again.
const asOfHeader = "X-As-Of"

// ExportHandlers returns the handler of POST /india/exports. It honours
// Idempotency-Key.
func ExportHandlers(exports *indiaexports.Service) []DataHandler {
	return []DataHandler{{Method: http.MethodPost, Path: "/india/exports", Idempotent: true,
		Prepare: func(r *http.Request, _ httprouter.Params) (Serve, error) {
			var b exportBody
			if err := decodeJSON(r, &b); err != nil {
				return nil, err
			}
			switch {
			case b.Dataset == nil:
				return nil, unprocessable(`field "dataset" is required`)
			case b.Format == nil:
				return nil, unprocessable(`field "format" is required`)
			}
			key, _ := platform.KeyFrom(r.Context())
			prep, err := exports.Prepare(r.Context(), key, indiaexports.Request{Dataset: *b.Dataset, Format: *b.Format, Filters: b.Filters})
			if err != nil {
				return nil, err
			}
			return func(ctx context.Context) (Response, error) {
				ex, err := prep.Open(ctx)
				if err != nil {
					return Response{}, err
				}
				enc := prep.Encoder
				return Response{
					MediaType: enc.MediaType(),
					Header: http.Header{
						"Content-Disposition": {mime.FormatMediaType("attachment", map[string]string{"filename": ex.Stem + "." + enc.Extension()})},
						asOfHeader:            {ex.AsOf.UTC().Format(time.RFC3339Nano)},
					},
					Body: func(ctx context.Context, w io.Writer) error { return enc.Encode(ctx, w, ex.Source) },
				}, nil
			}, nil
		}}}
}
