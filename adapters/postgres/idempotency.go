package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/quarrydata/quarry/domain/idempotency"
	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

// bodyChunk is the size of a kept body's rows: large enough that a body
// of 256 MiB is 256 rows, small enough to stay far from bytea's limits.
const bodyChunk = 1 << 20

const claimColumns = `account_id, key, request_digest, debit_id, state, created_at, expires_at,
	status, media_type, header, size, digest, stored`

// dropExpiredSQL frees a key whose record has expired, so the claim after it
// can take the key.
const dropExpiredSQL = `DELETE FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND expires_at <= $3`

// claimSQL takes the key unless a record holds it. A concurrent claim of the
// same key waits on the primary key until this transaction ends, then finds
// the key taken (or free, if this one rolled back).
const claimSQL = `
INSERT INTO idempotency_keys (account_id, key, request_digest, debit_id, state, created_at, expires_at)
VALUES ($1, $2, $3, $4, 'in_progress', $5, $6)
ON CONFLICT (account_id, key) DO NOTHING`

var _ ports.IdempotencyStore = (*Store)(nil)

// Begin claims the key and applies the debit in one transaction (see
// claimTry). A claim whose answer was lost is settled like any ledger
// write: sent again, it finds its own record and answers started.
func (s *Store) Begin(ctx context.Context, c idempotency.Claim, debit ledger.Entry) (ports.Begun, error) {
	if err := checkEntry(debit, ledger.Debit); err != nil {
		return ports.Begun{}, err
	}
	if debit.ID != c.DebitID || debit.AccountID != c.AccountID {
		return ports.Begun{}, fmt.Errorf("postgres: claim of %s names debit %s, not %s: %w", c.AccountID, c.DebitID, debit.ID, ledger.ErrInvalidEntry)
	}
	var begun ports.Begun
	bal, err := s.write(ctx, "idempotent debit "+debit.ID, s.claimTry(c, debit, &begun))
	if err != nil {
		return ports.Begun{}, err
	}
	begun.Balance = bal
	return begun, nil
}

// claimTry is one attempt: drop the key's expired record, insert the claim,
// and apply the debit with the debit statement itself (debitSQL), all in
// one transaction. A key held by a live record writes nothing and answers
// as idempotency.Decide says; a debit the statement refuses rolls the claim
// back and is explained as Debit explains it.
func (s *Store) claimTry(c idempotency.Claim, debit ledger.Entry, begun *ports.Begun) attempt {
	return func(ctx context.Context) (int64, error) {
		*begun = ports.Begun{}
		var balance int64
		var held *idempotency.Record
		refused := false
		err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, dropExpiredSQL, c.AccountID, c.Key, c.At); err != nil {
				return err
			}
			r := idempotency.NewRecord(c)
			tag, err := tx.Exec(ctx, claimSQL, c.AccountID, c.Key, c.RequestDigest, c.DebitID, c.At, r.ExpiresAt)
			if err != nil {
				return err
			}
			if tag.RowsAffected() == 0 {
				rec, err := readClaim(ctx, tx, c.AccountID, c.Key)
				held = &rec
				return err
			}
			err = tx.QueryRow(ctx, debitSQL, debit.AccountID, debit.Amount, debit.ID, debit.Route, debit.KeyID,
				debit.RequestID, debit.CreatedAt).Scan(&balance)
			if errors.Is(err, pgx.ErrNoRows) {
				refused = true
				return errRollback
			}
			return err
		})
		switch {
		case refused:
			return s.refusedDebit(ctx, debit)
		case err != nil:
			return 0, err
		case held == nil:
			begun.Started = true
			return balance, nil
		}
		return s.answerHeld(ctx, *held, c, begun)
	}
}

// errRollback ends a transaction that must write nothing.
var errRollback = errors.New("rollback")

// answerHeld answers a claim that found its key held.
func (s *Store) answerHeld(ctx context.Context, held idempotency.Record, c idempotency.Claim, begun *ports.Begun) (int64, error) {
	if err := idempotency.Decide(held, c); err != nil {
		return 0, fmt.Errorf("postgres: key %q: %w", c.Key, err)
	}
	if held.DebitID != c.DebitID {
		begun.Replay = held
		return 0, nil
	}
	begun.Started = true // its own claim, committed by an attempt whose answer was lost
	var balance int64
	err := s.pool.QueryRow(ctx, `SELECT balance FROM accounts WHERE id = $1`, c.AccountID).Scan(&balance)
	return balance, err
}

