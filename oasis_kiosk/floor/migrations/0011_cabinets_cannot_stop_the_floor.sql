-- What one cabinet's login could do to the whole floor, each closed here:
--
-- * A box written 1.0 passed hub.payload_box (a whole number in value) and then broke every
--   reading that casts the payload's text to integer (the pending hits, and with them every
--   change of the parameters). A box is now the digits of a whole number as written.
-- * A number no cabinet could mean (1e5000) was stored as it came, and the owner's pages
--   could not read it back (the dashboard and `hub reconcile` stopped). A number in any
--   payload beyond ±10^15 is refused as it arrives (the largest amount a cabinet takes is
--   10^12 minor units).
-- * A hit took the pool's lock shared and a contribution after it in the same batch took it
--   for update: two such batches deadlocked. A hit now takes it for update too; hits are
--   rare, and a batch takes the lock once.
-- * A cabinet's login had no limit of connections, and a transaction left open (an agent
--   frozen mid-batch, a link that drops packets) held the pool for as long as the server's
--   idea of a dead connection, two hours. hub.limit_cabinet_login gives a cabinet's login a
--   few connections, ends a transaction idle for 10 s, and has the server probe its
--   connection every 5 s after 10 s of silence; hub add-cabinet calls it for every new
--   cabinet. (A client that sets these off for its own session is a login used by
--   something other than the link agent: its credentials must be replaced.)

CREATE OR REPLACE FUNCTION hub.payload_box(event hub.events) RETURNS integer
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    item jsonb := event.payload -> 'box';
BEGIN
    IF item IS NOT NULL AND jsonb_typeof(item) = 'number' AND item::text ~ '^[0-9]{1,10}$'
            AND item::text::numeric <= 2147483647 THEN
        RETURN item::text::integer;
    END IF;
    RAISE EXCEPTION 'cabinet %, event % (%): "box" must be a whole number from 0, not %',
        (SELECT name FROM hub.cabinets WHERE id = event.cabinet_id), event.seq, event.kind,
        coalesce(item::text, 'missing')
        USING ERRCODE = 'OA003';
END
$$;

-- Named to run after hub.receive_event (triggers of one kind run by name): a row sent again
-- is skipped before it is looked at.
CREATE FUNCTION hub.numbers_in_range() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF jsonb_path_exists(NEW.payload, '$.** ? (@.type() == "number" && (@ > 1e15 || @ < -1e15))') THEN
        RAISE EXCEPTION 'cabinet %, event % (%): a number beyond ±10^15 in %',
            (SELECT name FROM hub.cabinets WHERE id = NEW.cabinet_id), NEW.seq, NEW.kind,
            left(NEW.payload::text, 200)
            USING ERRCODE = 'OA003';
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER sane_numbers BEFORE INSERT ON hub.events FOR EACH ROW EXECUTE FUNCTION hub.numbers_in_range();
REVOKE ALL ON FUNCTION hub.numbers_in_range() FROM PUBLIC;

CREATE OR REPLACE FUNCTION hub.hit_waits_for_the_pool() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF NEW.kind = 'jackpot_hit' THEN
        SELECT won INTO NEW.pool_won_before FROM hub.pool FOR UPDATE;
    ELSE
        NEW.pool_won_before := NULL;
    END IF;
    RETURN NEW;
END
$$;

-- Run by the owner (who made the cabinets' logins), as each cabinet is added.
CREATE FUNCTION hub.limit_cabinet_login(login text) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    EXECUTE format('ALTER ROLE %I CONNECTION LIMIT 3', login);
    EXECUTE format('ALTER ROLE %I SET idle_in_transaction_session_timeout = %L', login, '10s');
    EXECUTE format('ALTER ROLE %I SET tcp_keepalives_idle = 10', login);
    EXECUTE format('ALTER ROLE %I SET tcp_keepalives_interval = 5', login);
    EXECUTE format('ALTER ROLE %I SET tcp_keepalives_count = 3', login);
END
$$;
REVOKE ALL ON FUNCTION hub.limit_cabinet_login(text) FROM PUBLIC;

SELECT hub.limit_cabinet_login(role_name) FROM hub.cabinets
 WHERE EXISTS (SELECT 1 FROM pg_roles WHERE rolname = role_name);
