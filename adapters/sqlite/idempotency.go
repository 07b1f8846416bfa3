package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/quarrydata/quarry/domain/idempotency"
	"github.com/quarrydata/quarry/domain/ledger"
	"github.com/quarrydata/quarry/ports"
)

// bodyChunk is the size of a kept body's rows: a body of 256 MiB is 256
// rows, each far below SQLite's limit on a BLOB.
const bodyChunk = 1 << 20

const claimColumns = `account_id, key, request_digest, debit_id, state, created_at, expires_at,
	status, media_type, header, size, digest, stored`

var _ ports.IdempotencyStore = (*Store)(nil)

// Begin claims the key and applies the debit in one write transaction (see
// claimTry). A claim whose COMMIT failed is settled like any ledger write:
// sent again, it finds its own record and answers started.
func (s *Store) Begin(ctx context.Context, c idempotency.Claim, debit ledger.Entry) (ports.Begun, error) {
	if err := checkEntry(debit, ledger.Debit); err != nil {
		return ports.Begun{}, err
	}
	if debit.ID != c.DebitID || debit.AccountID != c.AccountID {
		return ports.Begun{}, fmt.Errorf("sqlite: claim of %s names debit %s, not %s: %w", c.AccountID, c.DebitID, debit.ID, ledger.ErrInvalidEntry)
	}
	var begun ports.Begun
	bal, err := s.writeLedger(ctx, "idempotent debit "+debit.ID, s.claimTry(c, debit, &begun))
	if err != nil {
		return ports.Begun{}, err
	}
	begun.Balance = bal
	return begun, nil
}

// claimTry is one attempt: drop the key's expired record, and when no live
// record holds the key, apply the debit as Debit does and insert the claim.
// A key held by a live record writes nothing and is answered as
// idempotency.Decide says; a refused debit claims nothing.
func (s *Store) claimTry(c idempotency.Claim, debit ledger.Entry, begun *ports.Begun) attempt {
	return func(ctx context.Context, tx *sql.Tx) (int64, error) {
		*begun = ports.Begun{}
		_, err := tx.ExecContext(ctx, `DELETE FROM idempotency_keys WHERE account_id = ? AND key = ? AND expires_at <= ?`,
			c.AccountID, c.Key, micros(c.At))
		if err != nil {
			return 0, err
		}
		l := s.newLedgerTx(ctx, tx)
		held, err := readClaim(ctx, tx, c.AccountID, c.Key)
		switch {
		case err == nil:
			return answerHeld(ctx, l, held, c, begun)
		case !errors.Is(err, sql.ErrNoRows):
			return 0, err
		}
		bal, err := l.debit(ctx, debit)
		if err != nil {
			return 0, err
		}
		r := idempotency.NewRecord(c)
		_, err = tx.ExecContext(ctx, `INSERT INTO idempotency_keys (account_id, key, request_digest, debit_id, state, created_at, expires_at)
			VALUES (?, ?, ?, ?, 'in_progress', ?, ?)`, c.AccountID, c.Key, c.RequestDigest, c.DebitID, micros(c.At), micros(r.ExpiresAt))
		if err != nil {
			return 0, err
		}
		begun.Started = true
		return bal, l.flush(ctx)
	}
}

// answerHeld answers a claim that found its key held by a live record.
func answerHeld(ctx context.Context, l *ledgerTx, held idempotency.Record, c idempotency.Claim, begun *ports.Begun) (int64, error) {
	if err := idempotency.Decide(held, c); err != nil {
		return 0, fmt.Errorf("sqlite: key %q: %w", c.Key, err)
	}
	if held.DebitID != c.DebitID {
		begun.Replay = held
		return 0, nil
	}
	begun.Started = true // its own claim, committed by an attempt whose answer was lost
	return l.balance(ctx, c.AccountID)
}

// readClaim reads the record holding a key.
func readClaim(ctx context.Context, tx *sql.Tx, accountID, key string) (idempotency.Record, error) {
	var r idempotency.Record
	var state, header string
	var at, expires int64
	err := tx.QueryRowContext(ctx, `SELECT `+claimColumns+` FROM idempotency_keys WHERE account_id = ? AND key = ?`, accountID, key).
		Scan(&r.AccountID, &r.Key, &r.RequestDigest, &r.DebitID, &state, &at, &expires,
			&r.Response.Status, &r.Response.MediaType, &header, &r.Response.Size, &r.Response.Digest, &r.Response.Stored)
	if err != nil {
		return idempotency.Record{}, err
	}
	r.State, r.At, r.ExpiresAt = idempotency.State(state), instant(at), instant(expires)
	return r, json.Unmarshal([]byte(header), &r.Response.Header)
}

