-- The server's functions any login may call that let one login stop the whole server or
-- the floor; run once by a superuser on the hub's database, after `hub migrate`
-- (docs/floor.md, "Functions any login may call"):
--
--     psql -v ON_ERROR_STOP=1 -d oasis_hub -U postgres -f server_functions.sql
--
-- * The advisory locks: a session lock lasts until it is released or the session ends, and
--   each one takes a slot of the server's one shared lock table. A login that takes them by
--   the million fills it, and then no session of any database can take a lock, nor anyone,
--   a superuser included, connect. Only the owner may take them here: `hub migrate`
--   serialises itself with pg_advisory_xact_lock(bigint).
-- * pg_notify: any login may fill the server's one NOTIFY queue (8 GB). The hub no longer
--   notifies (migration 0014), so nobody here keeps it.
--
-- A function's privileges are kept in each database's catalog: this holds for the hub's
-- database only, and a login that may connect to another database of the server (by
-- default everyone may connect to `postgres`) can still take advisory locks there;
-- docs/floor.md says how to confine the hub's logins to the hub's database. Running it
-- again changes nothing.
DO $$
DECLARE
    owner name := (SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = current_database());
    notifying text;
    lock_function text;
BEGIN
    IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        RAISE EXCEPTION 'server_functions.sql is run by a superuser, not by %', current_user
            USING HINT = 'psql -U postgres -d ' || current_database() || ' -f server_functions.sql';
    END IF;
    IF to_regclass('hub.schema_migrations') IS NULL THEN
        RAISE EXCEPTION 'database % holds no hub: run server_functions.sql on the hub''s database, after hub migrate',
            current_database();
    END IF;
    -- A hub that still notifies would have every stake refused: it is migrated first.
    SELECT string_agg(p.oid::regprocedure::text, ', ') INTO notifying FROM pg_proc p
     WHERE p.pronamespace = 'hub'::regnamespace AND p.prosrc LIKE '%pg_notify%';
    IF notifying IS NOT NULL THEN
        RAISE EXCEPTION 'the hub''s functions % still notify: run hub migrate of this version first', notifying;
    END IF;
    FOREACH lock_function IN ARRAY ARRAY[
        'pg_advisory_lock', 'pg_advisory_lock_shared', 'pg_try_advisory_lock', 'pg_try_advisory_lock_shared',
        'pg_advisory_xact_lock', 'pg_advisory_xact_lock_shared', 'pg_try_advisory_xact_lock',
        'pg_try_advisory_xact_lock_shared'
    ] LOOP
        EXECUTE format('REVOKE EXECUTE ON FUNCTION pg_catalog.%I(bigint) FROM PUBLIC', lock_function);
        EXECUTE format('REVOKE EXECUTE ON FUNCTION pg_catalog.%I(integer, integer) FROM PUBLIC', lock_function);
    END LOOP;
    REVOKE EXECUTE ON FUNCTION pg_catalog.pg_notify(text, text) FROM PUBLIC;
    EXECUTE format('GRANT EXECUTE ON FUNCTION pg_catalog.pg_advisory_xact_lock(bigint) TO %I', owner);
END
$$;
