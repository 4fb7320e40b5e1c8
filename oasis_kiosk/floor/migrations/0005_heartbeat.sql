-- A cabinet with nothing to send still tells the hub it is there: its link agent calls
-- hub.heartbeat() every few seconds while its outbox is empty, so that the dashboard's
-- "online" means the cabinet's link is up, not that it played lately. SECURITY DEFINER:
-- a cabinet may not update hub.cabinets, and this touches only its own row's last_seen.
CREATE FUNCTION hub.heartbeat() RETURNS void
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$ UPDATE hub.cabinets SET last_seen = now() WHERE id = hub.session_cabinet() $$;

REVOKE ALL ON FUNCTION hub.heartbeat() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION hub.heartbeat() TO {{cabinets}};
