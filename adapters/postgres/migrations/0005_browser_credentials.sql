-- Browser credentials (spec §5.8) are API keys that expire: they live in
-- api_keys, so the key cache, the quarry_keys notifications and the debit's
-- refusal of a key that is not live cover them as they cover keys. A
-- standing key has no expiry.
ALTER TABLE api_keys ADD COLUMN expires_at timestamptz;

-- Serves the listing of an account's live browser credentials and the count
-- under the per-account limit.
CREATE INDEX api_keys_account_expiry_idx ON api_keys (account_id, expires_at)
    WHERE expires_at IS NOT NULL;
