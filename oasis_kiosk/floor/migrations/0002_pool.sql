-- How events arrive and what they do to the pool, and the jackpot's claim. The functions
-- run as the hub's owner (SECURITY DEFINER, with a fixed search_path): a cabinet sends
-- rows and claims, and these alone touch the pool. Errors of their own carry SQLSTATEs of
-- class OA, which oasis_kiosk/floor/hub.py turns into its exceptions:
--   OA001 a gap in a cabinet's sequence      OA002 the role is not a cabinet of this hub
--   OA003 an event or claim that is malformed OA005 an event sent again with other contents

-- Before each row: the sender must be the cabinet the row names; a row the hub holds is
-- skipped (a batch sent twice changes nothing), but only if it is the same row; a new row
-- must be the next in the cabinet's sequence.
CREATE FUNCTION hub.receive_event() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    cabinet hub.cabinets;
    held hub.events;
BEGIN
    -- NO KEY UPDATE: serialises one cabinet's batches without blocking the key-share lock
    -- an award's foreign key takes (a claim running beside an ingest of the same cabinet).
    SELECT * INTO cabinet FROM hub.cabinets WHERE role_name = session_user::text FOR NO KEY UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'role % is not a cabinet of this hub', session_user USING ERRCODE = 'OA002';
    END IF;
    IF NEW.cabinet_id IS DISTINCT FROM cabinet.id THEN
        RAISE EXCEPTION 'cabinet % may send only its own events, not cabinet %''s', cabinet.name, NEW.cabinet_id
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    UPDATE hub.cabinets SET last_seen = now() WHERE id = cabinet.id;
    IF NEW.seq <= cabinet.last_seq THEN
        SELECT * INTO held FROM hub.events WHERE cabinet_id = cabinet.id AND seq = NEW.seq;
        IF held.kind IS DISTINCT FROM NEW.kind OR held.payload IS DISTINCT FROM NEW.payload
                OR held.committed_at IS DISTINCT FROM NEW.committed_at THEN
            RAISE EXCEPTION 'cabinet %: event % was received before with other contents', cabinet.name, NEW.seq
                USING ERRCODE = 'OA005',
                      DETAIL = format('held: %s %s committed %s; sent: %s %s committed %s',
                                      held.kind, held.payload, held.committed_at,
                                      NEW.kind, NEW.payload, NEW.committed_at);
        END IF;
        RETURN NULL;
    END IF;
    IF NEW.seq <> cabinet.last_seq + 1 THEN
        RAISE EXCEPTION 'cabinet %: event % cannot follow event %: %', cabinet.name, NEW.seq, cabinet.last_seq,
            CASE WHEN NEW.seq = cabinet.last_seq + 2
                 THEN format('event %s is missing', cabinet.last_seq + 1)
                 ELSE format('events %s to %s are missing', cabinet.last_seq + 1, NEW.seq - 1) END
            USING ERRCODE = 'OA001';
    END IF;
    UPDATE hub.cabinets SET last_seq = NEW.seq WHERE id = cabinet.id;
    NEW.received_at := now();
    RETURN NEW;
END
$$;

-- A whole number of minor units from an event's payload, or OA003 naming the event.
CREATE FUNCTION hub.payload_amount(event hub.events, key text) RETURNS bigint
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    item jsonb := event.payload -> key;
    amount numeric;
BEGIN
    IF item IS NOT NULL AND jsonb_typeof(item) = 'number' THEN
        amount := item::text::numeric;
        IF amount = trunc(amount) AND amount >= 0 AND amount <= 9223372036854775807 THEN
            RETURN amount::bigint;
        END IF;
    END IF;
    RAISE EXCEPTION 'cabinet %, event % (%): "%" must be a whole number of minor units, not %',
        (SELECT name FROM hub.cabinets WHERE id = event.cabinet_id), event.seq, event.kind, key,
        coalesce(item::text, 'missing')
        USING ERRCODE = 'OA003';
END
$$;

-- A round's id from an event's payload, or OA003 naming the event.
CREATE FUNCTION hub.payload_round(event hub.events) RETURNS text
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    item jsonb := event.payload -> 'round_id';
BEGIN
    IF item IS NOT NULL AND jsonb_typeof(item) = 'string' AND length(item ->> 0) BETWEEN 1 AND 200 THEN
        RETURN item ->> 0;
    END IF;
    RAISE EXCEPTION 'cabinet %, event % (%): "round_id" must be a text of 1 to 200 characters, not %',
        (SELECT name FROM hub.cabinets WHERE id = event.cabinet_id), event.seq, event.kind,
        coalesce(item::text, 'missing')
        USING ERRCODE = 'OA003';
