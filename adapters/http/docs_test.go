package http_test

import (
	"html"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

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
