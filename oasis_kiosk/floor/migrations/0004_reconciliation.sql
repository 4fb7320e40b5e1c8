-- `hub reconcile` and the owner's dashboard (`hub serve`).
--
-- Each reconciliation of a cabinet's books is kept: when, by which role, the books'
-- identity, how far the hub and the books had come (the hub's last sequence number held,
-- the books' last outbox row), and the differences found, each a sentence. A cabinet is
-- faulty while its latest reconciliation found a difference (hub.cabinet_books), and the
-- dashboard says so. Only the hub's owner writes them; the dashboard reads them; a cabinet
-- has no right on them at all.
CREATE TABLE hub.reconciliations (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    cabinet_id integer NOT NULL REFERENCES hub.cabinets,
    checked_at timestamptz NOT NULL DEFAULT now(),
    checked_by text NOT NULL DEFAULT session_user,
    books_id text NOT NULL,
    held bigint NOT NULL CHECK (held >= 0),
    written bigint NOT NULL CHECK (written >= 0),
    differences jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(differences) = 'array'),
    faulty boolean GENERATED ALWAYS AS (jsonb_array_length(differences) > 0) STORED
);
CREATE INDEX reconciliations_latest ON hub.reconciliations (cabinet_id, id DESC);

-- Each cabinet's latest reconciliation (none: never reconciled).
CREATE VIEW hub.cabinet_books AS
    SELECT DISTINCT ON (cabinet_id) cabinet_id, checked_at, checked_by, books_id, held, written,
           differences, faulty
      FROM hub.reconciliations
     ORDER BY cabinet_id, id DESC;

REVOKE ALL ON hub.reconciliations, hub.cabinet_books FROM PUBLIC;
GRANT SELECT ON hub.reconciliations, hub.cabinet_books TO {{dashboard}};

-- What the dashboard looks up for each cabinet: its meters' latest values, its credits (the
-- latest ledger row) and its tilts.
CREATE INDEX events_meters ON hub.events (cabinet_id, (payload ->> 'name'), seq DESC) WHERE kind = 'meter';
CREATE INDEX events_ledger ON hub.events (cabinet_id, seq DESC) WHERE kind = 'ledger';
CREATE INDEX events_tilts ON hub.events (cabinet_id, seq)
    WHERE kind = 'event' AND payload ->> 'kind' IN ('tilt', 'tilt_cleared');
-- The dashboard's totals per day.
CREATE INDEX events_by_day ON hub.events (committed_at) WHERE kind IN ('ledger', 'round');
