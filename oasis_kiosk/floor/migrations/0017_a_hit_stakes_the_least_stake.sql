-- A hit wins only on a stake of at least the pool's least stake. A cabinet's login staked its
-- box 1 minor unit and declared a hit of it: a staked box (0012), it won the whole pool. The
-- pool now has a parameter, `least_stake` (minor units; 0, as before, takes any stake above
-- 0), changed by `hub set-parameters --least-stake` as the others are, logged; each
-- contribution records the least stake in force when it was received, and a hit's box must be
-- one the round staked with at least that. A smaller stake is still received and feeds the
-- pool (its rows are in the cabinet's outbox and books, and a change of the parameter must
-- not refuse the stakes already on their way); its hit is refused (OA003).

ALTER TABLE hub.pool ADD COLUMN least_stake bigint NOT NULL DEFAULT 0 CHECK (least_stake >= 0);
COMMENT ON COLUMN hub.pool.least_stake IS
    'minor units: a hit wins only on a box staked at least this much (0: any stake above 0)';

ALTER TABLE hub.contributions ADD COLUMN least_stake bigint NOT NULL DEFAULT 0 CHECK (least_stake >= 0);
COMMENT ON COLUMN hub.contributions.least_stake IS
    'the pool''s least stake when it was received: a stake below it wins nothing';

-- Run as hub.apply_event inserts a contribution, the pool's row locked by it.
CREATE FUNCTION hub.contribution_least_stake() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    SELECT least_stake INTO NEW.least_stake FROM hub.pool;
    RETURN NEW;
END
$$;
CREATE TRIGGER least_stake BEFORE INSERT ON hub.contributions
    FOR EACH ROW EXECUTE FUNCTION hub.contribution_least_stake();
REVOKE ALL ON FUNCTION hub.contribution_least_stake() FROM PUBLIC;

-- 0012's check of a hit, counting only the stakes of at least the least stake of their time.
CREATE OR REPLACE FUNCTION hub.check_hit_staked(cabinet integer, round_id text, box integer) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c hub.cabinets;
    books text := split_part(check_hit_staked.round_id, ':', 1);
    staked bigint;
    least bigint;
    at_least text;
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
    SELECT count(*) FILTER (WHERE k.stake >= k.least_stake), coalesce(max(k.least_stake), 0)
      INTO staked, least
      FROM hub.contributions k
     WHERE k.cabinet_id = c.id AND k.round_id = check_hit_staked.round_id AND k.stake > 0;
    at_least := CASE WHEN least > 0 THEN format(' of at least %s', least) ELSE '' END;
    IF staked = 0 THEN
        RAISE EXCEPTION 'cabinet %: round % staked nothing on the jackpot%: its hit cannot win it',
            c.name, check_hit_staked.round_id, at_least
            USING ERRCODE = 'OA003';
    END IF;
    IF check_hit_staked.box >= staked THEN
        RAISE EXCEPTION 'cabinet %: round % staked the jackpot% on % box(es), 0 to %: it has no box %',
            c.name, check_hit_staked.round_id, replace(at_least, ' of ', ' '), staked, staked - 1,
            check_hit_staked.box
            USING ERRCODE = 'OA003';
    END IF;
END
$$;
