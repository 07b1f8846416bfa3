package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/ports"
)

const keyColumns = `id, account_id, name, prefix, hash, scopes, created_at, last_used_at, revoked_at, expires_at`

// kindSQL is true of the rows of the kind $kind names ('key' or 'browser').
func kindSQL(param string) string {
	return `((expires_at IS NOT NULL) = (` + param + ` = '` + string(apikey.Browser) + `'))`
}

// liveSQL is true of a key live at the instant param names.
func liveSQL(param string) string {
	return `(revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ` + param + `))`
}

// insertKeySQL inserts the key while its account holds fewer than $12 keys
// of its kind ($11) that are live when it is created ($7).
var insertKeySQL = `INSERT INTO api_keys (` + keyColumns + `)
SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10
WHERE (SELECT count(*) FROM api_keys WHERE account_id = $2 AND ` + kindSQL("$11::text") + ` AND ` + liveSQL("$7") + `) < $12`

// CreateKey stores the key within the account's limit of live keys:
// ports.ErrLimitReached past it, ports.ErrConflict if its id or digest
// exists, ports.ErrNotFound if the account does not. The account's row lock
// serializes concurrent mints, and the count runs after it is taken, so two
// of them cannot both take the last place.
func (s *Store) CreateKey(ctx context.Context, k apikey.Key, maxActive int) error {
	scopes := k.Scopes
	if scopes == nil {
		scopes = []string{} // pgx writes a nil slice as NULL; the column wants an array
	}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var id string
		if err := tx.QueryRow(ctx, `SELECT id FROM accounts WHERE id = $1 FOR UPDATE`, k.AccountID).Scan(&id); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, insertKeySQL,
			k.ID, k.AccountID, k.Name, k.Prefix, k.Hash, scopes, k.CreatedAt, k.LastUsedAt, k.RevokedAt, k.ExpiresAt,
			string(k.Kind()), maxActive)
		if err == nil && tag.RowsAffected() == 0 {
			return fmt.Errorf("postgres: account %s holds %d live keys: %w", k.AccountID, maxActive, ports.ErrLimitReached)
		}
		return err
	})
	if err != nil && !errors.Is(err, ports.ErrLimitReached) {
		return translate("create key "+k.ID, err)
	}
	return err
}

// KeysByAccount lists the account's keys the filter selects, oldest first;
// an unknown account has none.
func (s *Store) KeysByAccount(ctx context.Context, accountID string, f ports.KeyFilter) ([]apikey.Key, error) {
	var liveAt *time.Time
	if !f.LiveAt.IsZero() {
		liveAt = &f.LiveAt
	}
	rows, err := s.pool.Query(ctx, `SELECT `+keyColumns+` FROM api_keys
		WHERE account_id = $1 AND `+kindSQL("$2::text")+` AND ($3::timestamptz IS NULL OR expires_at IS NULL OR expires_at > $3)
		ORDER BY created_at, id`, accountID, string(f.Kind), liveAt)
	if err != nil {
		return nil, translate("keys of account "+accountID, err)
	}
	keys, err := pgx.CollectRows(rows, scanKey)
	if err != nil {
		return nil, translate("keys of account "+accountID, err)
	}
	return keys, nil
}

// KeyByHash returns the key with that digest, revoked or not, or
// ports.ErrNotFound.
func (s *Store) KeyByHash(ctx context.Context, hash string) (apikey.Key, error) {
	return s.oneKey(ctx, "key by hash", `SELECT `+keyColumns+` FROM api_keys WHERE hash = $1`, hash)
}

// RevokeKey marks the account's key of that kind revoked at the given time,
// keeping the first revocation time if it already was, and returns it.
// Another account's key, one of the other kind, or an unknown id, is
// ports.ErrNotFound.
func (s *Store) RevokeKey(ctx context.Context, accountID, keyID string, kind apikey.Kind, at time.Time) (apikey.Key, error) {
	return s.oneKey(ctx, "revoke key "+keyID, `
		UPDATE api_keys SET revoked_at = coalesce(revoked_at, $3)
		WHERE id = $1 AND account_id = $2 AND `+kindSQL("$4::text")+`
		RETURNING `+keyColumns, keyID, accountID, at, string(kind))
}

// TouchKey records that the key was used at the given time, or returns
// ports.ErrNotFound for an unknown key.
func (s *Store) TouchKey(ctx context.Context, keyID string, at time.Time) error {
	tag, err := s.pool.Exec(ctx, `UPDATE api_keys SET last_used_at = $2 WHERE id = $1`, keyID, at)
	if err != nil {
		return translate("touch key "+keyID, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("postgres: touch key %s: %w", keyID, ports.ErrNotFound)
	}
	return nil
}

// SetKeyScope adds the permission to the key's scopes or removes it, and
// returns the key; ports.ErrNotFound for an unknown key.
func (s *Store) SetKeyScope(ctx context.Context, keyID, permission string, held bool) (apikey.Key, error) {
	return s.oneKey(ctx, "set scope of key "+keyID, `
		UPDATE api_keys SET scopes = CASE
			WHEN NOT $3 THEN array_remove(scopes, $2)
			WHEN $2 = ANY (scopes) THEN scopes
			ELSE array_append(scopes, $2) END
		WHERE id = $1
		RETURNING `+keyColumns, keyID, permission, held)
}

// oneKey runs a statement returning at most one key row.
func (s *Store) oneKey(ctx context.Context, op, sql string, args ...any) (apikey.Key, error) {
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return apikey.Key{}, translate(op, err)
	}
	k, err := pgx.CollectExactlyOneRow(rows, scanKey)
	if err != nil {
		return apikey.Key{}, translate(op, err)
	}
	return k, nil
}

// scanKey reads a row of keyColumns, with every time in UTC.
func scanKey(row pgx.CollectableRow) (apikey.Key, error) {
	var k apikey.Key
	err := row.Scan(&k.ID, &k.AccountID, &k.Name, &k.Prefix, &k.Hash, &k.Scopes, &k.CreatedAt, &k.LastUsedAt, &k.RevokedAt, &k.ExpiresAt)
	k.CreatedAt, k.LastUsedAt, k.RevokedAt, k.ExpiresAt = k.CreatedAt.UTC(), utc(k.LastUsedAt), utc(k.RevokedAt), utc(k.ExpiresAt)
	return k, err
}

// utc returns a nullable timestamp in UTC; pgx reads timestamptz in the
// process's local zone, and the ports deal in UTC.
func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}
