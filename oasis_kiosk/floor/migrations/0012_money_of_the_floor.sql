-- The money of the floor, where a lab review found it could be paid twice, changed or taken.
--
-- * A hub restored from a backup older than an award: the cabinet's agent sends its outbox
--   again, the hub holds the hit without its award, and the award the kiosk was paid was
--   back in the pool, for the next hit to win again; the agent, whose file holds the award,
--   never claimed again, so the hit waited for ever and the pool's parameters with it.
--   hub.claim_paid is how the agent tells the hub the award its kiosk was paid: the hub
--   records it (marked `reported`) and takes it from the pool as a claim would.

ALTER TABLE hub.awards ADD COLUMN reported boolean NOT NULL DEFAULT false;
COMMENT ON COLUMN hub.awards.reported IS
    'the amount the cabinet had been paid, told by its agent (hub.claim_paid): the hub held the hit and no award';

-- OA008: an award told that is not the one the hub holds.
-- The award the cabinet logged in was paid for its hit of `round_id`, `box`, which the hub
-- holds and has not awarded (a hub restored from a backup older than the award). The award
-- is recorded as the cabinet paid it. If the hit was at once with an award the hub made
-- since it received it, the house paid it (0010's rule) and the pool is untouched; else the
-- pool held the award (its stakes were sent again) and gives it up: what the pool holds
-- beyond it was staked after the award and stays, on the reset value, and the reserve
-- refills it as after a claim. Told again, the same award is returned and nothing changes.
CREATE FUNCTION hub.claim_paid(round_id text, box integer, amount bigint) RETURNS hub.awards
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    me integer := hub.session_cabinet();
    p hub.pool;
    award hub.awards;
    won_before bigint;
    base bigint;
    to_value bigint;
    to_reserve bigint;
    from_reserve bigint;
BEGIN
    IF me IS NULL THEN
        RAISE EXCEPTION 'role % is not a cabinet of this hub', session_user USING ERRCODE = 'OA002';
    END IF;
    IF claim_paid.round_id IS NULL OR length(claim_paid.round_id) NOT BETWEEN 1 AND 200 THEN
        RAISE EXCEPTION 'an award paid names its round: a text of 1 to 200 characters' USING ERRCODE = 'OA003';
    END IF;
    IF claim_paid.box IS NULL OR claim_paid.box < 0 THEN
        RAISE EXCEPTION 'an award paid names its box: a whole number from 0' USING ERRCODE = 'OA003';
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
    SELECT e.pool_won_before INTO won_before FROM hub.events e
     WHERE e.cabinet_id = me AND e.kind = 'jackpot_hit'
       AND e.payload ->> 'round_id' = claim_paid.round_id
       AND coalesce((e.payload ->> 'box')::integer, 0) = claim_paid.box;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'cabinet % has sent no jackpot hit of round %, box %: there is nothing to award',
            (SELECT name FROM hub.cabinets WHERE id = me), claim_paid.round_id, claim_paid.box
            USING ERRCODE = 'OA006';
    END IF;
    IF won_before < p.won THEN
        INSERT INTO hub.awards (cabinet_id, round_id, box, amount, reset, from_reserve, pool_after, at_once, reported)
        VALUES (me, claim_paid.round_id, claim_paid.box, claim_paid.amount, p.reset, 0, p.value, true, true)
        RETURNING * INTO award;
        UPDATE hub.pool SET hits = p.hits + 1, updated_at = now();
    ELSE
        base := p.reset + greatest(p.value - claim_paid.amount, 0);
        to_value := least(base, p.maximum);
        to_reserve := p.reserve + (base - to_value);
        from_reserve := least(to_reserve, p.maximum - to_value);
        INSERT INTO hub.awards (cabinet_id, round_id, box, amount, reset, from_reserve, pool_after, reported)
        VALUES (me, claim_paid.round_id, claim_paid.box, claim_paid.amount, p.reset, from_reserve,
                to_value + from_reserve, true)
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

REVOKE ALL ON FUNCTION hub.claim_paid(text, integer, bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION hub.claim_paid(text, integer, bigint) TO {{cabinets}};
