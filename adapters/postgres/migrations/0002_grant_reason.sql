-- Operators top accounts up with grants that say why. A constant default
-- makes this a catalog-only change: no row is rewritten, so the append-only
-- trigger is not involved.
ALTER TABLE ledger_entries ADD COLUMN reason text NOT NULL DEFAULT '';
