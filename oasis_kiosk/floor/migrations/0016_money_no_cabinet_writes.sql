-- Money no cabinet writes. A cabinet's login wrote a meter of -5 games and -999999999999999
-- coin out, and the dashboard showed them: 0012 asked only for whole minor units. What a
-- cabinet's books write is never below 0 (a meter only goes up, or to 0 at the operator's
-- reset; the credits never go below 0; a win paid by hand and a stake are amounts), and a
-- ledger row's amount has its kind's sign: money in and a win put credits on, a wager, a fee
-- and a cash out take them off. Any other is refused as it arrives (OA003), and nothing of its
-- batch is kept. A kind the hub does not know keeps any sign.

-- The number at `path` of an event's payload is 0 or of `sign` (1: from 0, -1: up to 0), or
-- OA003 naming the event. One absent or not a number is hub.whole_money's to refuse.
CREATE FUNCTION hub.payload_signed(event hub.events, path text[], sign integer, what text) RETURNS void
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    item jsonb := event.payload #> path;
BEGIN
    IF item IS NULL OR jsonb_typeof(item) <> 'number' OR sign * item::text::numeric >= 0 THEN
        RETURN;
    END IF;
    RAISE EXCEPTION 'cabinet %, event % (%): "%" %, not %',
        (SELECT name FROM hub.cabinets WHERE id = event.cabinet_id), event.seq, event.kind,
        array_to_string(path, '.'), what, item::text
        USING ERRCODE = 'OA003';
END
$$;

-- Named to run after hub.receive_event (a row sent again is skipped before it is looked at).
CREATE FUNCTION hub.signed_money() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    never_negative constant text := 'is never below 0 in a cabinet''s books';
    kind text := NEW.payload ->> 'kind';
BEGIN
    IF NEW.kind = 'meter' THEN
        PERFORM hub.payload_signed(NEW, '{value}', 1, never_negative);
        RETURN NEW;
    END IF;
    PERFORM hub.payload_signed(NEW, '{credits_after}', 1, never_negative);
    PERFORM hub.payload_signed(NEW, '{detail,won}', 1, never_negative);
    PERFORM hub.payload_signed(NEW, '{detail,stake}', 1, never_negative);
    IF kind IN ('coin_in', 'bill_in', 'operator_credit', 'win', 'bonus_win', 'void_refund', 'jackpot_hit') THEN
        PERFORM hub.payload_signed(NEW, '{amount}', 1, format('of a %s row puts credits on: from 0', kind));
    ELSIF kind IN ('wager', 'fee', 'handpay', 'cash_out') THEN
        PERFORM hub.payload_signed(NEW, '{amount}', -1, format('of a %s row takes credits off: up to 0', kind));
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER signed_money BEFORE INSERT ON hub.events
    FOR EACH ROW WHEN (NEW.kind IN ('ledger', 'meter')) EXECUTE FUNCTION hub.signed_money();
REVOKE ALL ON FUNCTION hub.payload_signed(hub.events, text[], integer, text), hub.signed_money() FROM PUBLIC;
