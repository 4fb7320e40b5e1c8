-- New credentials for a cabinet. A stolen password stayed valid: `hub add-cabinet` refuses a
-- cabinet the hub has, and nothing else gave its login another. `hub new-credentials NAME
-- --out FILE --by WHO` gives the login a new random password (its SCRAM verifier only reaches
-- the server), the hub's settings again (0018) and ends its sessions; each is recorded here,
-- with who and when. Written by the owner only; the dashboard reads it (the default privileges
-- of 0003); a cabinet has no right on it.
CREATE TABLE hub.credentials_replaced (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    cabinet_id integer NOT NULL REFERENCES hub.cabinets,
    role_name text NOT NULL,
    replaced_by text NOT NULL CHECK (replaced_by ~ '\S'),
    replaced_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
