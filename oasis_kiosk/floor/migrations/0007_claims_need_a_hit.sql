-- A claim is paid only for a hit the hub holds: the cabinet's own `jackpot_hit` event of
-- that round and box, received before the claim (the link agent claims only the hits the
-- hub confirmed it holds). Until now any cabinet's login could claim the pool for a round
-- it never reported as a hit. A claim of a hit already awarded still returns its award.
-- Raises OA006 naming the cabinet, the round and the box.

CREATE OR REPLACE FUNCTION hub.claim(round_id text, box integer) RETURNS hub.awards
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
    IF NOT EXISTS (SELECT 1 FROM hub.events e
                    WHERE e.cabinet_id = me AND e.kind = 'jackpot_hit'
                      AND e.payload ->> 'round_id' = claim.round_id
                      AND coalesce((e.payload ->> 'box')::integer, 0) = claim.box) THEN
        RAISE EXCEPTION 'cabinet % has sent no jackpot hit of round %, box %: there is nothing to award',
            (SELECT name FROM hub.cabinets WHERE id = me), claim.round_id, claim.box
            USING ERRCODE = 'OA006';
    END IF;
    from_reserve := least(p.reserve, greatest(p.maximum - p.reset, 0));
    INSERT INTO hub.awards (cabinet_id, round_id, box, amount, reset, from_reserve, pool_after)
    VALUES (me, claim.round_id, claim.box, p.value, p.reset, from_reserve, p.reset + from_reserve)
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


-- The claim looks a hit up by its cabinet and round.
CREATE INDEX events_hits ON hub.events (cabinet_id, (payload ->> 'round_id')) WHERE kind = 'jackpot_hit';
