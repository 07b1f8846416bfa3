package http_test

import (
	"encoding/json"
	"html"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/quarrydata/quarry/adapters/http/openapi"
)

func TestBaseAddressRedirectsToTheConsole(t *testing.T) {
	c := newConsole(t)
	for _, method := range []string{"GET", "HEAD"} {
		w := c.send(httptest.NewRequest(method, "/", nil))
		if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/console/" {
			t.Errorf("%s / answered %d to %q, want 303 to /console/", method, w.Code, w.Header().Get("Location"))
		}
		if w.Header().Get("Content-Security-Policy") == "" {
			t.Errorf("%s / has no Content-Security-Policy", method)
		}
	}
	if w := c.send(httptest.NewRequest("GET", "/console/", nil)); w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/console/keys" {
		t.Fatalf("/console/ answered %d to %q", w.Code, w.Header().Get("Location"))
	}
	if w := c.send(httptest.NewRequest("POST", "/", nil)); w.Code != http.StatusMethodNotAllowed {
		t.Fatalf("POST / answered %d, want 405", w.Code)
	}
}

// TestDocsShowsEveryOperation reads the reference as a browser gets it:
// the console's headers, no script, every operation of the document (its
// path, method and summary), and no link to an anchor the page lacks.
func TestDocsShowsEveryOperation(t *testing.T) {
	c := newConsole(t)
	w := c.send(httptest.NewRequest("GET", "/docs", nil))
	if w.Code != http.StatusOK || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("GET /docs answered %d, %q", w.Code, w.Header().Get("Content-Type"))
	}
	if got, want := w.Header().Get("Content-Security-Policy"), c.get("/console/keys").Header().Get("Content-Security-Policy"); got == "" || got != want {
		t.Fatalf("CSP %q, want the console's %q", got, want)
	}
	page := w.Body.String()
	if strings.Contains(strings.ToLower(page), "<script") || strings.Contains(page, " style=") {
		t.Fatal("the reference holds a script or an inline style")
	}
	doc, err := openapi.Load()
	if err != nil {
		t.Fatal(err)
	}
	ops := 0
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			ops++
			section := `id="op-` + op.OperationID + `" data-path="` + html.EscapeString(path) + `">`
			i := strings.Index(page, section)
			if i < 0 {
				t.Errorf("%s %s is not on the page", method, path)
				continue
			}
			head := page[i:min(len(page), i+400+len(op.Summary)*2)]
			if !strings.Contains(head, ">"+method+"<") || !strings.Contains(head, html.EscapeString(op.Summary)) {
				t.Errorf("%s %s is shown without its method or summary: %s", method, path, head)
			}
		}
	}
	if n := strings.Count(page, `<article class="op"`); n != ops {
		t.Errorf("%d operations on the page, the document has %d", n, ops)
	}
	for _, m := range regexp.MustCompile(`href="#([^"]+)"`).FindAllStringSubmatch(page, -1) {
		if !strings.Contains(page, `id="`+m[1]+`"`) {
			t.Errorf("a link goes to #%s, which the page does not have", m[1])
		}
	}

	head := c.send(httptest.NewRequest("HEAD", "/docs", nil))
	if head.Code != http.StatusOK || head.Header().Get("Content-Length") != strconv.Itoa(len(page)) {
		t.Fatalf("HEAD /docs answered %d with Content-Length %q, want 200 and %d", head.Code, head.Header().Get("Content-Length"), len(page))
	}
	again := httptest.NewRequest("GET", "/docs", nil)
	again.Header.Set("If-None-Match", w.Header().Get("ETag"))
	if w := c.send(again); w.Header().Get("ETag") == "" || w.Code != http.StatusNotModified || w.Body.Len() != 0 {
		t.Fatalf("GET /docs with its ETag answered %d with %d bytes, want 304 and none", w.Code, w.Body.Len())
	}
	if !strings.Contains(c.get("/console/keys").Body.String(), `href="/docs"`) {
		t.Fatal("the console's pages do not link to the reference")
	}
}

