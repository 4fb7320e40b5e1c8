-- The money of the floor, where a lab review found it could be paid twice, changed or taken.
--
-- * A hub restored from a backup older than an award: the cabinet's agent sends its outbox
--   again, the hub holds the hit without its award, and the award the kiosk was paid was
--   back in the pool, for the next hit to win again; the agent, whose file holds the award,
--   never claimed again, so the hit waited for ever and the pool's parameters with it.
--   hub.claim_paid is how the agent tells the hub the award its kiosk was paid: the hub
--   records it (marked `reported`) and takes it from the pool as a claim would.
-- * A hit at once is awarded the reset value (0010), read at its claim: a change of the
--   parameters between the hit and its claim (made despite the hit's silent cabinet) changed
--   an award the rule had fixed when it hit. Each hit now records, as it is received and
--   under the pool's lock, the reset value in force (`reset_at_hit`, beside
--   `pool_won_before`), and an award at once pays that.
-- * A cabinet's login won the pool with a hit of a round it never staked, of books not its
--   own, of any box: a hit is now refused unless it is a staked box of a round of the
--   cabinet's books (hub.check_hit_staked, below).
-- * A cabinet's login could hold the pool's lock while busy: a stake and then a long
--   statement (pg_sleep) in one transaction made every other cabinet's stake wait, as only
--   an idle transaction was ended (0011). A cabinet's login now has its statements ended
--   after 10 s, and, on a server that has it (PostgreSQL 17), its transactions after 30 s;
--   the cabinets that exist get the same now. (On PostgreSQL 15 and 16 a client that chains
--   statements of under 10 s each, never idle, can still hold the pool: only a login used by
--   something other than the link agent does, and its credentials must be replaced.)
-- * Money a cabinet sends was kept as it came: a forged ledger row of 1.99 was stored, and
--   the dashboard showed 1. The money the hub's readers take (a ledger row's `amount` and
--   `credits_after`, its detail's `won`, a meter's `value`) must be a whole number of minor
--   units as written (`2.0` too is refused, as a box is: it reads back as "2.0"); OA003.

ALTER TABLE hub.awards ADD COLUMN reported boolean NOT NULL DEFAULT false;
COMMENT ON COLUMN hub.awards.reported IS
    'the amount the cabinet had been paid, told by its agent (hub.claim_paid): the hub held the hit and no award';
-- What a told award did to the pool, for hub reconcile to add up: a claim that wins takes
-- the whole pool (its amount), a told award only its amount of it.
ALTER TABLE hub.awards ADD COLUMN pool_before bigint;
COMMENT ON COLUMN hub.awards.pool_before IS
    'a told award: the pool''s value before it (a claim''s is its amount)';
ALTER TABLE hub.awards ADD COLUMN to_reserve bigint NOT NULL DEFAULT 0 CHECK (to_reserve >= 0);
COMMENT ON COLUMN hub.awards.to_reserve IS
    'a told award: what the pool kept beyond it that went above the maximum, to the reserve';

-- What a claim and a told award (hub.claim_paid) both check of their hit: the session is a
-- cabinet's (OA002), the round and box are well formed (OA003, ``what`` naming the call), and,
-- once the pool is locked, the cabinet sent that hit (OA006), a staked box of its own books'
-- round (hub.check_hit_staked).
CREATE FUNCTION hub.claiming_cabinet(what text, round_id text, box integer) RETURNS integer
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    me integer := hub.session_cabinet();
BEGIN
    IF me IS NULL THEN
        RAISE EXCEPTION 'role % is not a cabinet of this hub', session_user USING ERRCODE = 'OA002';
    END IF;
    IF claiming_cabinet.round_id IS NULL OR length(claiming_cabinet.round_id) NOT BETWEEN 1 AND 200 THEN
        RAISE EXCEPTION '% names its round: a text of 1 to 200 characters', what USING ERRCODE = 'OA003';
    END IF;
    IF claiming_cabinet.box IS NULL OR claiming_cabinet.box < 0 THEN
        RAISE EXCEPTION '% names its box: a whole number from 0', what USING ERRCODE = 'OA003';
    END IF;
    RETURN me;
