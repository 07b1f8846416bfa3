package http

import (
	"strings"
	"testing"

	"go.uber.org/zap"
)

func TestHandlersOutsideTheCatalogFailStart(t *testing.T) {
	for _, tc := range []struct {
		name     string
		handlers []DataHandler
		says     string
	}{
		{"unlisted path", []DataHandler{{Method: "GET", Path: "/china/quotes", Prepare: notActivated}}, "GET /china/quotes, which the catalog does not list"},
		{"unlisted method", []DataHandler{{Method: "POST", Path: "/china/prices", Prepare: notActivated}}, "POST /china/prices"},
		{"twice", []DataHandler{{Method: "GET", Path: "/china/prices", Prepare: notActivated}, {Method: "GET", Path: "/china/prices", Prepare: notActivated}}, "two data handlers serve GET /china/prices"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewServer(Deps{Handlers: tc.handlers, Log: zap.NewNop()})
			if err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("NewServer = %v, want an error saying %q", err, tc.says)
			}
		})
	}
	if _, err := NewServer(Deps{Handlers: []DataHandler{{Method: "GET", Path: "/china/prices", Prepare: notActivated}}, Log: zap.NewNop()}); err != nil {
		t.Fatalf("a listed route was refused: %v", err)
	}
}