// TestDocsShowEachExampleAsCurl reads each operation's example on the
// page: a curl command to the base address the page was asked at, with
// the credential header the operation takes, and the answer with its
// status; asked at another address, the page names that one.
func TestDocsShowEachExampleAsCurl(t *testing.T) {
	c := newConsole(t)
	req := httptest.NewRequest("GET", "/docs", nil)
	req.Host = "quarry.test:8443"
	req.Header.Set("X-Forwarded-Proto", "https")
	w := c.send(req)
	page := w.Body.String()
	doc, err := openapi.Load()
	if err != nil {
		t.Fatal(err)
	}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			article := articleOf(page, op.OperationID)
			var ex struct{ Target string }
			b, _ := json.Marshal(op.Extensions["x-example-request"])
			if err := json.Unmarshal(b, &ex); err != nil || ex.Target == "" {
				t.Errorf("%s %s has no example request in the document", method, path)
				continue
			}
			cmd := "curl"
			if method != "GET" {
				cmd += " -X " + method
			}
			cmd += " '" + "https://quarry.test:8443" + ex.Target + "'"
			if !strings.Contains(article, `<pre class="example"><code>`+html.EscapeString(cmd)) {
				t.Errorf("%s %s: the page shows no %s", method, path, cmd)
			}
			if wantKey := needsKey(doc, op); wantKey != strings.Contains(article, html.EscapeString(`-H "X-API-KEY: $KEY"`)) {
				t.Errorf("%s %s: the command sends X-API-KEY %v, the operation takes a key in it %v", method, path, !wantKey, wantKey)
			}
			if !regexp.MustCompile(`answers <strong class="status s2xx">2\d\d</strong>`).MatchString(article) || !strings.Contains(article, `<pre class="example answer"><code>`) {
				t.Errorf("%s %s: the page shows no answer to the example", method, path)
			}
		}
	}
	if strings.Contains(page, "QUARRY-DOCS-BASE-ADDRESS") {
		t.Error("the page holds the base address's marker")
	}
	plain := c.send(httptest.NewRequest("GET", "/docs", nil))
	if !strings.Contains(plain.Body.String(), "curl &#39;http://example.com/catalog&#39;") || plain.Header().Get("ETag") == w.Header().Get("ETag") {
		t.Error("asked at another address, the page does not name it, or keeps the entity tag of the first")
	}
}

// TestDocsShowNoInternalReferences scans the page for what only the
// project's own people can follow: its decision log, decision ids, its
// repository's files and Go's type names.
func TestDocsShowNoInternalReferences(t *testing.T) {
	page := newConsole(t).get("/docs").Body.String()
	for name, re := range map[string]*regexp.Regexp{
		"the decision log":      regexp.MustCompile(`spec-gaps`),
		"a decision id":         regexp.MustCompile(`\b[AB][0-9]+\b`),
		"a file of the project": regexp.MustCompile(`\b(docs|adapters|domain|app|ports|bootstrap|internal)/[\w./-]+`),
		"a Go type name":        regexp.MustCompile(`\b[a-z][a-z0-9]*\.[A-Z]\w*\b|\b(float64|float32|int32|uint64|\[\]byte|\[\]string|map\[string\]\w+|json\.RawMessage)\b`),
	} {
		if m := re.FindAllString(page, 5); m != nil {
			t.Errorf("the page shows %s: %q", name, m)
		}
	}
}

// articleOf is the operation's article on the page.
func articleOf(page, operationID string) string {
	i := strings.Index(page, `<article class="op" id="op-`+operationID+`"`)
	if i < 0 {
		return ""
	}
	j := strings.Index(page[i:], "</article>")
	return page[i : i+j]
}

// needsKey reports whether op takes an API key in X-API-KEY first.
func needsKey(doc *openapi3.T, op *openapi3.Operation) bool {
	reqs := doc.Security
	if op.Security != nil {
		reqs = *op.Security
	}
	if len(reqs) == 0 {
		return false
	}
	_, ok := reqs[0]["ApiKeyAuth"]
	return ok
}