END
$$;
REVOKE ALL ON FUNCTION hub.claiming_cabinet(text, text, integer) FROM PUBLIC;

CREATE FUNCTION hub.claimed_hit(cabinet integer, round_id text, box integer) RETURNS hub.events
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    hit hub.events;
BEGIN
    -- A hit received before migration 0006 names no box: its round's one hit is box 0.
    SELECT * INTO hit FROM hub.events e
     WHERE e.cabinet_id = claimed_hit.cabinet AND e.kind = 'jackpot_hit'
       AND e.payload ->> 'round_id' = claimed_hit.round_id
       AND coalesce((e.payload ->> 'box')::integer, 0) = claimed_hit.box;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'cabinet % has sent no jackpot hit of round %, box %: there is nothing to award',
            (SELECT name FROM hub.cabinets WHERE id = claimed_hit.cabinet), claimed_hit.round_id, claimed_hit.box
            USING ERRCODE = 'OA006';
    END IF;
    -- A hit received before this migration was not checked as it came.
    PERFORM hub.check_hit_staked(claimed_hit.cabinet, claimed_hit.round_id, claimed_hit.box);
    RETURN hit;
END
$$;
REVOKE ALL ON FUNCTION hub.claimed_hit(integer, text, integer) FROM PUBLIC;

