package ports

import (
	"context"

	"github.com/quarrydata/quarry/domain/pii"
)

// Vault keeps what each token replaced. Only `quarry ingest` writes it and
// only `quarry vault reveal` reads it: the serving process is never wired
// with one (bootstrap's fx-graph test proves it), and on PostgreSQL the
// application role has no privilege on the vault's schema.
type Vault interface {
	// Put records the entries in one transaction, all or none. An entry
	// already held with the same kind and original is already applied and
	// changes nothing; one whose token is held for another kind or
	// original is ErrConflict, and nothing is written.
	Put(ctx context.Context, entries []pii.Entry) error
	// Reveal returns the entry of token, or ErrNotFound.
	Reveal(ctx context.Context, token string) (pii.Entry, error)
}
