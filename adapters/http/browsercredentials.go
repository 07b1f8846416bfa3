package http

import (
	"net/http"
	"time"

	"github.com/julienschmidt/httprouter"

	"github.com/quarrydata/quarry/domain/apikey"
)

// The routes of spec §5.8: a server holding a session mints short-lived,
// narrowed credentials for the pages it serves.
func (s *Server) routeBrowserCredentials() {
	s.handle(http.MethodPost, "/account/browser-credentials", s.bounded(s.session(s.createBrowserCredential)))
	s.handle(http.MethodGet, "/account/browser-credentials", s.bounded(s.session(s.listBrowserCredentials)))
	s.handle(http.MethodDelete, "/account/browser-credentials/{credential_id}", s.bounded(s.session(s.revokeBrowserCredential)))
}

type browserCredentialRequest struct {
	Scopes []string `json:"scopes"`
}

// createdBrowserCredential is the 201 body: the secret, once.
type createdBrowserCredential struct {
	CredentialID string    `json:"credential_id"`
	APIKey       string    `json:"api_key"`
	KeyPrefix    string    `json:"key_prefix"`
	Scopes       []string  `json:"scopes"`
	CreatedAt    time.Time `json:"created_at"`
	ExpiresAt    time.Time `json:"expires_at"`
}

// browserCredentialEntry is a credential as listed.
type browserCredentialEntry struct {
	CredentialID string     `json:"credential_id"`
	KeyPrefix    string     `json:"key_prefix"`
	Scopes       []string   `json:"scopes"`
	Status       string     `json:"status"`
	CreatedAt    time.Time  `json:"created_at"`
	ExpiresAt    time.Time  `json:"expires_at"`
	LastUsedAt   *time.Time `json:"last_used_at"`
	RevokedAt    *time.Time `json:"revoked_at"`
}

func toBrowserCredentialEntry(k apikey.Key, now time.Time) browserCredentialEntry {
	status := "active"
	switch {
	case k.RevokedAt != nil:
		status = "revoked"
	case k.Expired(now):
		status = "expired"
	}
	return browserCredentialEntry{
		CredentialID: k.ID, KeyPrefix: k.Prefix, Scopes: k.Scopes, Status: status,
		CreatedAt: k.CreatedAt, ExpiresAt: *k.ExpiresAt, LastUsedAt: k.LastUsedAt, RevokedAt: k.RevokedAt,
	}
}

func (s *Server) createBrowserCredential(w http.ResponseWriter, r *http.Request, _ httprouter.Params, accountID string) {
	var req browserCredentialRequest
	if err := decodeJSON(r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	if req.Scopes == nil {
		writeError(w, r, unprocessable(`field "scopes" is required: a non-empty array of permissions`))
		return
	}
	c, err := s.d.Keys.CreateBrowserCredential(r.Context(), accountID, req.Scopes)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, createdBrowserCredential{
		CredentialID: c.Key.ID, APIKey: c.Secret, KeyPrefix: c.Key.Prefix, Scopes: c.Key.Scopes,
		CreatedAt: c.Key.CreatedAt, ExpiresAt: *c.Key.ExpiresAt,
	})
}

func (s *Server) listBrowserCredentials(w http.ResponseWriter, r *http.Request, _ httprouter.Params, accountID string) {
	creds, err := s.d.Keys.ListBrowserCredentials(r.Context(), accountID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	now := s.now()
	out := make([]browserCredentialEntry, len(creds))
	for i, c := range creds {
		out[i] = toBrowserCredentialEntry(c, now)
	}
	writeJSON(w, http.StatusOK, map[string][]browserCredentialEntry{"browser_credentials": out})
}

func (s *Server) revokeBrowserCredential(w http.ResponseWriter, r *http.Request, p httprouter.Params, accountID string) {
	c, err := s.d.Keys.RevokeBrowserCredential(r.Context(), accountID, p.ByName("credential_id"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toBrowserCredentialEntry(c, s.now()))
}
