package ferretdb

import (
	"context"
	"log/slog"
	"slices"
)

// lazyAttrs holds the attributes a logger is given until a record is
// handled. FerretDB's SQLite backend gives its logger every statement's
// arguments, the whole documents of a write, and then logs at debug, which
// a server seldom enables; a handler such as zap's encodes attributes as
// they are given, so each write's documents were encoded once more for
// nothing (a fifth of what `quarry ingest india_prices` allocated).
type lazyAttrs struct {
	h     slog.Handler
	attrs []slog.Attr
}

// Enabled is the handler's.
func (l lazyAttrs) Enabled(ctx context.Context, level slog.Level) bool {
	return l.h.Enabled(ctx, level)
}

// Handle adds the attributes held to the record.
func (l lazyAttrs) Handle(ctx context.Context, r slog.Record) error {
	if len(l.attrs) > 0 {
		r = r.Clone()
		r.AddAttrs(l.attrs...)
	}
	return l.h.Handle(ctx, r)
}

// WithAttrs holds attrs, unencoded.
func (l lazyAttrs) WithAttrs(attrs []slog.Attr) slog.Handler {
	return lazyAttrs{h: l.h, attrs: append(slices.Clip(l.attrs), attrs...)}
}

// WithGroup hands the attributes held to the handler first, so that they
// stay outside the group.
func (l lazyAttrs) WithGroup(name string) slog.Handler {
	h := l.h
	if len(l.attrs) > 0 {
		h = h.WithAttrs(l.attrs)
	}
	return lazyAttrs{h: h.WithGroup(name)}
}
