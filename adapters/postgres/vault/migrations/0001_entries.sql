-- The token mapping. Everything lives in the schema `vault`, which the
-- operator creates owned by the vault role (scripts/vault-roles.sql); the
-- application role has no privilege on it.
CREATE TABLE vault.entries (
    token      text PRIMARY KEY,
    kind       text NOT NULL CHECK (kind IN ('party', 'pan')),
    original   text NOT NULL CHECK (original <> ''),
    created_at timestamptz NOT NULL DEFAULT now()
);
