package http

// Requests sent with an Idempotency-Key (domain/idempotency): here the
// key and the request's digest are read, after the route's Prepare has
// validated the body as for any request. The claim, the replay and the
// keeping of the response are the Meter's (app/platform/meteronce.go).

import (
	"bytes"
	"io"
	"net/http"

	"github.com/julienschmidt/httprouter"

	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/domain/idempotency"
)

// idempotencyHeader is the request header, as the IETF draft names it.
const idempotencyHeader = "Idempotency-Key"

// prepareKeyed validates a keyed request: the body as Prepare does, then
// the key's syntax, then the request's digest over the body Prepare read.
func prepareKeyed(r *http.Request, p httprouter.Params, route string, prepare Prepare) (platform.Prepared, error) {
	body, readErr := io.ReadAll(r.Body)
	// Prepare reads the same bytes, and the same read error, so a body too
	// large is still its 413.
	r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errReader{readErr}))
	serve, err := prepare(r, p)
	if err != nil {
		return platform.Prepared{}, err
	}
	values := r.Header.Values(idempotencyHeader)
	if len(values) > 1 {
		return platform.Prepared{}, invalid("Idempotency-Key is given more than once")
	}
	key, err := idempotency.ParseKey(values[0])
	if err != nil {
		return platform.Prepared{}, invalid(err.Error())
	}
	digest, err := idempotency.RequestDigest(route, body)
	if err != nil {
		return platform.Prepared{}, invalid(err.Error())
	}
	return platform.Prepared{Serve: serve, Keyed: &platform.Keyed{Key: key, Digest: digest}}, nil
}

// errReader answers its error, or EOF.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	return 0, io.EOF
}
