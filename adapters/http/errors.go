package http

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/idempotency"
	"github.com/quarrydata/quarry/ports"
)

// errorBody is the ErrorResponse of the interface. DidYouMean is set on
// a refusal of a value the service can tell the intended form of.
type errorBody struct {
	Error      string `json:"error"`
	Message    string `json:"message"`
	RequestID  string `json:"request_id"`
	DidYouMean string `json:"did_you_mean,omitempty"`
}

// unavailableBody is the NormalizedDatasetUnavailableResponse.
type unavailableBody struct {
	errorBody
	Dataset                string `json:"dataset"`
	Availability           string `json:"availability"`
	Reason                 string `json:"reason"`
	BackfillRequired       bool   `json:"backfill_required"`
	ExternalSourceRequired bool   `json:"external_source_required"`
}

// errPayloadTooLarge and errMethodNotAllowed come from the transport itself.
var (
	errPayloadTooLarge  = errors.New("request body exceeds 1 MiB")
	errMethodNotAllowed = errors.New("method not allowed")
	errRouteNotFound    = errors.New("no such route")
)

// Refusals of an MCP message (spec-gaps B97, B104): each is a JSON-RPC error
// response (writeRPCError).
var (
	errMCPParse    = errors.New("the body is not JSON")
	errMCPBatch    = fmt.Errorf("%w: JSON-RPC batches are not accepted: send one message per POST", usecase.ErrInvalidRequest)
	errMCPMethod   = errors.New("method not found")
	errMCPTooLarge = errors.New("response too large")
	errMCPLate     = errors.New("deadline exceeded")
)

// transportError is a refusal the MCP SDK's transport wrote as plain text:
// its status and its text, answered as JSON instead.
type transportError struct {
	code int
	text string
}

func (e *transportError) Error() string { return e.text }

// storeUnavailable is the code of a 503 whose store did not answer in time
// (spec-gaps "A store that does not answer"), as against dataset_unavailable,
// a dataset not activated or not loaded.
const storeUnavailable = "store_unavailable"

// storeRetryAfter is the Retry-After of store_unavailable, in seconds: about
// the time a promoted standby takes to be found by the pool.
const storeRetryAfter = "2"

// status maps an error to its HTTP status and error code. It is the one
// place where errors become statuses; anything unrecognised is a 500.
func status(err error) (int, string) {
	var rl *platform.RateLimitError
	var un *usecase.UnavailableError
	var te *transportError
	switch {
	case errors.As(err, &te):
		return te.code, transportCode(te.code)
	case errors.Is(err, errMCPParse), errors.Is(err, usecase.ErrInvalidRequest):
		return http.StatusBadRequest, "invalid_request"
	case errors.Is(err, platform.ErrUnauthorized):
		return http.StatusUnauthorized, "unauthorized"
	case errors.Is(err, ports.ErrInsufficientCredits):
		return http.StatusPaymentRequired, "insufficient_credits"
	case errors.Is(err, platform.ErrForbidden):
		return http.StatusForbidden, "forbidden"
	case errors.Is(err, ports.ErrNotFound), errors.Is(err, errRouteNotFound):
		return http.StatusNotFound, "not_found"
	case errors.Is(err, errMethodNotAllowed):
		return http.StatusMethodNotAllowed, "method_not_allowed"
	case errors.Is(err, errPayloadTooLarge):
		return http.StatusRequestEntityTooLarge, "payload_too_large"
	case errors.Is(err, usecase.ErrValidation):
		return http.StatusUnprocessableEntity, "validation_failed"
	case errors.Is(err, idempotency.ErrKeyReused):
		return http.StatusUnprocessableEntity, "idempotency_key_reused"
	case errors.Is(err, idempotency.ErrInProgress), errors.Is(err, idempotency.ErrNotKept):
		return http.StatusConflict, "idempotency_key_in_use"
	case errors.As(err, &rl):
		return http.StatusTooManyRequests, "rate_limited"
	case errors.As(err, &un):
		return http.StatusServiceUnavailable, "dataset_unavailable"
	case errors.Is(err, errMCPMethod):
		return http.StatusNotFound, "not_found"
	case errors.Is(err, ports.ErrUnavailable):
		return http.StatusServiceUnavailable, storeUnavailable
	}
	return http.StatusInternalServerError, "internal"
}

// transportCode is the error code of a status the MCP transport answered.
func transportCode(code int) string {
	switch {
	case code == http.StatusBadRequest:
		return "invalid_request"
	case code == http.StatusRequestEntityTooLarge:
		return "payload_too_large"
	case code >= 500:
		return "internal"
	}
	return strings.ReplaceAll(strings.ToLower(http.StatusText(code)), " ", "_")
}

// rpcCode is the JSON-RPC error code of an MCP refusal.
func rpcCode(err error) int {
	code, _ := status(err)
	switch {
	case errors.Is(err, errMCPParse):
		return -32700 // parse error
	case errors.Is(err, errMCPMethod):
		return -32601 // method not found
	case errors.As(err, new(*unknownToolError)):
		return -32602 // invalid params
	case code >= 500:
		return -32603 // internal error
	}
	return -32600 // invalid request
}

