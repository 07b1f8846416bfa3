package http

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"embed"
	"encoding/base64"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/julienschmidt/httprouter"
	"go.uber.org/zap"

	"github.com/quarrydata/quarry/app/platform"
)

// The console: sign-up and sign-in, keys, credits, catalog and "try it",
// served under ConsolePath by the same binary, from embedded templates and
// static files; no build step. SignupURL is the spec's {signup_url}.
const (
	ConsolePath = "/console"
	SignupURL   = ConsolePath + "/signup"
)

// Cookies of the console. The session cookie carries a session token like
// the API's Bearer one; the sign-in cookie carries the CSRF token of the
// sign-in form, before there is a session to derive one from.
const (
	sessionCookie = "quarry_console"
	signinCookie  = "quarry_console_signin"
	csrfField     = "csrf"
	csrfHeader    = "X-CSRF-Token"
)

// consoleCSP allows nothing inline and nothing from another origin: every
// script and style is a file under /console/static/.
const consoleCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
	"form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

//go:embed console
var consoleFiles embed.FS

// consolePages are the templates, each page parsed with the layout.
var consolePages = parsePages("signup", "keys", "revoke", "credits", "catalog", "try", "error")

func parsePages(names ...string) map[string]*template.Template {
	funcs := template.FuncMap{"credits": formatCredits, "when": formatTime}
	pages := map[string]*template.Template{}
	for _, n := range names {
		pages[n] = template.Must(template.New(n).Funcs(funcs).ParseFS(consoleFiles,
			"console/templates/layout.html", "console/templates/"+n+".html"))
	}
	return pages
}

// pageData is what every template gets: the layout's fields and the page's own.
type pageData struct {
	Title   string
	Nav     string
	Email   string
	Balance int64
	CSRF    string
	Data    any
}

// consoleUser is the signed-in account behind a console request.
type consoleUser struct {
	accountID string
	token     string
	email     string
	csrf      string
}

type consoleHandle func(w http.ResponseWriter, r *http.Request, p httprouter.Params, u consoleUser)

// routeConsole routes the console's pages; those that read or write the
// platform store are bounded by the store timeout, as the account routes.
func (s *Server) routeConsole() {
	home := func(w http.ResponseWriter, r *http.Request, _ httprouter.Params) {
		consoleHeaders(w)
		http.Redirect(w, r, ConsolePath+"/keys", http.StatusSeeOther)
	}
	s.handle(http.MethodGet, ConsolePath, home)
	s.handle(http.MethodGet, ConsolePath+"/", home)
	s.handle(http.MethodGet, ConsolePath+"/static/{name}", s.consoleStatic)
	s.handle(http.MethodGet, SignupURL, s.signupForm)
	s.handle(http.MethodPost, SignupURL, s.boundedHashing(s.signup))
	s.handle(http.MethodPost, ConsolePath+"/signout", s.bounded(s.consoleForm(s.signout)))
	s.handle(http.MethodGet, ConsolePath+"/keys", s.bounded(s.signedIn(s.keysPage)))
	s.handle(http.MethodPost, ConsolePath+"/keys", s.bounded(s.consoleForm(s.mintKey)))
	s.handle(http.MethodGet, ConsolePath+"/keys/{key_id}/revoke", s.bounded(s.signedIn(s.confirmRevoke)))
	s.handle(http.MethodPost, ConsolePath+"/keys/{key_id}/revoke", s.bounded(s.consoleForm(s.revokeKeyForm)))
	s.handle(http.MethodPost, ConsolePath+"/browser-credentials/{credential_id}/revoke", s.bounded(s.consoleForm(s.revokeCredentialForm)))
	s.handle(http.MethodGet, ConsolePath+"/credits", s.bounded(s.signedIn(s.creditsPage)))
	s.handle(http.MethodGet, ConsolePath+"/catalog", s.bounded(s.signedIn(s.catalogPage)))
	s.handle(http.MethodGet, ConsolePath+"/try", s.bounded(s.signedIn(s.tryPage)))
	s.handle(http.MethodPost, ConsolePath+"/credentials", s.bounded(s.consoleAPI(s.consoleCredential)))
}

