-- The pool without NOTIFY. Each stake, claim and award told sent a notification on
-- `oasis_hub_pool` (and each parameter change, from hub.py), which nothing ever listened
-- to: the link agents read the pool by polling. A notification goes through the server's
-- one NOTIFY queue (8 GB), which any login may fill, by a session that LISTENs and never
-- reads and large notifications of its own: once it was full every pg_notify failed, and
-- with it every stake, claim and award of the floor. The three functions are those of 0002
-- and 0012 without it; server_functions.sql may then take pg_notify from every login.

-- 0002's.
CREATE OR REPLACE FUNCTION hub.apply_event() RETURNS trigger
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
    ELSIF NEW.kind = 'jackpot_hit' THEN
        PERFORM hub.payload_round(NEW);
    END IF;
    RETURN NULL;
END
$$;

-- 0012's.
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
    RETURN award;
END
$$;

-- 0012's.
CREATE OR REPLACE FUNCTION hub.claim_paid(round_id text, box integer, amount bigint, at_once boolean) RETURNS hub.awards
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
    RETURN award;
END
$$;
