package http

import (
	"context"
	"io"
	"net/http"
)

// Response is what a data handler answers once its request is charged: a
// status, a media type, headers of its own, and a body written as a stream.
// JSON is the common case; CSV, PDF, XLSX and Parquet bodies are written the
// same way.
type Response struct {
	// Status is a 2xx status; zero means 200.
	Status int
	// MediaType is the Content-Type, parameters included
	// ("text/csv; charset=utf-8").
	MediaType string
	// Header holds headers of the response's own, such as
	// Content-Disposition; the pipeline adds the credit and request headers.
	Header http.Header
	// Body writes the body. Its first byte commits the status and headers:
	// an error before it is refunded and answered as any error, an error
	// after it leaves the request charged and the body visibly truncated.
	Body func(ctx context.Context, w io.Writer) error
}

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
	w       http.ResponseWriter
	resp    Response
	written int64
}

// Write commits the headers on the first byte and passes p on.
func (b *bodyWriter) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if b.written == 0 {
		b.commit()
	}
	n, err := b.w.Write(p)
	b.written += int64(n)
	return n, err
}

// started reports whether any byte of the body was written.
func (b *bodyWriter) started() bool { return b.written > 0 }

// commit writes the status and headers.
func (b *bodyWriter) commit() {
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