// message is what the client is told. Client errors explain themselves; a
// 5xx never shows internals.
func message(code int, err error) string {
	if errors.Is(err, ports.ErrOutcomeUnknown) {
		return "the ledger could not confirm whether this request was charged; GET /account/credits lists its entry by request_id if it was"
	}
	if errors.Is(err, errMCPTooLarge) || errors.Is(err, errMCPLate) {
		return err.Error() // a 500 of the MCP gate's own, with nothing internal to hide
	}
	if errors.Is(err, ports.ErrNotMigrated) {
		return "the service's database lacks this release's migrations: its operator runs `quarry migrate` (GET /readyz says so too); nothing was charged"
	}
	if errors.Is(err, ports.ErrUnavailable) {
		return "a store this request needs did not answer in time; X-Credits-Cost says what the request cost; retry after the Retry-After interval"
	}
	switch code {
	case http.StatusInternalServerError:
		return "internal error; quote the request_id when reporting it"
	case http.StatusPaymentRequired:
		return "balance cannot cover this request; the key keeps every permission. Credits are not bought here: " +
			"ask the operator of this service to grant more (quarry credits grant)"
	case http.StatusTooManyRequests:
		var rl *platform.RateLimitError
		if errors.As(err, &rl) && rl.Reason != "" {
			return rl.Reason
		}
		return "rate limit exceeded; retry after the Retry-After interval"
	case http.StatusNotFound:
		if errors.Is(err, errRouteNotFound) {
			return "no such route; see /openapi.json"
		}
	case http.StatusConflict:
		return conflictMessage(err)
	}
	return err.Error()
}

// conflictMessage says what a 409 means without the store's wording, which
// names the adapter ("sqlite: key ..."): the key's first request is still
// running, or its answer was not kept.
func conflictMessage(err error) string {
	if errors.Is(err, idempotency.ErrNotKept) {
		return idempotency.ErrNotKept.Error() + "; send the request again with a new Idempotency-Key"
	}
	return idempotency.ErrInProgress.Error() + "; retry once it has answered"
}

// markupEscapes writes <, > and & as JSON's escapes in the text of a
// message. A message may quote client input (an unknown field, a code, a key
// id from the path), and a client that puts it into a page as it is must not
// find markup there; the escapes still say which character was sent.
var markupEscapes = strings.NewReplacer("<", `\u003c`, ">", `\u003e`, "&", `\u0026`)

// writeError writes the error response for err, with the rate-limit headers
// a 429 carries and the dataset fields a 503 carries.
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	code, kind := status(err)
	rec := recordOf(r)
	rec.err = err
	body := errorBody{Error: kind, Message: markupEscapes.Replace(message(code, err)), RequestID: rec.id}
	var sug *usecase.SuggestionError
	if errors.As(err, &sug) {
		body.DidYouMean = sug.Meant
	}
	var rl *platform.RateLimitError
	if errors.As(err, &rl) {
		setRateLimitHeaders(w, rl)
	}
	if kind == storeUnavailable {
		w.Header().Set("Retry-After", storeRetryAfter)
	}
	var un *usecase.UnavailableError
	if errors.As(err, &un) {
		writeJSON(w, code, unavailableBody{
			errorBody: body, Dataset: string(un.Dataset), Availability: string(un.Status.Availability),
			Reason: string(un.Status.Reason), BackfillRequired: un.Status.BackfillRequired,
			ExternalSourceRequired: un.Status.ExternalSourceRequired,
		})
		return
	}
	writeJSON(w, code, body)
}

// rpcErrorResponse is a JSON-RPC error response; its data is the
// ErrorResponse every route answers.
type rpcErrorResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   rpcErrorObject  `json:"error"`
}

type rpcErrorObject struct {
	Code    int       `json:"code"`
	Message string    `json:"message"`
	Data    errorBody `json:"data"`
}

// writeRPCError writes the JSON-RPC error response of an MCP refusal,
// answering the message id (null when none was read), with the status and
// message writeError would give.
func writeRPCError(w http.ResponseWriter, r *http.Request, err error, id json.RawMessage) {
	code, kind := status(err)
	rec := recordOf(r)
	rec.err = err
	msg := markupEscapes.Replace(message(code, err))
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	writeJSON(w, code, rpcErrorResponse{JSONRPC: "2.0", ID: id,
		Error: rpcErrorObject{Code: rpcCode(err), Message: msg, Data: errorBody{Error: kind, Message: msg, RequestID: rec.id}}})
}

func setRateLimitHeaders(w http.ResponseWriter, rl *platform.RateLimitError) {
	secs := int((rl.RetryAfter + time.Second - 1) / time.Second)
	secs = max(secs, 1)
	h := w.Header()
	h.Set("Retry-After", strconv.Itoa(secs))
	h.Set("RateLimit-Limit", strconv.Itoa(rl.Limit))
	h.Set("RateLimit-Remaining", strconv.Itoa(rl.Remaining))
	h.Set("RateLimit-Reset", strconv.Itoa(secs))
}
