package http

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/julienschmidt/httprouter"

	"github.com/quarrydata/quarry/app/platform"
	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/domain/scope"
	"github.com/quarrydata/quarry/ports"
)

// ledgerPageSize is how many ledger entries the credits page shows at once.
const ledgerPageSize = 20

type signupData struct {
	Grant int64
	Email string
	Error string
}

// signupForm shows the one form that signs up and signs in. Its CSRF token
// is a random value also set in a cookie (double submit): there is no
// session yet to derive one from.
func (s *Server) signupForm(w http.ResponseWriter, r *http.Request, _ httprouter.Params) {
	consoleHeaders(w)
	if _, err := s.user(r); err == nil {
		http.Redirect(w, r, ConsolePath+"/keys", http.StatusSeeOther)
		return
	}
	s.renderSignup(w, r, http.StatusOK, signupData{})
}

func (s *Server) renderSignup(w http.ResponseWriter, r *http.Request, code int, d signupData) {
	token := randomToken()
	setCookie(w, r, signinCookie, token, time.Now().Add(time.Hour))
	d.Grant = s.d.Accounts.InitialCredits()
	s.render(w, r, code, "signup", pageData{Title: "Sign up or sign in", CSRF: token, Data: d})
}

// signup signs in, provisioning the account on a first sign-in, and opens
// the console session.
func (s *Server) signup(w http.ResponseWriter, r *http.Request, _ httprouter.Params) {
	consoleHeaders(w)
	c, err := r.Cookie(signinCookie)
	switch {
	case !sameOrigin(r):
		s.consoleError(w, r, consoleUser{}, errCrossSite)
		return
	case r.ParseForm() != nil:
		s.consoleError(w, r, consoleUser{}, invalid("the form could not be read"))
		return
	case err != nil || !sameToken(r.PostForm.Get(csrfField), c.Value):
		s.renderSignup(w, r, http.StatusForbidden, signupData{Email: r.PostForm.Get("email"), Error: "This form expired; please send it again."})
		return
	}
	l, err := s.d.Accounts.Login(r.Context(), r.PostForm.Get("email"), r.PostForm.Get("password"), clientAddress(r))
	if err != nil {
		code, _ := status(err)
		recordOf(r).err = err
		var rl *platform.RateLimitError
		if errors.As(err, &rl) {
			setRateLimitHeaders(w, rl)
		}
		s.renderSignup(w, r, code, signupData{Email: r.PostForm.Get("email"), Error: message(code, err)})
		return
	}
	setCookie(w, r, signinCookie, "", time.Time{})
	setCookie(w, r, sessionCookie, l.Token, l.ExpiresAt)
	to := ConsolePath + "/keys"
	if l.Created {
		to += "?welcome=1"
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// signout ends the session everywhere, not only in this browser.
func (s *Server) signout(w http.ResponseWriter, r *http.Request, _ httprouter.Params, u consoleUser) {
	if err := s.d.Accounts.SignOut(r.Context(), u.token); err != nil {
		s.consoleError(w, r, u, err)
		return
	}
	setCookie(w, r, sessionCookie, "", time.Time{})
	http.Redirect(w, r, SignupURL+"?signedout=1", http.StatusSeeOther)
}

type keysData struct {
	Welcome     bool
	Grant       int64
	Created     *createdKey
	Revoked     *keyEntry
	Keys        []keyEntry
	Credentials []browserCredentialEntry
	MaxKeys     int
}

func (s *Server) keysPage(w http.ResponseWriter, r *http.Request, _ httprouter.Params, u consoleUser) {
	d := keysData{Welcome: r.URL.Query().Get("welcome") == "1"}
	s.renderKeys(w, r, u, http.StatusOK, d)
}

func (s *Server) renderKeys(w http.ResponseWriter, r *http.Request, u consoleUser, code int, d keysData) {
	keys, err := s.d.Keys.List(r.Context(), u.accountID)
	if err != nil {
		s.consoleError(w, r, u, err)
		return
	}
	creds, err := s.d.Keys.ListBrowserCredentials(r.Context(), u.accountID)
	if err != nil {
		s.consoleError(w, r, u, err)
		return
	}
	now := s.now()
	for _, k := range keys {
		d.Keys = append(d.Keys, toKeyEntry(k))
		if id := r.URL.Query().Get("revoked"); id == k.ID && k.RevokedAt != nil {
			e := toKeyEntry(k)
			d.Revoked = &e
		}
	}
	slices.Reverse(d.Keys) // newest first on a page
	for _, c := range creds {
		d.Credentials = append(d.Credentials, toBrowserCredentialEntry(c, now))
	}
	d.Grant, d.MaxKeys = s.d.Accounts.InitialCredits(), platform.MaxActiveKeys
	s.render(w, r, code, "keys", s.pageFor(r, u, "API keys", "keys", d))
}

// mintKey mints a key and shows its secret in the answer to this post, once:
// it is in no URL, no script and no storage, and the page is not cached.
func (s *Server) mintKey(w http.ResponseWriter, r *http.Request, _ httprouter.Params, u consoleUser) {
	k, err := s.d.Keys.Create(r.Context(), u.accountID, r.PostForm.Get("name"))
	if err != nil {
		s.consoleError(w, r, u, err)
		return
	}
	s.renderKeys(w, r, u, http.StatusCreated, keysData{Created: &createdKey{
		KeyID: k.Key.ID, Name: k.Key.Name, APIKey: k.Secret, KeyPrefix: k.Key.Prefix,
		Scopes: k.Key.Scopes, CreatedAt: k.Key.CreatedAt, Message: keyMessage,
	}})
}

// confirmRevoke asks before a key is revoked: revocation cannot be undone.
func (s *Server) confirmRevoke(w http.ResponseWriter, r *http.Request, p httprouter.Params, u consoleUser) {
	keys, err := s.d.Keys.List(r.Context(), u.accountID)
	if err != nil {
		s.consoleError(w, r, u, err)
		return
	}
	i := slices.IndexFunc(keys, func(k apikey.Key) bool { return k.ID == p.ByName("key_id") })
	if i < 0 {
		s.consoleError(w, r, u, fmt.Errorf("%w: this account has no key %q", ports.ErrNotFound, p.ByName("key_id")))
		return
	}
	e := toKeyEntry(keys[i])
	s.render(w, r, http.StatusOK, "revoke", s.pageFor(r, u, "Revoke a key", "keys", e))
}

func (s *Server) revokeKeyForm(w http.ResponseWriter, r *http.Request, p httprouter.Params, u consoleUser) {
	k, err := s.d.Keys.Revoke(r.Context(), u.accountID, p.ByName("key_id"))
	if err != nil {
		s.consoleError(w, r, u, err)
		return
	}
	http.Redirect(w, r, ConsolePath+"/keys?revoked="+k.ID, http.StatusSeeOther)
}

func (s *Server) revokeCredentialForm(w http.ResponseWriter, r *http.Request, p httprouter.Params, u consoleUser) {
	if _, err := s.d.Keys.RevokeBrowserCredential(r.Context(), u.accountID, p.ByName("credential_id")); err != nil {
		s.consoleError(w, r, u, err)
		return
	}
	http.Redirect(w, r, ConsolePath+"/keys", http.StatusSeeOther)
}

type creditsData struct {
	Balance int64
	Entries []ledger.Entry
	Offset  int
	First   int
	Last    int
	Total   int
	Newer   *int
	Older   *int
	// Chart is drawn twice: for a wide window and for a phone.
	Chart, PhoneChart usageChart
}

func (s *Server) creditsPage(w http.ResponseWriter, r *http.Request, _ httprouter.Params, u consoleUser) {
	offset, err := strconv.Atoi(r.URL.Query().Get("offset"))
	if err != nil || offset < 0 {
		offset = 0
	}
	st, err := s.d.Credits.Statement(r.Context(), u.accountID, ledgerPageSize, offset)
	if err != nil {
		s.consoleError(w, r, u, err)
		return
	}
	usage, err := s.d.Credits.Usage(r.Context(), u.accountID)
	if err != nil {
		s.consoleError(w, r, u, err)
		return
	}
	d := creditsData{
		Balance: st.Balance, Entries: st.Entries, Offset: offset, Total: st.Total,
		Chart: newUsageChart(usage, wideChart), PhoneChart: newUsageChart(usage, narrowChart),
		First: min(offset+1, st.Total), Last: offset + len(st.Entries),
	}
	if offset > 0 {
		newer := max(offset-ledgerPageSize, 0)
		d.Newer = &newer
	}
	if next := offset + len(st.Entries); next < st.Total {
		d.Older = &next
	}
	s.render(w, r, http.StatusOK, "credits", s.pageFor(r, u, "Credits", "credits", d))
}

func (s *Server) catalogPage(w http.ResponseWriter, r *http.Request, _ httprouter.Params, u consoleUser) {
	out, err := s.catalogEntries(r.Context())
	if err != nil {
		s.consoleError(w, r, u, err)
		return
	}
	s.render(w, r, http.StatusOK, "catalog", s.pageFor(r, u, "Catalog", "catalog", out))
}

type tryData struct {
	Scopes   []string
	Routes   []catalogRoute
	Lifetime string
}

func (s *Server) tryPage(w http.ResponseWriter, r *http.Request, _ httprouter.Params, u consoleUser) {
	var routes []catalogRoute
	for _, ds := range dataset.Catalog() {
		routes = append(routes, catalogRoutes(ds.Routes)...)
	}
	s.render(w, r, http.StatusOK, "try", s.pageFor(r, u, "Try it", "try", tryData{
		Scopes: scope.Strings(scope.SelfServe()), Routes: routes, Lifetime: fmt.Sprintf("%d minutes", int(platform.BrowserCredentialTTL.Minutes())),
	}))
}

// consoleCredential mints the browser credential "try it" sends: the page
// never holds an API key.
func (s *Server) consoleCredential(w http.ResponseWriter, r *http.Request, _ httprouter.Params, u consoleUser) {
	s.createBrowserCredential(w, r, nil, u.accountID)
}