-- OA008: an award told that is not the one the hub holds.
-- The award the cabinet logged in was paid for its hit of `round_id`, `box`, which the hub
-- holds and has not awarded (a hub restored from a backup older than the award). The award
-- is recorded as the cabinet paid it, and as the hub answered it then (`at_once`, which the
-- agent's file keeps): the restored hub's `won` count cannot say, as it depends on the order
-- in which the agents tell their awards (an award at once told before the award that won
-- would be booked as winning, and the winner at once: the pool kept money already paid). An
-- award at once was paid by the house (0010's rule) and the pool is untouched; else the
-- pool held the award (its stakes were sent again) and gives it up: what the pool holds
-- beyond it was staked after the award and stays, on the reset value, and the reserve
-- refills it as after a claim. Told again, the same award is returned and nothing changes.
-- A told award is never more than a claim could award (a cabinet's login could otherwise
-- set any award on any hit, a fresh one too, which its agent's claim then returned): an award
-- at once is the hit's `reset_at_hit` (OA008 otherwise); an award that won the pool is more
-- than 0 (OA008) and at most the pool's value (OA009 while it holds less: the stakes of other
-- cabinets not yet sent again, and the agent tells it again later).
CREATE FUNCTION hub.claim_paid(round_id text, box integer, amount bigint, at_once boolean) RETURNS hub.awards
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    me integer := hub.claiming_cabinet('an award paid', round_id, box);
    p hub.pool;
    award hub.awards;
    reset_then bigint;
    base bigint;
    to_value bigint;
    to_reserve bigint;
    from_reserve bigint;
BEGIN
    IF claim_paid.at_once IS NULL THEN
        RAISE EXCEPTION 'an award paid says whether it was at once' USING ERRCODE = 'OA003';
    END IF;
    IF claim_paid.amount IS NULL OR claim_paid.amount NOT BETWEEN 0 AND 1000000000000000 THEN
        RAISE EXCEPTION 'an award paid is a whole number of minor units from 0 to 10^15, not %', claim_paid.amount
            USING ERRCODE = 'OA003';
    END IF;
    SELECT * INTO p FROM hub.pool FOR UPDATE;
    SELECT * INTO award FROM hub.awards a
     WHERE a.cabinet_id = me AND a.round_id = claim_paid.round_id AND a.box = claim_paid.box;
    IF FOUND THEN
        IF award.amount = claim_paid.amount THEN
            RETURN award;
        END IF;
        RAISE EXCEPTION 'cabinet %: the hub awarded round %, box % %, not the % the cabinet says it paid',
            (SELECT name FROM hub.cabinets WHERE id = me), claim_paid.round_id, claim_paid.box, award.amount,
            claim_paid.amount
            USING ERRCODE = 'OA008';
    END IF;
    reset_then := (hub.claimed_hit(me, claim_paid.round_id, claim_paid.box)).reset_at_hit;
    IF claim_paid.at_once AND claim_paid.amount IS DISTINCT FROM coalesce(reset_then, p.reset) THEN
        RAISE EXCEPTION 'cabinet %: round %, box % hit at once with an award: its award is the reset value %, not %',
            (SELECT name FROM hub.cabinets WHERE id = me), claim_paid.round_id, claim_paid.box,
            coalesce(reset_then, p.reset), claim_paid.amount
            USING ERRCODE = 'OA008';
    ELSIF NOT claim_paid.at_once AND claim_paid.amount = 0 THEN
        RAISE EXCEPTION 'cabinet %: round %, box % won the pool: its award is more than 0',
            (SELECT name FROM hub.cabinets WHERE id = me), claim_paid.round_id, claim_paid.box
            USING ERRCODE = 'OA008';
    ELSIF NOT claim_paid.at_once AND claim_paid.amount > p.value THEN
        RAISE EXCEPTION 'cabinet %: round %, box % won the pool, which holds % now, not the % told: told again once the stakes before it are all sent again',
            (SELECT name FROM hub.cabinets WHERE id = me), claim_paid.round_id, claim_paid.box, p.value,
            claim_paid.amount
            USING ERRCODE = 'OA009';
    END IF;
    IF claim_paid.at_once THEN
        INSERT INTO hub.awards (cabinet_id, round_id, box, amount, reset, from_reserve, pool_after, at_once, reported,
                                pool_before)
        VALUES (me, claim_paid.round_id, claim_paid.box, claim_paid.amount, p.reset, 0, p.value, true, true,
                p.value)
        RETURNING * INTO award;
        UPDATE hub.pool SET hits = p.hits + 1, updated_at = now();
    ELSE
        base := p.reset + p.value - claim_paid.amount;
        to_value := least(base, p.maximum);
        to_reserve := p.reserve + (base - to_value);
        from_reserve := least(to_reserve, p.maximum - to_value);
        INSERT INTO hub.awards (cabinet_id, round_id, box, amount, reset, from_reserve, pool_after, reported,
                                pool_before, to_reserve)
        VALUES (me, claim_paid.round_id, claim_paid.box, claim_paid.amount, p.reset, from_reserve,
                to_value + from_reserve, true, p.value, base - to_value)
        RETURNING * INTO award;
        UPDATE hub.pool
           SET value = to_value + from_reserve,
               reserve = to_reserve - from_reserve,
               hits = p.hits + 1,
               won = p.won + 1,
               updated_at = now();
    END IF;
    PERFORM pg_notify('oasis_hub_pool', '');
    RETURN award;
END
$$;

REVOKE ALL ON FUNCTION hub.claim_paid(text, integer, bigint, boolean) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION hub.claim_paid(text, integer, bigint, boolean) TO {{cabinets}};

ALTER TABLE hub.events ADD COLUMN reset_at_hit bigint CHECK (reset_at_hit >= 0);
COMMENT ON COLUMN hub.events.reset_at_hit IS
    'a jackpot hit: the pool''s reset value when the hub received it, its award if it is at once';
-- Hits waiting for their award now: the reset value of the first change after each was
-- received, if any, else the one in force now.
UPDATE hub.events e
   SET reset_at_hit = coalesce((SELECT (c.old ->> 'reset')::bigint FROM hub.parameter_changes c
                                 WHERE c.changed_at > e.received_at ORDER BY c.id LIMIT 1),
                               (SELECT reset FROM hub.pool))
 WHERE e.kind = 'jackpot_hit'
   AND NOT EXISTS (SELECT 1 FROM hub.awards a
                    WHERE a.cabinet_id = e.cabinet_id AND a.round_id = e.payload ->> 'round_id'
                      AND a.box = coalesce((e.payload ->> 'box')::integer, 0));

-- The lock of 0011, recording the reset value too; the cabinet's own values for the two
-- columns, if it sent any, are never kept.
DROP TRIGGER hit_waits_for_the_pool ON hub.events;
CREATE OR REPLACE FUNCTION hub.hit_waits_for_the_pool() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF NEW.kind = 'jackpot_hit' THEN
        SELECT won, reset INTO NEW.pool_won_before, NEW.reset_at_hit FROM hub.pool FOR UPDATE;
    ELSE
        NEW.pool_won_before := NULL;
        NEW.reset_at_hit := NULL;
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER hit_waits_for_the_pool BEFORE INSERT ON hub.events
    FOR EACH ROW WHEN (NEW.kind = 'jackpot_hit' OR NEW.pool_won_before IS NOT NULL OR NEW.reset_at_hit IS NOT NULL)
    EXECUTE FUNCTION hub.hit_waits_for_the_pool();

-- The claim of 0010: an award at once is the reset value in force when the hit was received.
CREATE OR REPLACE FUNCTION hub.claim(round_id text, box integer) RETURNS hub.awards
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    me integer := hub.claiming_cabinet('a claim', round_id, box);
    p hub.pool;
    award hub.awards;
    from_reserve bigint;
    hit hub.events;
BEGIN
    SELECT * INTO p FROM hub.pool FOR UPDATE;
    -- A fresh snapshot after the lock: a claim of the same hit that held it is seen here.
    SELECT * INTO award FROM hub.awards a
     WHERE a.cabinet_id = me AND a.round_id = claim.round_id AND a.box = claim.box;
    IF FOUND THEN
        RETURN award;
    END IF;
    hit := hub.claimed_hit(me, claim.round_id, claim.box);
    IF hit.pool_won_before < p.won THEN
        INSERT INTO hub.awards (cabinet_id, round_id, box, amount, reset, from_reserve, pool_after, at_once)
        VALUES (me, claim.round_id, claim.box, coalesce(hit.reset_at_hit, p.reset), p.reset, 0, p.value, true)
        RETURNING * INTO award;
        UPDATE hub.pool SET hits = p.hits + 1, updated_at = now();
    ELSE
        from_reserve := least(p.reserve, greatest(p.maximum - p.reset, 0));
        INSERT INTO hub.awards (cabinet_id, round_id, box, amount, reset, from_reserve, pool_after)
        VALUES (me, claim.round_id, claim.box, p.value, p.reset, from_reserve, p.reset + from_reserve)
        RETURNING * INTO award;
        UPDATE hub.pool
           SET value = p.reset + from_reserve,
               reserve = p.reserve - from_reserve,
               hits = p.hits + 1,
               won = p.won + 1,
               updated_at = now();
    END IF;
    PERFORM pg_notify('oasis_hub_pool', '');
    RETURN award;
END
$$;

-- A hit is a staked box of a round of the cabinet's own books: the hub checks it as it
-- receives it (and again at its claim, for a hit received before this migration). Its
-- round's id must be `<books id>:<round>` of the books the hub records for the cabinet (a
-- cabinet that recorded none adopts them, as hub.check_books would); the cabinet must have
-- sent a stake on the jackpot for that round (`jackpot_contribution`, more than 0); and its
-- box must be one the round staked: a round stakes the bonus on each of its boxes or on
-- none, each box's stake a contribution, so the boxes are 0 to the count of its stakes less
-- one. Otherwise OA003, naming the cabinet and the hit; nothing of the batch is kept.
CREATE INDEX contributions_by_round ON hub.contributions (cabinet_id, round_id);

CREATE FUNCTION hub.check_hit_staked(cabinet integer, round_id text, box integer) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c hub.cabinets;
    books text := split_part(check_hit_staked.round_id, ':', 1);
    staked bigint;
BEGIN
    SELECT * INTO c FROM hub.cabinets WHERE id = check_hit_staked.cabinet;
    IF position(':' IN check_hit_staked.round_id) > 1 AND c.books_id IS NULL THEN
        UPDATE hub.cabinets SET books_id = books WHERE id = c.id;
        c.books_id := books;
    END IF;
    IF position(':' IN check_hit_staked.round_id) <= 1 OR books IS DISTINCT FROM c.books_id THEN
        RAISE EXCEPTION 'cabinet %: a jackpot hit of round % is not of its books %: a round''s id is <books id>:<round>',
            c.name, check_hit_staked.round_id, coalesce(c.books_id, '(none recorded)')
            USING ERRCODE = 'OA003';
    END IF;
    SELECT count(*) INTO staked FROM hub.contributions k
     WHERE k.cabinet_id = c.id AND k.round_id = check_hit_staked.round_id AND k.stake > 0;
    IF staked = 0 THEN
        RAISE EXCEPTION 'cabinet %: round % staked nothing on the jackpot: its hit cannot win it',
            c.name, check_hit_staked.round_id
            USING ERRCODE = 'OA003';
    END IF;
    IF check_hit_staked.box >= staked THEN
        RAISE EXCEPTION 'cabinet %: round % staked the jackpot on % box(es), 0 to %: it has no box %',
            c.name, check_hit_staked.round_id, staked, staked - 1, check_hit_staked.box
            USING ERRCODE = 'OA003';
    END IF;
END
$$;
REVOKE ALL ON FUNCTION hub.check_hit_staked(integer, text, integer) FROM PUBLIC;

-- 0006's check of a hit received, with the above.
CREATE OR REPLACE FUNCTION hub.check_hit() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM hub.check_hit_staked(NEW.cabinet_id, hub.payload_round(NEW), hub.payload_box(NEW));
    RETURN NULL;
END
$$;

-- 0011's limits, with the statement's and the transaction's.
CREATE OR REPLACE FUNCTION hub.limit_cabinet_login(login text) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    EXECUTE format('ALTER ROLE %I CONNECTION LIMIT 3', login);
    EXECUTE format('ALTER ROLE %I SET idle_in_transaction_session_timeout = %L', login, '10s');
    EXECUTE format('ALTER ROLE %I SET statement_timeout = %L', login, '10s');
    IF current_setting('server_version_num')::integer >= 170000 THEN
        EXECUTE format('ALTER ROLE %I SET transaction_timeout = %L', login, '30s');
    END IF;
    EXECUTE format('ALTER ROLE %I SET tcp_keepalives_idle = 10', login);
    EXECUTE format('ALTER ROLE %I SET tcp_keepalives_interval = 5', login);
    EXECUTE format('ALTER ROLE %I SET tcp_keepalives_count = 3', login);
END
$$;

SELECT hub.limit_cabinet_login(role_name) FROM hub.cabinets
 WHERE EXISTS (SELECT 1 FROM pg_roles WHERE rolname = role_name);

-- A whole number of minor units at `path` of an event's payload (absent or null: refused if
-- `required`), or OA003 naming the event.
CREATE FUNCTION hub.payload_whole(event hub.events, path text[], required boolean) RETURNS void
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    item jsonb := event.payload #> path;
BEGIN
    IF item IS NULL OR jsonb_typeof(item) = 'null' THEN
        IF NOT required THEN
            RETURN;
        END IF;
    ELSIF jsonb_typeof(item) = 'number' AND item::text ~ '^-?[0-9]{1,16}$' THEN
        RETURN;
    END IF;
    RAISE EXCEPTION 'cabinet %, event % (%): "%" must be a whole number of minor units, not %',
        (SELECT name FROM hub.cabinets WHERE id = event.cabinet_id), event.seq, event.kind,
        array_to_string(path, '.'), coalesce(item::text, 'missing')
        USING ERRCODE = 'OA003';
END
$$;

-- Named to run after hub.receive_event (a row sent again is skipped before it is looked at).
CREATE FUNCTION hub.whole_money() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF NEW.kind = 'ledger' THEN
        PERFORM hub.payload_whole(NEW, '{amount}', true);
        PERFORM hub.payload_whole(NEW, '{credits_after}', true);
        PERFORM hub.payload_whole(NEW, '{detail,won}', false);
    ELSE
        PERFORM hub.payload_whole(NEW, '{value}', true);
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER whole_money BEFORE INSERT ON hub.events
    FOR EACH ROW WHEN (NEW.kind IN ('ledger', 'meter')) EXECUTE FUNCTION hub.whole_money();
REVOKE ALL ON FUNCTION hub.payload_whole(hub.events, text[], boolean), hub.whole_money() FROM PUBLIC;

-- The dashboard's days follow the hub's clock (received_at), not a cabinet's: a cabinet a
-- year ahead put its money on no day shown. Its index follows them.
DROP INDEX hub.events_by_day;
CREATE INDEX events_received_by_day ON hub.events (received_at) WHERE kind IN ('ledger', 'round');
