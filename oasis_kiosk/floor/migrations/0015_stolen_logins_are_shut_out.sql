-- The watchdog (`hub watchdog`) ended only a session holding the pool's lock, and the login
-- logged in again at once. A stolen cabinet login could still:
--
-- * hold any other transaction open (idle on another table, or one long statement), which
--   holds back vacuum and makes `hub migrate`'s DDL wait behind it;
-- * hold an advisory lock in its session, outside any transaction;
-- * LISTEN and never read, filling the server's NOTIFY queue for every session;
-- * take turns with other stolen logins: each one ended reconnected and held again, and a
--   few of them rotating kept every honest stake from committing for 90 s.
--
-- The watchdog now ends each of these, disables the login (ALTER ROLE ... NOLOGIN), ends its
-- other sessions, and records why; `hub enable-cabinet NAME --by WHO` lets it in again,
-- recorded with who and when. Both tables are written by the owner only; the dashboard
-- reads them (the default privileges of 0003); a cabinet has no right on either.

-- A session held outside a transaction (an advisory lock, a LISTEN) has none to name.
ALTER TABLE hub.sessions_ended ALTER COLUMN transaction_began DROP NOT NULL;
-- Every session ended before this migration held the pool (0013 looked at nothing else).
ALTER TABLE hub.sessions_ended ADD COLUMN reason text NOT NULL DEFAULT 'pool held'
    CHECK (reason IN ('pool held', 'transaction held', 'advisory lock held', 'listening'));
ALTER TABLE hub.sessions_ended ALTER COLUMN reason DROP DEFAULT;
ALTER TABLE hub.sessions_ended ADD COLUMN login_disabled boolean NOT NULL DEFAULT false;
ALTER TABLE hub.sessions_ended ADD COLUMN other_sessions_ended integer NOT NULL DEFAULT 0
    CHECK (other_sessions_ended >= 0);
-- The time it was ended, not its transaction's start: `hub reconcile` lists those ended
-- while it ran, after its verdicts.
ALTER TABLE hub.sessions_ended ALTER COLUMN ended_at SET DEFAULT clock_timestamp();

-- Each login let in again by `hub enable-cabinet`: whose, by whom, when.
CREATE TABLE hub.logins_enabled (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    cabinet_id integer NOT NULL REFERENCES hub.cabinets,
    role_name text NOT NULL,
    enabled_by text NOT NULL CHECK (enabled_by ~ '\S'),
    enabled_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
