-- A jackpot hit is a box's, not a round's: two boxes of one round that both hit are two
-- claims, each awarded once (the first claimed wins the pool, the second what the pool then
-- holds, as any two hits at once). A claim is keyed by the cabinet, the round and the box,
-- so that a claim made again (the agent killed before it wrote its answer down) finds its
-- own award. Awards made before this migration were one per round: they are box 0.

ALTER TABLE hub.awards ADD COLUMN box integer NOT NULL DEFAULT 0 CHECK (box >= 0);
ALTER TABLE hub.awards ALTER COLUMN box DROP DEFAULT;
ALTER TABLE hub.awards DROP CONSTRAINT awards_cabinet_id_round_id_key;
ALTER TABLE hub.awards ADD UNIQUE (cabinet_id, round_id, box);

-- A hit's box from an event's payload, or OA003 naming the event.
CREATE FUNCTION hub.payload_box(event hub.events) RETURNS integer
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    item jsonb := event.payload -> 'box';
    box numeric;
BEGIN
    IF item IS NOT NULL AND jsonb_typeof(item) = 'number' THEN
        box := item::text::numeric;
        IF box = trunc(box) AND box BETWEEN 0 AND 2147483647 THEN
            RETURN box::integer;
        END IF;
    END IF;
    RAISE EXCEPTION 'cabinet %, event % (%): "box" must be a whole number from 0, not %',
        (SELECT name FROM hub.cabinets WHERE id = event.cabinet_id), event.seq, event.kind,
        coalesce(item::text, 'missing')
        USING ERRCODE = 'OA003';
END
$$;

-- After each `jackpot_hit` received: it names its box (its round is checked by apply_event).
CREATE FUNCTION hub.check_hit() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM hub.payload_box(NEW);
    RETURN NULL;
END
$$;

CREATE TRIGGER check_hit AFTER INSERT ON hub.events
    FOR EACH ROW WHEN (NEW.kind = 'jackpot_hit') EXECUTE FUNCTION hub.check_hit();

-- The claim of 0002_pool.sql, for one box's hit: the same award however often it is made.
DROP FUNCTION hub.claim(text);
CREATE FUNCTION hub.claim(round_id text, box integer) RETURNS hub.awards
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

REVOKE ALL ON FUNCTION hub.payload_box(hub.events), hub.check_hit(), hub.claim(text, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION hub.claim(text, integer) TO {{cabinets}};
