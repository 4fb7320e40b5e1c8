-- Which books a cabinet's events come from. A cabinet's outbox numbers its events 1, 2, 3…
-- within its books; new books (`oasis-kiosk init --ram-clear`) number theirs from 1 again,
-- and their rows 1..n are other events than the rows 1..n the hub holds. Without the books'
-- id the hub could not tell, and skipped them as rows it holds. Now it records the books id
-- of a cabinet's events and refuses a batch of other books (OA007): new books are added to
-- the hub as a new cabinet (`hub add-cabinet`). NULL: not recorded yet (a cabinet that has
-- sent nothing, or only before this migration): the first books id sent is adopted.

ALTER TABLE hub.cabinets ADD COLUMN books_id text CHECK (length(books_id) BETWEEN 1 AND 200);

-- The session's cabinet sends the events of books `books_id`: recorded if the hub recorded
-- no books for it yet, OA007 naming both if it holds the events of other books. The row is
-- locked as hub.receive_event locks it, so a batch that follows in the same transaction is
-- of the books checked here. SECURITY DEFINER: a cabinet may not update hub.cabinets; this
-- touches only its own row's books_id, and only while it is NULL.
CREATE FUNCTION hub.check_books(books_id text) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    cabinet hub.cabinets;
BEGIN
    SELECT * INTO cabinet FROM hub.cabinets WHERE role_name = session_user::text FOR NO KEY UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'role % is not a cabinet of this hub', session_user USING ERRCODE = 'OA002';
    END IF;
    IF check_books.books_id IS NULL OR length(check_books.books_id) NOT BETWEEN 1 AND 200 THEN
        RAISE EXCEPTION 'cabinet %: a batch names its books: a text of 1 to 200 characters', cabinet.name
            USING ERRCODE = 'OA003';
    END IF;
    IF cabinet.books_id IS NULL THEN
        UPDATE hub.cabinets SET books_id = check_books.books_id WHERE id = cabinet.id;
    ELSIF cabinet.books_id <> check_books.books_id THEN
        RAISE EXCEPTION 'cabinet %: the hub holds the events of books %, not of books %',
            cabinet.name, cabinet.books_id, check_books.books_id
            USING ERRCODE = 'OA007';
    END IF;
END
$$;

REVOKE ALL ON FUNCTION hub.check_books(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION hub.check_books(text) TO {{cabinets}};

-- A cabinet that sent stakes or hits before this migration named its books in their rounds'
-- ids (`<books id>:<round>`, store/outbox.py's hub_round_id): its books are recorded now,
-- so that new books are refused from their first batch rather than adopted.
UPDATE hub.cabinets c
   SET books_id = (SELECT split_part(e.payload ->> 'round_id', ':', 1) FROM hub.events e
                    WHERE e.cabinet_id = c.id AND e.kind IN ('jackpot_contribution', 'jackpot_hit')
                      AND position(':' IN e.payload ->> 'round_id') > 1
                    ORDER BY e.seq DESC LIMIT 1)
 WHERE c.books_id IS NULL;
