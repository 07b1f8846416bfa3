package http

import (
	"fmt"
	"math"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/julienschmidt/httprouter"

	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/domain/ledger"
)

const keyMessage = "Store this API key now: it is shown only once and cannot be recovered. Send it in the X-API-KEY header."

func (s *Server) routeAccount() {
	s.handle(http.MethodPost, "/account/login", s.boundedHashing(s.login))
	s.handle(http.MethodPost, "/account/keys", s.bounded(s.session(s.createKey)))
	s.handle(http.MethodGet, "/account/keys", s.bounded(s.session(s.listKeys)))
	s.handle(http.MethodDelete, "/account/keys/{key_id}", s.bounded(s.session(s.revokeKey)))
	s.handle(http.MethodGet, "/account/credits", s.bounded(s.session(s.credits)))
}

type loginRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

type loginResponse struct {
	SessionToken string       `json:"session_token"`
	TokenType    string       `json:"token_type"`
	ExpiresAt    time.Time    `json:"expires_at"`
	Account      loginAccount `json:"account"`
}

type loginAccount struct {
	Email   string `json:"email"`
	Credits int64  `json:"credits"`
}

func (s *Server) login(w http.ResponseWriter, r *http.Request, _ httprouter.Params) {
	var req loginRequest
	if err := decodeJSON(r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	l, err := s.d.Accounts.Login(r.Context(), req.Email, req.Password, clientAddress(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, loginResponse{
		SessionToken: l.Token, TokenType: "Bearer", ExpiresAt: l.ExpiresAt,
		Account: loginAccount{Email: l.Email, Credits: l.Credits},
	})
}

// clientAddress is the address the request came from, without its port.
// Behind a proxy it is the proxy's; see spec-gaps on the sign-in throttle.
func clientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// accountHandle is an account route that runs for a signed-in account.
type accountHandle func(w http.ResponseWriter, r *http.Request, p httprouter.Params, accountID string)

// session authenticates the bearer session token. An API key is refused
// here, so a leaked key cannot mint further keys.
func (s *Server) session(next accountHandle) func(http.ResponseWriter, *http.Request, httprouter.Params) {
	return func(w http.ResponseWriter, r *http.Request, p httprouter.Params) {
		if err := oneCredential(r.Header); err != nil {
			writeError(w, r, err)
			return
		}
		if r.Header.Get("X-API-KEY") != "" && r.Header.Get("Authorization") == "" {
			writeError(w, r, fmt.Errorf("%w: account routes take a session token (Authorization: Bearer), not an API key", platform.ErrUnauthorized))
			return
		}
		token, ok := bearerToken(r.Header.Get("Authorization"))
		if !ok {
			writeError(w, r, fmt.Errorf("%w: missing Authorization: Bearer followed by the session token", platform.ErrUnauthorized))
			return
		}
		accountID, err := s.d.Accounts.Authenticate(r.Context(), token)
		if err != nil {
			writeError(w, r, err)
			return
		}
		next(w, r, p, accountID)
	}
}

// credentialHeaders are the headers that carry a credential.
var credentialHeaders = []string{"X-API-KEY", "Authorization"}

// oneCredential refuses a request that carries a credential header more than
// once (400, before anything is looked up or charged). Reading the first
// would be a guess, and a proxy, a cache or a log in front of the service
// may have guessed the other one.
func oneCredential(h http.Header) error {
	for _, name := range credentialHeaders {
		if n := len(h.Values(name)); n > 1 {
			return invalid(fmt.Sprintf("the request carries %d %s headers; send exactly one", n, name))
		}
	}
	return nil
}

// bearerToken returns the credentials of an Authorization header in the
// Bearer scheme, whose name is case-insensitive (RFC 9110, section 11.1).
func bearerToken(header string) (string, bool) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(header), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	return strings.TrimLeft(token, " "), true
}

type keyEntry struct {
	KeyID      string     `json:"key_id"`
	Name       string     `json:"name"`
	KeyPrefix  string     `json:"key_prefix"`
	Scopes     []string   `json:"scopes"`
	Status     string     `json:"status"`
	CreatedAt  time.Time  `json:"created_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
	RevokedAt  *time.Time `json:"revoked_at"`
}

func toKeyEntry(k apikey.Key) keyEntry {
	status := "active"
	if k.RevokedAt != nil {
		status = "revoked"
	}
	return keyEntry{
		KeyID: k.ID, Name: k.Name, KeyPrefix: k.Prefix, Scopes: k.Scopes, Status: status,
		CreatedAt: k.CreatedAt, LastUsedAt: k.LastUsedAt, RevokedAt: k.RevokedAt,
	}
}

type createdKey struct {
	KeyID     string    `json:"key_id"`
	Name      string    `json:"name"`
	APIKey    string    `json:"api_key"`
	KeyPrefix string    `json:"key_prefix"`
	Scopes    []string  `json:"scopes"`
	CreatedAt time.Time `json:"created_at"`
	Message   string    `json:"message"`
}

func (s *Server) createKey(w http.ResponseWriter, r *http.Request, _ httprouter.Params, accountID string) {
	name := r.URL.Query().Get("name")
	if r.URL.Query().Has("name") && name == "" {
		writeError(w, r, unprocessable("name must be 1 to 64 characters when given"))
		return
	}
	k, err := s.d.Keys.Create(r.Context(), accountID, name)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, createdKey{
		KeyID: k.Key.ID, Name: k.Key.Name, APIKey: k.Secret, KeyPrefix: k.Key.Prefix,
		Scopes: k.Key.Scopes, CreatedAt: k.Key.CreatedAt, Message: keyMessage,
	})
}

func (s *Server) listKeys(w http.ResponseWriter, r *http.Request, _ httprouter.Params, accountID string) {
	keys, err := s.d.Keys.List(r.Context(), accountID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]keyEntry, len(keys))
	for i, k := range keys {
		out[i] = toKeyEntry(k)
	}
	writeJSON(w, http.StatusOK, map[string][]keyEntry{"keys": out})
}

func (s *Server) revokeKey(w http.ResponseWriter, r *http.Request, p httprouter.Params, accountID string) {
	k, err := s.d.Keys.Revoke(r.Context(), accountID, p.ByName("key_id"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toKeyEntry(k))
}

type ledgerEntry struct {
	EntryID   string    `json:"entry_id"`
	Kind      string    `json:"kind"`
	Amount    int64     `json:"amount"`
	Route     *string   `json:"route"`
	KeyID     *string   `json:"key_id"`
	RequestID *string   `json:"request_id"`
	RefundOf  *string   `json:"refund_of"`
	Reason    *string   `json:"reason"`
	CreatedAt time.Time `json:"created_at"`
}

type pageMeta struct {
	Limit      int  `json:"limit"`
	Offset     int  `json:"offset"`
	Count      int  `json:"count"`
	NextOffset *int `json:"next_offset"`
	Total      int  `json:"total"`
}

type creditsResponse struct {
	Balance int64         `json:"balance"`
	Ledger  []ledgerEntry `json:"ledger"`
	Meta    pageMeta      `json:"meta"`
}

func (s *Server) credits(w http.ResponseWriter, r *http.Request, _ httprouter.Params, accountID string) {
	limit, err1 := boundedInt(r, "limit", platform.DefaultStatementLimit, 1, platform.MaxStatementLimit)
	offset, err2 := boundedInt(r, "offset", 0, 0, math.MaxInt32)
	if err := firstError(err1, err2); err != nil {
		writeError(w, r, err)
		return
	}
	st, err := s.d.Credits.Statement(r.Context(), accountID, limit, offset)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]ledgerEntry, len(st.Entries))
	for i, e := range st.Entries {
		out[i] = toLedgerEntry(e)
	}
	writeJSON(w, http.StatusOK, creditsResponse{Balance: st.Balance, Ledger: out, Meta: page(limit, offset, len(out), st.Total)})
}

func toLedgerEntry(e ledger.Entry) ledgerEntry {
	return ledgerEntry{
		EntryID: e.ID, Kind: string(e.Kind), Amount: e.Amount, CreatedAt: e.CreatedAt,
		Route: optional(e.Route), KeyID: optional(e.KeyID), RequestID: optional(e.RequestID), RefundOf: optional(e.RefundOf),
		Reason: optional(e.Reason),
	}
}

// page builds pagination metadata; next_offset is null on the last page.
func page(limit, offset, count, total int) pageMeta {
	m := pageMeta{Limit: limit, Offset: offset, Count: count, Total: total}
	if next := offset + count; count > 0 && next < total {
		m.NextOffset = &next
	}
	return m
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
