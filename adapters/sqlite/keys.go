package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/quarrydata/quarry/domain/apikey"
	"github.com/quarrydata/quarry/ports"
)

const keyColumns = `id, account_id, name, prefix, hash, scopes, created_at, last_used_at, revoked_at, expires_at`

// kindSQL is true of the rows of the kind the parameter names ('key' or
// 'browser'): browser credentials are the keys that expire.
const kindSQL = `((expires_at IS NOT NULL) = (? = '` + string(apikey.Browser) + `'))`

// CreateKey stores the key within the account's limit of live keys of its
// kind: ports.ErrLimitReached past it, ports.ErrConflict if its id or
// digest exists, ports.ErrNotFound if the account does not. The count and
// the insert share one write transaction, and SQLite has one writer, so two
// mints cannot both take the last place.
func (s *Store) CreateKey(ctx context.Context, k apikey.Key, maxActive int) error {
	return s.write(ctx, "create key "+k.ID, func(tx *sql.Tx) error {
		var live int
		err := tx.QueryRowContext(ctx, `SELECT count(*) FROM api_keys WHERE account_id = ? AND `+kindSQL+`
			AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)`,
			k.AccountID, string(k.Kind()), micros(k.CreatedAt)).Scan(&live)
		if err != nil {
			return err
		}
		if live >= maxActive {
			return fmt.Errorf("sqlite: account %s holds %d live keys: %w", k.AccountID, maxActive, ports.ErrLimitReached)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO api_keys (`+keyColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			k.ID, k.AccountID, k.Name, k.Prefix, k.Hash, encodeScopes(k.Scopes), micros(k.CreatedAt),
			nullMicros(k.LastUsedAt), nullMicros(k.RevokedAt), nullMicros(k.ExpiresAt))
		return err
	})
}

// KeysByAccount lists the account's keys the filter selects, oldest first;
// an unknown account has none.
func (s *Store) KeysByAccount(ctx context.Context, accountID string, f ports.KeyFilter) ([]apikey.Key, error) {
	var liveAt sql.NullInt64
	if !f.LiveAt.IsZero() {
		liveAt = sql.NullInt64{Int64: micros(f.LiveAt), Valid: true}
	}
	rows, err := s.reader.QueryContext(ctx, `SELECT `+keyColumns+` FROM api_keys
		WHERE account_id = ? AND `+kindSQL+` AND (?3 IS NULL OR expires_at IS NULL OR expires_at > ?3)
		ORDER BY created_at, id`, accountID, string(f.Kind), liveAt)
	if err != nil {
		return nil, translate("keys of account "+accountID, err)
	}
	keys, err := collect(rows, scanKey)
	if err != nil {
		return nil, translate("keys of account "+accountID, err)
	}
	return keys, nil
}

// KeyByHash returns the key with that digest, revoked or not, or
// ports.ErrNotFound.
func (s *Store) KeyByHash(ctx context.Context, hash string) (apikey.Key, error) {
	k, err := scanKey(s.reader.QueryRowContext(ctx, `SELECT `+keyColumns+` FROM api_keys WHERE hash = ?`, hash))
	if err != nil {
		return apikey.Key{}, translate("key by hash", err)
	}
	return k, nil
}

// RevokeKey marks the account's key of that kind revoked at the given time,
// keeping the first revocation time if it already was, and returns it.
// Another account's key, one of the other kind, or an unknown id, is
// ports.ErrNotFound. The watchers are told before it returns; the write
// lock it takes orders it against every debit batch, so no debit checked
// after it can find the key live.
func (s *Store) RevokeKey(ctx context.Context, accountID, keyID string, kind apikey.Kind, at time.Time) (apikey.Key, error) {
	return s.changeKey(ctx, "revoke key "+keyID, keyID, func(k *apikey.Key) (bool, error) {
		if k.AccountID != accountID || k.Kind() != kind {
			return false, fmt.Errorf("sqlite: revoke key %s: not a %s of account %s: %w", keyID, kind, accountID, ports.ErrNotFound)
		}
		if k.RevokedAt != nil {
			return false, nil
		}
		k.RevokedAt = &at
		return true, nil
	})
}

// SetKeyScope adds the permission to the key's scopes or removes it, and
// returns the key; ports.ErrNotFound for an unknown key.
func (s *Store) SetKeyScope(ctx context.Context, keyID, permission string, held bool) (apikey.Key, error) {
	return s.changeKey(ctx, "set scope of key "+keyID, keyID, func(k *apikey.Key) (bool, error) {
		if slices.Contains(k.Scopes, permission) == held {
			return false, nil
		}
		if held {
			k.Scopes = append(k.Scopes, permission)
		} else {
			k.Scopes = slices.DeleteFunc(k.Scopes, func(p string) bool { return p == permission })
		}
		return true, nil
	})
}

// changeKey reads the key, lets change edit its revocation or scopes, and
// writes it back if change says it changed, in one write transaction; the
// watchers are told once it has committed.
func (s *Store) changeKey(ctx context.Context, op, keyID string, change func(k *apikey.Key) (bool, error)) (apikey.Key, error) {
	var k apikey.Key
	var changed bool
	err := s.write(ctx, op, func(tx *sql.Tx) error {
		var err error
		if k, err = scanKey(tx.QueryRowContext(ctx, `SELECT `+keyColumns+` FROM api_keys WHERE id = ?`, keyID)); err != nil {
			return err
		}
		if changed, err = change(&k); err != nil || !changed {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE api_keys SET revoked_at = ?, scopes = ? WHERE id = ?`,
			nullMicros(k.RevokedAt), encodeScopes(k.Scopes), keyID)
		return err
	})
	if err != nil {
		return apikey.Key{}, err
	}
	if changed {
		s.keyChanged(k.Hash)
	}
	return k, nil
}

// TouchKey records that the key was used at the given time, or returns
// ports.ErrNotFound for an unknown key.
func (s *Store) TouchKey(ctx context.Context, keyID string, at time.Time) error {
	n, err := s.exec(ctx, "touch key "+keyID, `UPDATE api_keys SET last_used_at = ? WHERE id = ?`, micros(at), keyID)
	if err == nil && n == 0 {
		return fmt.Errorf("sqlite: touch key %s: %w", keyID, ports.ErrNotFound)
	}
	return err
}

// scanKey reads a row of keyColumns.
func scanKey(row scanner) (apikey.Key, error) {
	var k apikey.Key
	var scopes string
	var created int64
	var lastUsed, revoked, expires sql.NullInt64
	if err := row.Scan(&k.ID, &k.AccountID, &k.Name, &k.Prefix, &k.Hash, &scopes, &created, &lastUsed, &revoked, &expires); err != nil {
		return apikey.Key{}, err
	}
	if err := json.Unmarshal([]byte(scopes), &k.Scopes); err != nil {
		return apikey.Key{}, fmt.Errorf("scopes of key %s: %w", k.ID, err)
	}
	k.CreatedAt, k.LastUsedAt, k.RevokedAt, k.ExpiresAt = instant(created), nullInstant(lastUsed), nullInstant(revoked), nullInstant(expires)
	return k, nil
}

// encodeScopes is the stored form of a key's scopes: a JSON array, never
// null.
func encodeScopes(scopes []string) string {
	if scopes == nil {
		scopes = []string{}
	}
	b, _ := json.Marshal(scopes) // a []string always encodes
	return string(b)
}
