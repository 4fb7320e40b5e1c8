-- The hub's books: the floor's cabinets, the events their outboxes send, the linked
-- jackpot's pool, the contributions put on it, its awards, and the log of its parameters.
-- Money is in minor units (bigint), never a float; a rate is in parts per million of a
-- stake, and a part of a minor unit not yet on the pool is carried in millionths.
-- `hub migrate` runs this file in one transaction, as the hub's owner; the schema `hub`
-- and `hub.schema_migrations` are made before it (oasis_kiosk/floor/migrate.py).

CREATE TABLE hub.cabinets (
    id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL UNIQUE CHECK (name ~ '^[a-z][a-z0-9_]{0,29}$'),
    -- The PostgreSQL role the cabinet logs in with; one role, one cabinet.
    role_name text NOT NULL UNIQUE,
    added_at timestamptz NOT NULL DEFAULT now(),
    -- The highest sequence number held: the cabinet's events 1..last_seq are all here.
    last_seq bigint NOT NULL DEFAULT 0 CHECK (last_seq >= 0),
    last_seen timestamptz
);

-- The cabinet the session's role logs in for (NULL for any other role). SECURITY DEFINER:
-- a cabinet reads only its own row of hub.cabinets, and this is how it finds that row.
CREATE FUNCTION hub.session_cabinet() RETURNS integer
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$ SELECT id FROM hub.cabinets WHERE role_name = session_user::text $$;

-- What the cabinets' outboxes send, each row once: (cabinet_id, seq) is the key, a cabinet's
-- sequence has no gaps, and a row sent again is skipped (hub.receive_event).
CREATE TABLE hub.events (
    cabinet_id integer NOT NULL DEFAULT hub.session_cabinet() REFERENCES hub.cabinets,
    seq bigint NOT NULL CHECK (seq > 0),
    kind text NOT NULL CHECK (kind ~ '^[a-z][a-z0-9_]{0,62}$'),
    payload jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(payload) = 'object'),
    -- When the cabinet committed it, by the cabinet's clock; received_at is the hub's.
    committed_at timestamptz NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (cabinet_id, seq)
);
CREATE INDEX events_jackpot_hits ON hub.events (cabinet_id, (payload ->> 'round_id'))
    WHERE kind = 'jackpot_hit';

-- The linked jackpot: one row.
CREATE TABLE hub.pool (
    id boolean PRIMARY KEY DEFAULT true CHECK (id),
    value bigint NOT NULL CHECK (value >= 0),
    carry integer NOT NULL DEFAULT 0 CHECK (carry >= 0 AND carry < 1000000),
    reset bigint NOT NULL CHECK (reset >= 0),
    rate_ppm integer NOT NULL CHECK (rate_ppm BETWEEN 0 AND 1000000),
    maximum bigint NOT NULL,
    reserve bigint NOT NULL DEFAULT 0 CHECK (reserve >= 0),
    reserve_carry integer NOT NULL DEFAULT 0 CHECK (reserve_carry >= 0 AND reserve_carry < 1000000),
    reserve_rate_ppm integer NOT NULL CHECK (reserve_rate_ppm BETWEEN 0 AND 1000000),
    hits bigint NOT NULL DEFAULT 0 CHECK (hits >= 0),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CHECK (reset <= maximum),
    CHECK (value <= maximum),
    CHECK (rate_ppm + reserve_rate_ppm <= 1000000)
);
-- Nothing is fed until `hub set-parameters` gives the pool its rates.
INSERT INTO hub.pool (value, reset, rate_ppm, maximum, reserve_rate_ppm) VALUES (0, 0, 0, 0, 0);

-- Each `jackpot_contribution` event as it went on the pool: derived from the event in the
-- transaction that received it, so exactly once.
CREATE TABLE hub.contributions (
    cabinet_id integer NOT NULL,
    seq bigint NOT NULL,
    round_id text NOT NULL,
    stake bigint NOT NULL CHECK (stake >= 0),
    -- Whole minor units: onto the pool; the pool's share above its maximum (to the reserve);
    -- the reserve's own share.
    to_pool bigint NOT NULL CHECK (to_pool >= 0),
    overflow bigint NOT NULL CHECK (overflow >= 0),
    to_reserve bigint NOT NULL CHECK (to_reserve >= 0),
    pool_after bigint NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (cabinet_id, seq),
    FOREIGN KEY (cabinet_id, seq) REFERENCES hub.events
);

-- The jackpot's awards: one per cabinet and round, so a claim made twice finds the first.
CREATE TABLE hub.awards (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    cabinet_id integer NOT NULL REFERENCES hub.cabinets,
    round_id text NOT NULL CHECK (length(round_id) BETWEEN 1 AND 200),
    amount bigint NOT NULL CHECK (amount >= 0),
    -- The pool after the award: its reset value plus what the reserve could give.
    reset bigint NOT NULL,
    from_reserve bigint NOT NULL CHECK (from_reserve >= 0),
    pool_after bigint NOT NULL,
    claimed_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (cabinet_id, round_id)
);

-- Every change of the pool's parameters: who (as given), the role that made it, when, and
-- the pool before and after.
CREATE TABLE hub.parameter_changes (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    changed_at timestamptz NOT NULL DEFAULT now(),
    changed_by text NOT NULL CHECK (length(btrim(changed_by)) > 0),
    role_name text NOT NULL DEFAULT session_user,
    old jsonb NOT NULL,
    new jsonb NOT NULL
);
