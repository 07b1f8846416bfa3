package http

import (
	"context"
	"io"
	"net/http"

	"github.com/quarrydata/quarry/app/platform"
)

// Response is what a data handler answers once its request is charged: a
// status, a media type, headers of its own, and a body written as a stream
// (platform.Result). JSON is the common case; CSV, PDF, XLSX and Parquet
// bodies are written the same way.
type Response = platform.Result

// JSON is a 200 response whose body is v encoded as JSON.
func JSON(v any) Response {
	return Response{MediaType: "application/json", Body: func(_ context.Context, w io.Writer) error {
		return encodeJSON(w, v)
	}}
}

// bodyWriter holds back the status and headers of a Response until its body
// writes the first byte, so that a body failing before then can still be
// answered with an error.
type bodyWriter struct {
	w         http.ResponseWriter
	resp      Response
	committed bool
}

// Write commits the headers on the first byte and passes p on.
func (b *bodyWriter) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	b.commit()
	return b.w.Write(p)
}

// commit writes the status and headers, once.
func (b *bodyWriter) commit() {
	if b.committed {
		return
	}
	b.committed = true
	h := b.w.Header()
	for name, values := range b.resp.Header {
		h[http.CanonicalHeaderKey(name)] = values
	}
	h.Set("Content-Type", b.resp.MediaType)
	status := b.resp.Status
	if status == 0 {
		status = http.StatusOK
	}
	b.w.WriteHeader(status)
}