// consoleHeaders are the security headers of every console response. No
// page is cached: the keys page may hold a secret shown once.
func consoleHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", consoleCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "same-origin") // "no-referrer" would make a form's Origin "null"
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
}

// csrfFor derives a session's CSRF token from its session token: only a
// holder of the HttpOnly cookie can know it, and it needs no storage.
func csrfFor(sessionToken string) string {
	sum := sha256.Sum256([]byte("quarry console csrf\x00" + sessionToken))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

func sameToken(a, b string) bool {
	return a != "" && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// sameOrigin refuses a request a browser says came from another site, by
// Sec-Fetch-Site or Origin; an Origin must match the request's scheme as
// well as its host, so that a page served over plain HTTP (which anyone on
// the network can rewrite) cannot post to the console served over TLS.
// SameSite=Strict and the CSRF token are the other two locks.
func sameOrigin(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
	default:
		return false
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && u.Scheme == requestScheme(r) && u.Host == r.Host
}

// requestScheme is the scheme the browser reached the service by: https
// over TLS, or when the proxy that ended TLS says so in the first value of
// X-Forwarded-Proto; http otherwise. A page cannot set that header on a
// cross-site form, and a fetch that sets it needs a CORS preflight the
// service never grants, so it cannot be used to pass the origin check.
func requestScheme(r *http.Request) string {
	if r.TLS != nil {
		return "https"
	}
	first, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Proto"), ",")
	if strings.EqualFold(strings.TrimSpace(first), "https") {
		return "https"
	}
	return "http"
}

var errCrossSite = fmt.Errorf("%w: the console accepts forms from its own pages only; reload the page", platform.ErrForbidden)

// setCookie writes a console cookie: HttpOnly, SameSite=Strict, scoped to
// the console, Secure when the browser came over TLS (requestScheme).
func setCookie(w http.ResponseWriter, r *http.Request, name, value string, expires time.Time) {
	c := &http.Cookie{
		Name: name, Value: value, Path: ConsolePath,
		HttpOnly: true, Secure: requestScheme(r) == "https", SameSite: http.SameSiteStrictMode,
	}
	if expires.IsZero() {
		c.MaxAge = -1
	} else {
		c.Expires = expires
		c.MaxAge = max(int(time.Until(expires).Seconds()), 1)
	}
	http.SetCookie(w, c)
}

// user authenticates the session cookie.
func (s *Server) user(r *http.Request) (consoleUser, error) {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return consoleUser{}, fmt.Errorf("%w: not signed in", platform.ErrUnauthorized)
	}
	id, err := s.d.Accounts.Authenticate(r.Context(), c.Value)
	if err != nil {
		return consoleUser{}, err
	}
	email, err := s.d.Accounts.Email(r.Context(), id)
	if err != nil {
		return consoleUser{}, err
	}
	return consoleUser{accountID: id, token: c.Value, email: email, csrf: csrfFor(c.Value)}, nil
}

// signedIn serves a page to a signed-in account, and sends anyone else
// to the sign-in form.
func (s *Server) signedIn(next consoleHandle) httprouter.Handle {
	return func(w http.ResponseWriter, r *http.Request, p httprouter.Params) {
		consoleHeaders(w)
		u, err := s.user(r)
		if errors.Is(err, platform.ErrUnauthorized) {
			setCookie(w, r, sessionCookie, "", time.Time{})
			http.Redirect(w, r, SignupURL, http.StatusSeeOther)
			return
		}
		if err != nil {
			s.consoleError(w, r, consoleUser{}, err)
			return
		}
		next(w, r, p, u)
	}
}

// consoleForm runs a form post of a signed-in account once its origin and
// CSRF token check.
func (s *Server) consoleForm(next consoleHandle) httprouter.Handle {
	return func(w http.ResponseWriter, r *http.Request, p httprouter.Params) {
		consoleHeaders(w)
		if !sameOrigin(r) {
			s.consoleError(w, r, consoleUser{}, errCrossSite)
			return
		}
		u, err := s.user(r)
		if errors.Is(err, platform.ErrUnauthorized) {
			http.Redirect(w, r, SignupURL, http.StatusSeeOther)
			return
		}
		if err != nil {
			s.consoleError(w, r, consoleUser{}, err)
			return
		}
		if err := r.ParseForm(); err != nil {
			s.consoleError(w, r, u, bodyError(err))
			return
		}
		if !sameToken(r.PostForm.Get(csrfField), u.csrf) {
			s.consoleError(w, r, u, fmt.Errorf("%w: the form's CSRF token does not match this session; reload the page", platform.ErrForbidden))
			return
		}
		next(w, r, p, u)
	}
}

// consoleAPI runs a JSON call of the console's own scripts: session cookie,
// same origin, and the CSRF token in the X-CSRF-Token header.
func (s *Server) consoleAPI(next consoleHandle) httprouter.Handle {
	return func(w http.ResponseWriter, r *http.Request, p httprouter.Params) {
		consoleHeaders(w)
		if !sameOrigin(r) {
			writeError(w, r, errCrossSite)
			return
		}
		u, err := s.user(r)
		if err != nil {
			writeError(w, r, err)
			return
		}
		if !sameToken(r.Header.Get(csrfHeader), u.csrf) {
			writeError(w, r, fmt.Errorf("%w: missing or wrong %s header", platform.ErrForbidden, csrfHeader))
			return
		}
		next(w, r, p, u)
	}
}

// render writes a page; the template runs into a buffer first, so a failing
// one sends an error page, never half a page.
func (s *Server) render(w http.ResponseWriter, r *http.Request, code int, name string, pg pageData) {
	var buf bytes.Buffer
	if err := consolePages[name].ExecuteTemplate(&buf, "layout", pg); err != nil {
		s.log.Error("console template", zap.String("page", name), zap.String("request_id", recordOf(r).id), zap.Error(err))
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	_, _ = w.Write(buf.Bytes())
}

// pageFor fills the layout's fields for a signed-in account.
func (s *Server) pageFor(r *http.Request, u consoleUser, title, nav string, data any) pageData {
	pg := pageData{Title: title, Nav: nav, Email: u.email, CSRF: u.csrf, Data: data}
	if u.accountID != "" {
		bal, err := s.d.Metering.Balance(r.Context(), u.accountID)
		if err == nil {
			pg.Balance = bal
		}
	}
	return pg
}

type errorPage struct {
	Status    int
	Message   string
	RequestID string
}

// consoleError renders an error as a page, with the status and message the
// API would give it.
func (s *Server) consoleError(w http.ResponseWriter, r *http.Request, u consoleUser, err error) {
	code, _ := status(err)
	recordOf(r).err = err
	var rl *platform.RateLimitError
	if errors.As(err, &rl) {
		setRateLimitHeaders(w, rl)
	}
	s.render(w, r, code, "error", s.pageFor(r, u, "Error", "", errorPage{
		Status: code, Message: message(code, err), RequestID: recordOf(r).id,
	}))
}

// consoleStatic serves the embedded scripts and styles.
func (s *Server) consoleStatic(w http.ResponseWriter, r *http.Request, p httprouter.Params) {
	consoleHeaders(w)
	name := p.ByName("name")
	body, err := fs.ReadFile(consoleFiles, "console/static/"+path.Base(name))
	if err != nil || path.Base(name) != name {
		writeError(w, r, errRouteNotFound)
		return
	}
	types := map[string]string{".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".svg": "image/svg+xml"}
	w.Header().Set("Content-Type", types[path.Ext(name)])
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(body)
}

// randomToken is 128 random bits, base64url.
func randomToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24)
	return base64.RawURLEncoding.EncodeToString(b)
}

// formatCredits writes a count of credits with thousands separators.
func formatCredits(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

// formatTime writes an instant to the minute, in UTC; nil is a dash.
func formatTime(t any) string {
	switch v := t.(type) {
	case time.Time:
		return v.UTC().Format("2006-01-02 15:04 UTC")
	case *time.Time:
		if v != nil {
			return v.UTC().Format("2006-01-02 15:04 UTC")
		}
	}
	return "—"
}
