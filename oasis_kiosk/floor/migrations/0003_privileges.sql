-- Least privilege. The hub's owner (who runs `hub migrate`) owns every object here and alone
-- changes the schema and the pool's parameters. Two group roles, made by `hub migrate` for
-- this database ({{cabinets}} and {{dashboard}}), carry every other right:
-- - a cabinet (each logs in with its own role, a member of {{cabinets}}) sends its own
--   events, reads its own row, events, contributions and awards and the pool's value, and
--   claims through hub.claim; row-level security keeps it to its own rows;
-- - the dashboard's roles (members of {{dashboard}}) read everything and change nothing.
-- Nobody else may connect.

REVOKE ALL ON DATABASE {{database}} FROM PUBLIC;
GRANT CONNECT ON DATABASE {{database}} TO {{cabinets}}, {{dashboard}};

REVOKE ALL ON SCHEMA hub FROM PUBLIC;
GRANT USAGE ON SCHEMA hub TO {{cabinets}}, {{dashboard}};
REVOKE ALL ON ALL TABLES IN SCHEMA hub FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA hub FROM PUBLIC;
ALTER DEFAULT PRIVILEGES IN SCHEMA hub REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;

GRANT SELECT ON hub.cabinets, hub.events, hub.contributions, hub.awards TO {{cabinets}};
GRANT INSERT ON hub.events TO {{cabinets}};
GRANT SELECT (value, hits, updated_at) ON hub.pool TO {{cabinets}};
GRANT EXECUTE ON FUNCTION hub.session_cabinet(), hub.claim(text) TO {{cabinets}};

GRANT SELECT ON ALL TABLES IN SCHEMA hub TO {{dashboard}};
ALTER DEFAULT PRIVILEGES IN SCHEMA hub GRANT SELECT ON TABLES TO {{dashboard}};

ALTER TABLE hub.cabinets ENABLE ROW LEVEL SECURITY;
ALTER TABLE hub.events ENABLE ROW LEVEL SECURITY;
ALTER TABLE hub.contributions ENABLE ROW LEVEL SECURITY;
ALTER TABLE hub.awards ENABLE ROW LEVEL SECURITY;

CREATE POLICY cabinet_itself ON hub.cabinets FOR SELECT TO {{cabinets}}
    USING (role_name = session_user::text);
CREATE POLICY cabinet_reads_own ON hub.events FOR SELECT TO {{cabinets}}
    USING (cabinet_id = hub.session_cabinet());
CREATE POLICY cabinet_sends_own ON hub.events FOR INSERT TO {{cabinets}}
    WITH CHECK (cabinet_id = hub.session_cabinet());
CREATE POLICY cabinet_reads_own ON hub.contributions FOR SELECT TO {{cabinets}}
    USING (cabinet_id = hub.session_cabinet());
CREATE POLICY cabinet_reads_own ON hub.awards FOR SELECT TO {{cabinets}}
    USING (cabinet_id = hub.session_cabinet());

CREATE POLICY dashboard_reads ON hub.cabinets FOR SELECT TO {{dashboard}} USING (true);
CREATE POLICY dashboard_reads ON hub.events FOR SELECT TO {{dashboard}} USING (true);
CREATE POLICY dashboard_reads ON hub.contributions FOR SELECT TO {{dashboard}} USING (true);
CREATE POLICY dashboard_reads ON hub.awards FOR SELECT TO {{dashboard}} USING (true);
