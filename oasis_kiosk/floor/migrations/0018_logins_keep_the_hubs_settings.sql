-- A login keeps the hub's settings. PostgreSQL lets any role change its own settings for
-- every session of it to come (ALTER ROLE itself SET statement_timeout = 0, for all its
-- databases or IN DATABASE one), and no right takes that away: a stolen cabinet's login
-- turned off the limits of 0011 and 0012, a dashboard's its sessions' read-only default. The
-- hub now says in one place what each of its logins has (hub.login_settings: a cabinet's
-- login the settings of hub.cabinet_login_settings, which hub.limit_cabinet_login gives it; a
-- dashboard's none), and the owner puts them back (hub.restore_login_settings: every setting
-- the server keeps for the login reset, in every database, and the hub's given again). The
-- watchdog does it for any login whose settings are not the hub's, and `hub enable-cabinet`
-- for the login it lets in again; each is recorded in hub.login_settings_restored, with what
-- the login had, who put them back and when. (Its own password too any role may change; the
-- hub cannot see it, as only a superuser reads a password's verifier: `hub new-credentials`
-- gives a cabinet a new one.)

-- A cabinet's login's settings, as `name=value`, in the server's own words (pg_db_role_setting).
CREATE FUNCTION hub.cabinet_login_settings() RETURNS text[]
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
AS $$
SELECT ARRAY['idle_in_transaction_session_timeout=10s', 'statement_timeout=10s',
             'tcp_keepalives_idle=10', 'tcp_keepalives_interval=5', 'tcp_keepalives_count=3']
       || CASE WHEN current_setting('server_version_num')::integer >= 170000
               THEN ARRAY['transaction_timeout=30s'] ELSE ARRAY[]::text[] END
$$;
REVOKE ALL ON FUNCTION hub.cabinet_login_settings() FROM PUBLIC;

-- 0012's limits, from the list above.
CREATE OR REPLACE FUNCTION hub.limit_cabinet_login(login text) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    setting text;
BEGIN
    EXECUTE format('ALTER ROLE %I CONNECTION LIMIT 3', login);
    FOREACH setting IN ARRAY hub.cabinet_login_settings() LOOP
        EXECUTE format('ALTER ROLE %I SET %I = %L', login, split_part(setting, '=', 1),
                       substr(setting, strpos(setting, '=') + 1));
    END LOOP;
END
$$;

-- Each login of the hub, a cabinet's (hub.cabinets; cabinet_id) or a dashboard's (a member of
-- the database's dashboard group; no cabinet_id), with the settings the server keeps for it
-- (`found`: in every database; one of a single database as `in database NAME: name=value`) and
-- those the hub gives it (`hubs`), each sorted.
CREATE FUNCTION hub.login_settings()
    RETURNS TABLE (role_name text, cabinet_id integer, found text[], hubs text[])
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
AS $$
WITH logins AS (
    SELECT r.oid, r.rolname::text AS role_name, c.id AS cabinet_id, hub.cabinet_login_settings() AS hubs
      FROM hub.cabinets c JOIN pg_roles r ON r.rolname = c.role_name
    UNION ALL
    SELECT r.oid, r.rolname::text, NULL, ARRAY[]::text[]
      FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid JOIN pg_roles r ON r.oid = m.member
     WHERE g.rolname = current_database() || '_dashboard'
       AND NOT EXISTS (SELECT 1 FROM hub.cabinets c WHERE c.role_name = r.rolname)
)
SELECT l.role_name, l.cabinet_id,
       ARRAY(SELECT CASE WHEN s.setdatabase = 0 THEN x.setting
                         ELSE format('in database %s: %s', coalesce(d.datname::text, s.setdatabase::text), x.setting)
                    END AS setting
               FROM pg_db_role_setting s
               CROSS JOIN LATERAL unnest(s.setconfig) AS x(setting)
               LEFT JOIN pg_database d ON d.oid = s.setdatabase
              WHERE s.setrole = l.oid
              ORDER BY 1),
       ARRAY(SELECT h FROM unnest(l.hubs) AS h ORDER BY 1)
  FROM logins l
$$;
REVOKE ALL ON FUNCTION hub.login_settings() FROM PUBLIC;

-- Run by the owner: every setting the server keeps for the login reset, in every database,
-- and a cabinet's login given the hub's again.
CREATE FUNCTION hub.restore_login_settings(login text) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    database text;
BEGIN
    FOR database IN
        SELECT d.datname FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase
         WHERE s.setrole = (SELECT oid FROM pg_roles WHERE rolname = login)
    LOOP
        EXECUTE format('ALTER ROLE %I IN DATABASE %I RESET ALL', login, database);
    END LOOP;
    EXECUTE format('ALTER ROLE %I RESET ALL', login);
    IF EXISTS (SELECT 1 FROM hub.cabinets WHERE role_name = login) THEN
        PERFORM hub.limit_cabinet_login(login);
    END IF;
END
$$;
REVOKE ALL ON FUNCTION hub.restore_login_settings(text) FROM PUBLIC;

-- Each login whose settings were put back: whose, what it had, by whom, when. Written by the
-- owner only; the dashboard reads it (the default privileges of 0003); a cabinet has no right
-- on it.
CREATE TABLE hub.login_settings_restored (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    role_name text NOT NULL,
    cabinet_id integer REFERENCES hub.cabinets,
    found text[] NOT NULL,
    restored_by text NOT NULL CHECK (restored_by ~ '\S'),
    restored_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
