-- A hit received takes the pool's lock (shared) before its batch commits, as a contribution
-- takes it (exclusive). A parameter change holds the pool FOR UPDATE and then looks for hits
-- waiting for their award: with this, it either sees a hit or commits before the hit is
-- received. Without it a batch of a hit alone could commit between the change's look and
-- its commit, and the hit, made under the old parameters, be awarded under the new.
-- SECURITY DEFINER: a cabinet may not lock the pool itself.

CREATE FUNCTION hub.hit_waits_for_the_pool() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM 1 FROM hub.pool FOR SHARE;
    RETURN NULL;
END
$$;

CREATE TRIGGER hit_waits_for_the_pool AFTER INSERT ON hub.events
    FOR EACH ROW WHEN (NEW.kind = 'jackpot_hit') EXECUTE FUNCTION hub.hit_waits_for_the_pool();

REVOKE ALL ON FUNCTION hub.hit_waits_for_the_pool() FROM PUBLIC;
