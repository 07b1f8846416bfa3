-- The two roles of a Quarry database with a PII vault, and the vault's
-- schema. Run once as a superuser (or the database owner with CREATEROLE),
-- connected to Quarry's database, for example:
--
--   psql "$ADMIN_URL" -v ON_ERROR_STOP=1 -f scripts/vault-roles.sql
--
-- then give each role a password (ALTER ROLE quarry_app PASSWORD '…';
-- ALTER ROLE quarry_vault PASSWORD '…') and configure:
--
--   QUARRY_POSTGRES_URL        as quarry_app:   quarry migrate, quarry serve, operator commands
--   QUARRY_VAULT_POSTGRES_URL  as quarry_vault: quarry vault migrate, quarry vault reveal, quarry ingest
--
-- quarry_app owns nothing in the schema vault and is granted nothing on it,
-- so any statement of it that touches the vault fails with SQLSTATE 42501
-- (permission denied for schema vault). The e2e suite runs this very file
-- (e2e/vault_test.go). It can be run again: it creates only what is missing.

DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'quarry_app') THEN
        CREATE ROLE quarry_app LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'quarry_vault') THEN
        CREATE ROLE quarry_vault LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT;
    END IF;
    EXECUTE format('GRANT CONNECT ON DATABASE %I TO quarry_app, quarry_vault', current_database());
END
$$;

-- The application's tables live in the schema public (quarry migrate).
GRANT USAGE, CREATE ON SCHEMA public TO quarry_app;

-- The vault's schema belongs to the vault role, which applies its
-- migrations (quarry vault migrate) and alone reads and writes it.
CREATE SCHEMA IF NOT EXISTS vault AUTHORIZATION quarry_vault;
REVOKE ALL ON SCHEMA vault FROM PUBLIC;
REVOKE ALL ON SCHEMA vault FROM quarry_app;