// Complete keeps the response and its body in one write transaction, so a
// replay sees all of it or none. The body is read inside it, in chunks:
// other writes wait while it is stored.
func (s *Store) Complete(ctx context.Context, c idempotency.Claim, resp idempotency.Response, body io.Reader) error {
	header, err := json.Marshal(resp.Header)
	if err != nil {
		return fmt.Errorf("sqlite: complete %q: %w", c.Key, err)
	}
	done := idempotency.NewRecord(c).Completed(resp)
	return s.write(ctx, "complete key "+c.Key, func(tx *sql.Tx) error {
		var state string
		err := tx.QueryRowContext(ctx, `SELECT state FROM idempotency_keys WHERE account_id = ? AND key = ? AND debit_id = ?`,
			c.AccountID, c.Key, c.DebitID).Scan(&state)
		if err != nil {
			return err
		}
		if idempotency.State(state) != idempotency.InProgress {
			return fmt.Errorf("sqlite: key %q is complete already: %w", c.Key, ports.ErrNotFound)
		}
		if resp.Stored {
			if err := insertBody(ctx, tx, c, body); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE idempotency_keys SET state = 'complete', expires_at = ?, status = ?, media_type = ?,
			header = ?, size = ?, digest = ?, stored = ? WHERE account_id = ? AND key = ?`,
			micros(done.ExpiresAt), resp.Status, resp.MediaType, string(header), resp.Size, resp.Digest, resp.Stored, c.AccountID, c.Key)
		return err
	})
}

// insertBody writes the body in chunks of bodyChunk bytes.
func insertBody(ctx context.Context, tx *sql.Tx, c idempotency.Claim, body io.Reader) error {
	buf := make([]byte, bodyChunk)
	for seq := 0; ; seq++ {
		n, err := io.ReadFull(body, buf)
		if n > 0 {
			if _, err := tx.ExecContext(ctx, `INSERT INTO idempotency_bodies (account_id, key, seq, data) VALUES (?, ?, ?, ?)`,
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
	_, err := s.exec(ctx, "release key "+c.Key, `DELETE FROM idempotency_keys WHERE account_id = ? AND key = ? AND debit_id = ?`,
		c.AccountID, c.Key, c.DebitID)
	return err
}

// WriteBody streams the kept chunks in order, one row at a time, from one
// read transaction.
func (s *Store) WriteBody(ctx context.Context, r idempotency.Record, w io.Writer) error {
	err := readTx(ctx, s.reader, func(tx *sql.Tx) error {
		var stored bool
		err := tx.QueryRowContext(ctx, `SELECT stored FROM idempotency_keys WHERE account_id = ? AND key = ? AND debit_id = ? AND state = 'complete'`,
			r.AccountID, r.Key, r.DebitID).Scan(&stored)
		if err != nil {
			return err
		}
		if !stored {
			return fmt.Errorf("sqlite: body of key %q is not kept: %w", r.Key, ports.ErrNotFound)
		}
		rows, err := tx.QueryContext(ctx, `SELECT data FROM idempotency_bodies WHERE account_id = ? AND key = ? ORDER BY seq`, r.AccountID, r.Key)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var chunk sql.RawBytes // the row's bytes, valid until Next: no copy
			if err := rows.Scan(&chunk); err != nil {
				return err
			}
			if _, err := w.Write(chunk); err != nil {
				return &writeError{err}
			}
		}
		return rows.Err()
	})
	var we *writeError
	if errors.As(err, &we) {
		return we.err // the caller's writer failed, not the store
	}
	return translate("body of key "+r.Key, err)
}

// writeError is a failure of the caller's writer.
type writeError struct{ err error }

func (e *writeError) Error() string { return e.err.Error() }

// Sweep deletes the expired records; their bodies go with them.
func (s *Store) Sweep(ctx context.Context, now time.Time) (int, error) {
	n, err := s.exec(ctx, "sweep idempotency keys", `DELETE FROM idempotency_keys WHERE expires_at <= ?`, micros(now))
	return int(n), err
}
