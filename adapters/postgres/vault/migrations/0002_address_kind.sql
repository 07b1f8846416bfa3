-- Addresses a judgment gives are tokenized too (ADR_ tokens, issue 35).
ALTER TABLE vault.entries DROP CONSTRAINT entries_kind_check;
ALTER TABLE vault.entries ADD CONSTRAINT entries_kind_check CHECK (kind IN ('party', 'pan', 'address'));
