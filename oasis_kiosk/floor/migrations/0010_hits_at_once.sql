-- Two hits at once: the first claimed wins the pool, the other the reset value (the rule
-- linked systems publish). Until now the second was awarded what the pool held after the
-- first: its reset value plus the reserve's refill and whatever was staked since.
--
-- "At once" is told by the hub's own order, not by the cabinets' clocks: a hit is at once
-- with an award when the hub received it before that award took the pool, so that both hit
-- the same pool. Each hit records, as it is received, how many times the pool had been won
-- (under the pool's lock, which a claim holds until it commits). A claim whose hit saw fewer
-- than the pool has been won since is awarded the reset value, paid by the house: the pool,
-- its reserve and what the pool has been won stay as they are, so a hit received after that
-- award still wins the pool as it stands.

ALTER TABLE hub.pool ADD COLUMN won bigint NOT NULL DEFAULT 0 CHECK (won >= 0);
UPDATE hub.pool SET won = hits;
COMMENT ON COLUMN hub.pool.won IS 'times the pool itself was awarded (hits counts awards at once too)';

ALTER TABLE hub.awards ADD COLUMN at_once boolean NOT NULL DEFAULT false;
COMMENT ON COLUMN hub.awards.at_once IS 'the reset value, paid by the house: another hit won this pool first';

ALTER TABLE hub.events ADD COLUMN pool_won_before bigint CHECK (pool_won_before >= 0);
COMMENT ON COLUMN hub.events.pool_won_before IS 'a jackpot hit: times the pool had been won when the hub received it';
-- Hits waiting for their award now were received before any award still to come.
UPDATE hub.events e SET pool_won_before = (SELECT won FROM hub.pool)
 WHERE e.kind = 'jackpot_hit'
   AND NOT EXISTS (SELECT 1 FROM hub.awards a
                    WHERE a.cabinet_id = e.cabinet_id AND a.round_id = e.payload ->> 'round_id'
                      AND a.box = coalesce((e.payload ->> 'box')::integer, 0));

-- The lock of 0009, taken before the row is written so that the hit records what it saw; the
-- cabinet's own value for the column, if it sent one, is never kept.
DROP TRIGGER hit_waits_for_the_pool ON hub.events;
DROP FUNCTION hub.hit_waits_for_the_pool();

CREATE FUNCTION hub.hit_waits_for_the_pool() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF NEW.kind = 'jackpot_hit' THEN
        SELECT won INTO NEW.pool_won_before FROM hub.pool FOR SHARE;
    ELSE
        NEW.pool_won_before := NULL;
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER hit_waits_for_the_pool BEFORE INSERT ON hub.events
    FOR EACH ROW WHEN (NEW.kind = 'jackpot_hit' OR NEW.pool_won_before IS NOT NULL)
    EXECUTE FUNCTION hub.hit_waits_for_the_pool();

REVOKE ALL ON FUNCTION hub.hit_waits_for_the_pool() FROM PUBLIC;

-- The claim of 0007, with the award of a hit at once.
CREATE OR REPLACE FUNCTION hub.claim(round_id text, box integer) RETURNS hub.awards
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    me integer := hub.session_cabinet();
    p hub.pool;
    award hub.awards;
    from_reserve bigint;
    won_before bigint;
BEGIN
    IF me IS NULL THEN
        RAISE EXCEPTION 'role % is not a cabinet of this hub', session_user USING ERRCODE = 'OA002';
    END IF;
    IF claim.round_id IS NULL OR length(claim.round_id) NOT BETWEEN 1 AND 200 THEN
        RAISE EXCEPTION 'a claim names its round: a text of 1 to 200 characters' USING ERRCODE = 'OA003';
    END IF;
    IF claim.box IS NULL OR claim.box < 0 THEN
        RAISE EXCEPTION 'a claim names its box: a whole number from 0' USING ERRCODE = 'OA003';
    END IF;
    SELECT * INTO p FROM hub.pool FOR UPDATE;
    -- A fresh snapshot after the lock: a claim of the same hit that held it is seen here.
    SELECT * INTO award FROM hub.awards a
     WHERE a.cabinet_id = me AND a.round_id = claim.round_id AND a.box = claim.box;
    IF FOUND THEN
        RETURN award;
    END IF;
    -- A hit received before migration 0006 names no box: its round's one hit is box 0.
    SELECT e.pool_won_before INTO won_before FROM hub.events e
     WHERE e.cabinet_id = me AND e.kind = 'jackpot_hit'
       AND e.payload ->> 'round_id' = claim.round_id
       AND coalesce((e.payload ->> 'box')::integer, 0) = claim.box;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'cabinet % has sent no jackpot hit of round %, box %: there is nothing to award',
            (SELECT name FROM hub.cabinets WHERE id = me), claim.round_id, claim.box
            USING ERRCODE = 'OA006';
    END IF;
    IF won_before < p.won THEN
        INSERT INTO hub.awards (cabinet_id, round_id, box, amount, reset, from_reserve, pool_after, at_once)
        VALUES (me, claim.round_id, claim.box, p.reset, p.reset, 0, p.value, true)
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
