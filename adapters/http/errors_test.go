package http

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/idempotency"
	"github.com/quarrydata/quarry/ports"
)

func TestStatusMapsEveryErrorOnce(t *testing.T) {
	cases := []struct {
		err  error
		code int
		kind string
	}{
		{fmt.Errorf("%w: both ticker and cik", usecase.ErrInvalidRequest), http.StatusBadRequest, "invalid_request"},
		{fmt.Errorf("%w: revoked", platform.ErrUnauthorized), http.StatusUnauthorized, "unauthorized"},
		{fmt.Errorf("postgres: debit: %w", ports.ErrInsufficientCredits), http.StatusPaymentRequired, "insufficient_credits"},
		{fmt.Errorf("%w: needs china:read", platform.ErrForbidden), http.StatusForbidden, "forbidden"},
		{fmt.Errorf("mongo: find: %w", ports.ErrNotFound), http.StatusNotFound, "not_found"},
		{errMethodNotAllowed, http.StatusMethodNotAllowed, "method_not_allowed"},
		{errPayloadTooLarge, http.StatusRequestEntityTooLarge, "payload_too_large"},
		{fmt.Errorf("%w: bare code", usecase.ErrValidation), http.StatusUnprocessableEntity, "validation_failed"},
		{&platform.RateLimitError{}, http.StatusTooManyRequests, "rate_limited"},
		{&usecase.UnavailableError{}, http.StatusServiceUnavailable, "dataset_unavailable"},
		{errors.New("dial tcp 10.0.0.7:5432: connection refused"), http.StatusInternalServerError, "internal"},
		{fmt.Errorf("postgres: %w", ports.ErrUnavailable), http.StatusServiceUnavailable, "store_unavailable"},
		{fmt.Errorf("postgres: debit: %w", ports.ErrOutcomeUnknown), http.StatusServiceUnavailable, "store_unavailable"},
	}
	for _, c := range cases {
		code, kind := status(c.err)
		if code != c.code || kind != c.kind {
			t.Errorf("status(%v) = %d %s, want %d %s", c.err, code, kind, c.code, c.kind)
		}
	}
}

func TestInternalErrorsDoNotLeak(t *testing.T) {
	err := errors.New("dial tcp 10.0.0.7:5432: password authentication failed for user quarry")
	if msg := message(http.StatusInternalServerError, err); msg == err.Error() {
		t.Fatalf("500 message leaks %q", msg)
	}
}

// TestConflictsNameNoAdapter: a 409 says what happened to the
// Idempotency-Key in the API's words, never the store's ("sqlite: key
// ...").
func TestConflictsNameNoAdapter(t *testing.T) {
	for _, err := range []error{
		fmt.Errorf("sqlite: key %q is complete already: %w", "k1", idempotency.ErrInProgress),
		fmt.Errorf("postgres: body of key %q: %w", "k1", idempotency.ErrNotKept),
	} {
		code, _ := status(err)
		msg := message(code, err)
		if code != http.StatusConflict || strings.Contains(msg, "sqlite") || strings.Contains(msg, "postgres") || !strings.Contains(msg, "Idempotency-Key") {
			t.Errorf("%v: %d %q", err, code, msg)
		}
	}
}

// TestMessagesNameTheRemedy: a 402 says how credits are really added (an
// operator grants them; nothing is for sale), and a 503 passes on the
// command that fills the dataset.
func TestMessagesNameTheRemedy(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{ports.ErrInsufficientCredits, "ask the operator of this service to grant more (quarry credits grant)"},
		{&usecase.UnavailableError{Dataset: "us_financials", Remedy: "an operator loads it with `quarry ingest us_financials`"},
			"dataset us_financials is not available: ; an operator loads it with `quarry ingest us_financials`"},
	}
	for _, c := range cases {
		code, _ := status(c.err)
		if got := message(code, c.err); got != c.want && !strings.HasSuffix(got, c.want) {
			t.Errorf("message(%d) = %q, want it to end %q", code, got, c.want)
		}
	}
}

func TestRouterPath(t *testing.T) {
	if got := routerPath("/us/filings/{accession_number}/index"); got != "/us/filings/:accession_number/index" {
		t.Fatalf("routerPath = %q", got)
	}
}
