-- Accounts, sign-in sessions, API keys and the append-only credit ledger.
-- Instants are microseconds since the Unix epoch (INTEGER), the precision
-- the PostgreSQL adapter keeps; tables are STRICT, so a value of the wrong
-- type is refused instead of stored.

CREATE TABLE accounts (
    id            TEXT PRIMARY KEY,
    email         TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    -- The cached sum of the account's ledger entries; the CHECK is the last
    -- line of defence against an overdraft the debit failed to stop.
    balance       INTEGER NOT NULL CHECK (balance >= 0),
    created_at    INTEGER NOT NULL
) STRICT;

CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
) STRICT;

-- Expired sessions are swept by expiry.
CREATE INDEX sessions_expires_at_idx ON sessions (expires_at);

-- A standing key has no expiry; a browser credential has one.
CREATE TABLE api_keys (
    id           TEXT PRIMARY KEY,
    account_id   TEXT NOT NULL REFERENCES accounts (id),
    name         TEXT NOT NULL,
    prefix       TEXT NOT NULL,
    hash         TEXT NOT NULL UNIQUE,
    -- A JSON array of permission names, in the order they were granted.
    scopes       TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(scopes)),
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER,
    revoked_at   INTEGER,
    expires_at   INTEGER
) STRICT;

-- Serves an account's keys, the count under the per-account limit and the
-- listing of live browser credentials.
CREATE INDEX api_keys_account_idx ON api_keys (account_id, expires_at);

CREATE TABLE ledger_entries (
    id         TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    kind       TEXT NOT NULL CHECK (kind IN ('grant', 'debit', 'refund')),
    amount     INTEGER NOT NULL,
    route      TEXT NOT NULL DEFAULT '',
    -- Not a foreign key: the ledger outlives the keys it names.
    key_id     TEXT NOT NULL DEFAULT '',
    request_id TEXT NOT NULL DEFAULT '',
    -- UNIQUE makes a second refund of one debit a unique violation.
    refund_of  TEXT UNIQUE REFERENCES ledger_entries (id),
    reason     TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    CHECK (
        (kind = 'grant'  AND amount > 0 AND refund_of IS NULL) OR
        (kind = 'debit'  AND amount < 0 AND refund_of IS NULL) OR
        (kind = 'refund' AND amount > 0 AND refund_of IS NOT NULL)
    )
) STRICT;

-- Serves the newest-first history page of one account and its usage.
CREATE INDEX ledger_entries_account_history_idx
    ON ledger_entries (account_id, created_at DESC, id DESC);

-- History is never rewritten: whoever opens the file, the store or a shell,
-- an UPDATE or DELETE of an entry aborts with SQLITE_CONSTRAINT_TRIGGER.
CREATE TRIGGER ledger_entries_no_update
    BEFORE UPDATE ON ledger_entries
BEGIN
    SELECT RAISE(ABORT, 'ledger_entries is append-only: UPDATE refused');
END;

CREATE TRIGGER ledger_entries_no_delete
    BEFORE DELETE ON ledger_entries
BEGIN
    SELECT RAISE(ABORT, 'ledger_entries is append-only: DELETE refused');
END;
