-- The owner's watchdog (`hub watchdog`): a cabinet's login could still stop the floor. Its
-- stake takes the pool's row FOR UPDATE, and a client that turns the login's own timeouts
-- off (SET statement_timeout = 0, SET idle_in_transaction_session_timeout = 0), or chains
-- statements of under 10 s (PostgreSQL 15 and 16 have no transaction_timeout), held the
-- pool, every other cabinet's stake and every claim waiting, for as long as it liked. The
-- watchdog ends such a session and records it here.
--
-- The right to end a cabinet's session: the owner becomes a member of each cabinet's login
-- (pg_terminate_backend lets a role end the sessions of the roles it has the privileges of).
-- pg_signal_backend would let it end any session of the whole server, other databases'
-- too, and only a superuser may grant it. The owner made these logins and may already
-- change their passwords (CREATEROLE); membership adds only the right to end their
-- sessions. The owner bypasses the row-level security of its own tables, so the cabinets'
-- policies do not narrow what it reads.

-- Run by the owner as each cabinet is added (hub add-cabinet), and below for those there.
CREATE FUNCTION hub.let_the_owner_end_sessions_of(login text) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    EXECUTE format('GRANT %I TO %I', login,
        (SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = current_database()));
END
$$;
REVOKE ALL ON FUNCTION hub.let_the_owner_end_sessions_of(text) FROM PUBLIC;

SELECT hub.let_the_owner_end_sessions_of(role_name) FROM hub.cabinets
 WHERE EXISTS (SELECT 1 FROM pg_roles WHERE rolname = role_name);

-- Each session the watchdog ended: whose, which process, since when its transaction was
-- open, how long the watchdog saw it hold the pool's lock (at least), and what it was doing.
-- Written by the owner only; the dashboard reads it (the default privileges of 0003); a
-- cabinet has no right on it.
CREATE TABLE hub.sessions_ended (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    cabinet_id integer NOT NULL REFERENCES hub.cabinets,
    role_name text NOT NULL,
    pid integer NOT NULL,
    transaction_began timestamptz NOT NULL,
    held_ms bigint NOT NULL CHECK (held_ms >= 0),
    state text NOT NULL,
    query text NOT NULL,
    ended_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sessions_ended_by_time ON hub.sessions_ended (ended_at);