// readClaim reads the record holding a key.
func readClaim(ctx context.Context, q interface {
	Query(context.Context, string, ...any) (pgx.Rows, error)
}, accountID, key string) (idempotency.Record, error) {
	rows, err := q.Query(ctx, `SELECT `+claimColumns+` FROM idempotency_keys WHERE account_id = $1 AND key = $2`, accountID, key)
	if err != nil {
		return idempotency.Record{}, err
	}
	return pgx.CollectExactlyOneRow(rows, func(row pgx.CollectableRow) (idempotency.Record, error) {
		var r idempotency.Record
		var header []byte
		err := row.Scan(&r.AccountID, &r.Key, &r.RequestDigest, &r.DebitID, &r.State, &r.At, &r.ExpiresAt,
			&r.Response.Status, &r.Response.MediaType, &header, &r.Response.Size, &r.Response.Digest, &r.Response.Stored)
		if err != nil {
			return r, err
		}
		r.At, r.ExpiresAt = r.At.UTC(), r.ExpiresAt.UTC()
		return r, json.Unmarshal(header, &r.Response.Header)
	})
}

// Complete keeps the response and its body in one transaction, under the
// claim's row lock, so a replay sees all of it or none.
func (s *Store) Complete(ctx context.Context, c idempotency.Claim, resp idempotency.Response, body io.Reader) error {
	header, err := json.Marshal(resp.Header)
	if err != nil {
		return fmt.Errorf("postgres: complete %q: %w", c.Key, err)
	}
	done := idempotency.NewRecord(c).Completed(resp)
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var state idempotency.State
		err := tx.QueryRow(ctx, `SELECT state FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND debit_id = $3 FOR UPDATE`,
			c.AccountID, c.Key, c.DebitID).Scan(&state)
		if err != nil {
			return err
		}
		if state != idempotency.InProgress {
			return fmt.Errorf("postgres: key %q is complete already: %w", c.Key, ports.ErrNotFound)
		}
		if resp.Stored {
			if err := insertBody(ctx, tx, c, body); err != nil {
				return err
			}
		}
		_, err = tx.Exec(ctx, `UPDATE idempotency_keys SET state = 'complete', expires_at = $4, status = $5, media_type = $6,
			header = $7, size = $8, digest = $9, stored = $10 WHERE account_id = $1 AND key = $2 AND debit_id = $3`,
			c.AccountID, c.Key, c.DebitID, done.ExpiresAt, resp.Status, resp.MediaType, header, resp.Size, resp.Digest, resp.Stored)
		return err
	})
	if err != nil && !isSentinel(err) {
		return translate("complete key "+c.Key, err)
	}
	return err
}

// insertBody writes the body in chunks of bodyChunk bytes.
func insertBody(ctx context.Context, tx pgx.Tx, c idempotency.Claim, body io.Reader) error {
	buf := make([]byte, bodyChunk)
	for seq := 0; ; seq++ {
		n, err := io.ReadFull(body, buf)
		if n > 0 {
			if _, err := tx.Exec(ctx, `INSERT INTO idempotency_bodies (account_id, key, seq, data) VALUES ($1, $2, $3, $4)`,
				c.AccountID, c.Key, seq, buf[:n]); err != nil {
				return err
			}
		}
		switch {
		case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
			return nil
		case err != nil:
			return err
		}
	}
}

// Release deletes the claim, its body with it, if it is still c's.
func (s *Store) Release(ctx context.Context, c idempotency.Claim) error {
	_, err := s.pool.Exec(ctx, `DELETE FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND debit_id = $3`,
		c.AccountID, c.Key, c.DebitID)
	if err != nil {
		return translate("release key "+c.Key, err)
	}
	return nil
}

// WriteBody streams the kept chunks in order, one row at a time.
func (s *Store) WriteBody(ctx context.Context, r idempotency.Record, w io.Writer) error {
	var stored bool
	err := s.pool.QueryRow(ctx, `SELECT stored FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND debit_id = $3 AND state = 'complete'`,
		r.AccountID, r.Key, r.DebitID).Scan(&stored)
	if err != nil {
		return translate("body of key "+r.Key, err)
	}
	if !stored {
		return fmt.Errorf("postgres: body of key %q is not kept: %w", r.Key, ports.ErrNotFound)
	}
	rows, err := s.pool.Query(ctx, `SELECT data FROM idempotency_bodies WHERE account_id = $1 AND key = $2 ORDER BY seq`, r.AccountID, r.Key)
	if err != nil {
		return translate("body of key "+r.Key, err)
	}
	defer rows.Close()
	for rows.Next() {
		// RawValues is the row's bytes as read, valid until Next: no copy.
		if _, err := w.Write(rows.RawValues()[0]); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return translate("body of key "+r.Key, err)
	}
	return nil
}

// Sweep deletes the expired records; their bodies go with them.
func (s *Store) Sweep(ctx context.Context, now time.Time) (int, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM idempotency_keys WHERE expires_at <= $1`, now)
	if err != nil {
		return 0, translate("sweep idempotency keys", err)
	}
	return int(tag.RowsAffected()), nil
}
