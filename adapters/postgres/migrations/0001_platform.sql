-- Accounts, sign-in sessions, API keys and the append-only credit ledger.

CREATE TABLE accounts (
    id            text PRIMARY KEY,
    email         text NOT NULL UNIQUE,
    password_hash text NOT NULL,
    -- The cached sum of the account's ledger entries; the CHECK is the last
    -- line of defence against an overdraft the debit statement failed to stop.
    balance       bigint NOT NULL CHECK (balance >= 0),
    created_at    timestamptz NOT NULL
);

CREATE TABLE sessions (
    token_hash text PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts (id),
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
);

-- Expired sessions are swept by expiry.
CREATE INDEX sessions_expires_at_idx ON sessions (expires_at);

CREATE TABLE api_keys (
    id           text PRIMARY KEY,
    account_id   text NOT NULL REFERENCES accounts (id),
    name         text NOT NULL,
    prefix       text NOT NULL,
    hash         text NOT NULL UNIQUE,
    scopes       text[] NOT NULL DEFAULT '{}',
    created_at   timestamptz NOT NULL,
    last_used_at timestamptz,
    revoked_at   timestamptz
);

CREATE INDEX api_keys_account_id_idx ON api_keys (account_id);

CREATE TABLE ledger_entries (
    id         text PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts (id),
    kind       text NOT NULL CHECK (kind IN ('grant', 'debit', 'refund')),
    amount     bigint NOT NULL,
    route      text NOT NULL DEFAULT '',
    -- Not a foreign key: the ledger outlives the keys it names.
    key_id     text NOT NULL DEFAULT '',
    request_id text NOT NULL DEFAULT '',
    -- UNIQUE makes a second refund of one debit a unique violation, even
    -- when two refunds race.
    refund_of  text UNIQUE REFERENCES ledger_entries (id),
    created_at timestamptz NOT NULL,
    CONSTRAINT ledger_entries_sign_per_kind CHECK (
        (kind = 'grant'  AND amount > 0 AND refund_of IS NULL) OR
        (kind = 'debit'  AND amount < 0 AND refund_of IS NULL) OR
        (kind = 'refund' AND amount > 0 AND refund_of IS NOT NULL)
    )
);

-- Serves the newest-first history page of one account.
CREATE INDEX ledger_entries_account_history_idx
    ON ledger_entries (account_id, created_at DESC, id DESC);

-- The application connects as the table owner, so REVOKE cannot stop it from
-- rewriting history; a trigger does, short of someone deliberately disabling
-- it.
CREATE FUNCTION ledger_entries_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'ledger_entries is append-only: % refused', TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$;

CREATE TRIGGER ledger_entries_no_update_or_delete
    BEFORE UPDATE OR DELETE ON ledger_entries
    FOR EACH ROW EXECUTE FUNCTION ledger_entries_append_only();

CREATE TRIGGER ledger_entries_no_truncate
    BEFORE TRUNCATE ON ledger_entries
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_append_only();
