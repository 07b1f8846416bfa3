-- The ledger's indexes, sized for appends. An account's history index in
-- descending order put every new entry at the left edge of the account's
-- range, where a B-tree splits pages in half, so the index grew to about
-- 170 bytes an entry; in ascending order new entries go to the right edge,
-- whose pages fill up (about 100 bytes an entry), and the newest-first reads
-- scan it backwards. refund_of is unique among refunds only: a partial index
-- leaves the debits' and grants' NULLs out of it instead of indexing each.
-- An operator may build the new index beforehand with CREATE INDEX
-- CONCURRENTLY (docs/operations.md); it is then kept.
CREATE INDEX IF NOT EXISTS ledger_entries_account_time_idx ON ledger_entries (account_id, created_at, id);
DROP INDEX ledger_entries_account_history_idx;
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_refund_of_key;
CREATE UNIQUE INDEX ledger_entries_refund_of_key ON ledger_entries (refund_of) WHERE refund_of IS NOT NULL;
