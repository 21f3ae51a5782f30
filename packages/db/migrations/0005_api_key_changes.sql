-- API processes keep key lookups in memory; any change to a key (`folio keys deactivate`, or by hand) is announced
-- with the key's id, so every process forgets the key before its next request (apps/api/src/plugins/key-cache.ts).
CREATE FUNCTION "folio_api_key_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('folio_api_key', OLD.id::text);
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "api_keys_changed" AFTER UPDATE OR DELETE ON "api_keys" FOR EACH ROW EXECUTE FUNCTION "folio_api_key_changed"();