END
$$;

-- After each row received: a `jackpot_contribution` {"stake", "round_id"} feeds the pool
-- rate × stake and the reserve reserve_rate × stake, exactly (the parts of a minor unit are
-- carried); what the pool's share would put above its maximum goes to the reserve. A
-- `jackpot_hit` {"round_id"} must name its round. Other kinds are kept as they came.
CREATE FUNCTION hub.apply_event() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    p hub.pool;
    stake bigint;
    round_key text;
    exact numeric;
    whole bigint;
    to_pool bigint;
    reserve_exact numeric;
    reserve_whole bigint;
BEGIN
    IF NEW.kind = 'jackpot_contribution' THEN
        stake := hub.payload_amount(NEW, 'stake');
        round_key := hub.payload_round(NEW);
        SELECT * INTO p FROM hub.pool FOR UPDATE;
        exact := stake::numeric * p.rate_ppm + p.carry;
        whole := floor(exact / 1000000);
        to_pool := least(whole, greatest(p.maximum - p.value, 0));
        reserve_exact := stake::numeric * p.reserve_rate_ppm + p.reserve_carry;
        reserve_whole := floor(reserve_exact / 1000000);
        UPDATE hub.pool
           SET value = p.value + to_pool,
               carry = exact - whole * 1000000,
               reserve = p.reserve + (whole - to_pool) + reserve_whole,
               reserve_carry = reserve_exact - reserve_whole * 1000000,
               updated_at = now();
        INSERT INTO hub.contributions (cabinet_id, seq, round_id, stake, to_pool, overflow, to_reserve, pool_after)
        VALUES (NEW.cabinet_id, NEW.seq, round_key, stake, to_pool, whole - to_pool, reserve_whole, p.value + to_pool);
        PERFORM pg_notify('oasis_hub_pool', '');
    ELSIF NEW.kind = 'jackpot_hit' THEN
        PERFORM hub.payload_round(NEW);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER receive BEFORE INSERT ON hub.events FOR EACH ROW EXECUTE FUNCTION hub.receive_event();
CREATE TRIGGER apply AFTER INSERT ON hub.events FOR EACH ROW EXECUTE FUNCTION hub.apply_event();

-- A cabinet's claim of the jackpot for a round it hit. The pool is locked (FOR UPDATE), so
-- claims, contributions and parameter changes take their turns: the award is the pool's
-- value at that moment, and the pool starts again at its reset value plus what the
-- reserve holds, up to the maximum (the rest of the reserve waits for the next hit). A
-- claim for a round already awarded returns that award and changes nothing. Of two hits at
-- once, the claim committed first wins the pool; the second is awarded what the pool then
-- holds.
CREATE FUNCTION hub.claim(round_id text) RETURNS hub.awards
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    me integer := hub.session_cabinet();
    p hub.pool;
    award hub.awards;
    from_reserve bigint;
BEGIN
    IF me IS NULL THEN
        RAISE EXCEPTION 'role % is not a cabinet of this hub', session_user USING ERRCODE = 'OA002';
    END IF;
    IF claim.round_id IS NULL OR length(claim.round_id) NOT BETWEEN 1 AND 200 THEN
        RAISE EXCEPTION 'a claim names its round: a text of 1 to 200 characters' USING ERRCODE = 'OA003';
    END IF;
    SELECT * INTO p FROM hub.pool FOR UPDATE;
    -- A fresh snapshot after the lock: a claim of the same round that held it is seen here.
    SELECT * INTO award FROM hub.awards a WHERE a.cabinet_id = me AND a.round_id = claim.round_id;
    IF FOUND THEN
        RETURN award;
    END IF;
    from_reserve := least(p.reserve, greatest(p.maximum - p.reset, 0));
    INSERT INTO hub.awards (cabinet_id, round_id, amount, reset, from_reserve, pool_after)
    VALUES (me, claim.round_id, p.value, p.reset, from_reserve, p.reset + from_reserve)
    RETURNING * INTO award;
    UPDATE hub.pool
       SET value = p.reset + from_reserve,
           reserve = p.reserve - from_reserve,
           hits = p.hits + 1,
           updated_at = now();
    PERFORM pg_notify('oasis_hub_pool', '');
    RETURN award;
END
$$;
