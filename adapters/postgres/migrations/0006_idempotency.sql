-- Idempotency-Key claims (domain/idempotency). A claim is inserted in the
-- same transaction as the debit it is charged with, and names it: the
-- deferred foreign key makes the database itself refuse a claim whose debit
-- did not commit with it. Keys are the account's own, hence the primary key.
CREATE TABLE idempotency_keys (
    account_id     text NOT NULL REFERENCES accounts (id),
    key            text NOT NULL,
    request_digest text NOT NULL,
    debit_id       text NOT NULL REFERENCES ledger_entries (id) DEFERRABLE INITIALLY DEFERRED,
    state          text NOT NULL CHECK (state IN ('in_progress', 'complete')),
    created_at     timestamptz NOT NULL,
    -- The lease's end while in progress, the end of retention once complete.
    expires_at     timestamptz NOT NULL,
    -- The response, once complete.
    status         integer NOT NULL DEFAULT 0,
    media_type     text NOT NULL DEFAULT '',
    header         jsonb NOT NULL DEFAULT '{}',
    size           bigint NOT NULL DEFAULT 0,
    digest         text NOT NULL DEFAULT '',
    stored         boolean NOT NULL DEFAULT false,
    PRIMARY KEY (account_id, key)
);

-- Serves the sweep of expired claims.
CREATE INDEX idempotency_keys_expires_at_idx ON idempotency_keys (expires_at);

-- A complete response's body, in chunks of at most 1 MiB, in order.
CREATE TABLE idempotency_bodies (
    account_id text NOT NULL,
    key        text NOT NULL,
    seq        integer NOT NULL,
    data       bytea NOT NULL,
    PRIMARY KEY (account_id, key, seq),
    FOREIGN KEY (account_id, key) REFERENCES idempotency_keys (account_id, key) ON DELETE CASCADE
);
