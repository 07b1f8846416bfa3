-- Source leases (ports.SourceLeases): of the nodes sharing this database,
-- the one named by holder runs the source until expires_at, unless it
-- renews. Time is the database's, so nodes' clocks need not agree.
CREATE TABLE source_leases (
    source     text PRIMARY KEY,
    holder     text NOT NULL,
    expires_at timestamptz NOT NULL
);
