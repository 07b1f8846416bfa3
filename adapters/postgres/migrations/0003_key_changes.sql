-- Nodes cache API keys in memory and drop a key when told it changed. The
-- trigger tells them, on channel quarry_keys with the key's digest, whatever
-- made the change: the service, the operator's commands, or SQL typed by
-- hand. A notification is delivered when its transaction commits, never
-- before, and never if it rolls back.
CREATE FUNCTION api_keys_notify_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.hash IS DISTINCT FROM NEW.hash THEN
        PERFORM pg_notify('quarry_keys', OLD.hash);
    END IF;
    PERFORM pg_notify('quarry_keys', coalesce(NEW.hash, OLD.hash));
    RETURN NULL;
END;
$$;

CREATE TRIGGER api_keys_notify_revoke_or_scope
    AFTER UPDATE ON api_keys
    FOR EACH ROW
    WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at
       OR OLD.scopes IS DISTINCT FROM NEW.scopes
       OR OLD.hash IS DISTINCT FROM NEW.hash
       OR OLD.account_id IS DISTINCT FROM NEW.account_id)
    EXECUTE FUNCTION api_keys_notify_change();

CREATE TRIGGER api_keys_notify_delete
    AFTER DELETE ON api_keys
    FOR EACH ROW EXECUTE FUNCTION api_keys_notify_change();
