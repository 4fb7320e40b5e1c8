-- Books that join the floor. A cabinet that played on its own (coin in, rounds, bills) and
-- then joined the floor sent only what it wrote from then on: the hub held none of its
-- meters' values, reconciliation found every meter differing and marked it faulty for good,
-- and the dashboard showed nothing of it. Such books now open their outbox, once, with an
-- opening record: an `opening` event (its `credits` as the books stand, and the last ledger,
-- round and event rows they held before) followed by a `meter` event of each meter's value.
-- The opening's money is checked as a ledger row's is (0012, 0016): its credits a whole
-- number of minor units, never below 0. And it is the cabinet's first event, or none: an
-- opening after other events is no cabinet's books, and is refused (OA003) as it arrives.

-- Named to run after hub.receive_event (a row sent again is skipped before it is looked at).
CREATE FUNCTION hub.sound_opening() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF NEW.seq <> 1 THEN
        RAISE EXCEPTION 'cabinet %, event % (opening): the opening of a cabinet''s books is its first event',
            (SELECT name FROM hub.cabinets WHERE id = NEW.cabinet_id), NEW.seq
            USING ERRCODE = 'OA003';
    END IF;
    PERFORM hub.payload_whole(NEW, '{credits}', true);
    PERFORM hub.payload_signed(NEW, '{credits}', 1, 'is never below 0 in a cabinet''s books');
    RETURN NEW;
END
$$;

CREATE TRIGGER sound_opening BEFORE INSERT ON hub.events
    FOR EACH ROW WHEN (NEW.kind = 'opening') EXECUTE FUNCTION hub.sound_opening();
REVOKE ALL ON FUNCTION hub.sound_opening() FROM PUBLIC;

-- The dashboard's credits of a cabinet with no ledger row since it joined: its opening's.
CREATE INDEX events_opening ON hub.events (cabinet_id) WHERE kind = 'opening';
