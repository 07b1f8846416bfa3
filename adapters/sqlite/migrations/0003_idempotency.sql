-- Idempotency-Key claims (domain/idempotency). A claim is inserted in the
-- same transaction as the debit it is charged with, and names it: the
-- deferred foreign key makes the database itself refuse a claim whose debit
-- did not commit with it. Keys are the account's own, hence the primary key.
CREATE TABLE idempotency_keys (
    account_id     TEXT NOT NULL REFERENCES accounts (id),
    key            TEXT NOT NULL,
    request_digest TEXT NOT NULL,
    debit_id       TEXT NOT NULL REFERENCES ledger_entries (id) DEFERRABLE INITIALLY DEFERRED,
    state          TEXT NOT NULL CHECK (state IN ('in_progress', 'complete')),
    created_at     INTEGER NOT NULL,
    -- The lease's end while in progress, the end of retention once complete.
    expires_at     INTEGER NOT NULL,
    -- The response, once complete.
    status         INTEGER NOT NULL DEFAULT 0,
    media_type     TEXT NOT NULL DEFAULT '',
    header         TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(header)),
    size           INTEGER NOT NULL DEFAULT 0,
    digest         TEXT NOT NULL DEFAULT '',
    stored         INTEGER NOT NULL DEFAULT 0 CHECK (stored IN (0, 1)),
    PRIMARY KEY (account_id, key)
) STRICT;

-- Serves the sweep of expired claims.
CREATE INDEX idempotency_keys_expires_at_idx ON idempotency_keys (expires_at);

-- A complete response's body, in chunks of at most 1 MiB, in order.
CREATE TABLE idempotency_bodies (
    account_id TEXT NOT NULL,
    key        TEXT NOT NULL,
    seq        INTEGER NOT NULL,
    data       BLOB NOT NULL,
    PRIMARY KEY (account_id, key, seq),
    FOREIGN KEY (account_id, key) REFERENCES idempotency_keys (account_id, key) ON DELETE CASCADE
) STRICT;
