-- Three nodes holding 12,000 matches between them, in the tables a node writes (as migrations 2,
-- 4 and 5 make them), for contrib/pgbench/renew.sql. Every match was made (none still placed).
DROP TABLE IF EXISTS nodes, match_homes;
CREATE TABLE nodes (name TEXT PRIMARY KEY, address TEXT NOT NULL, lease_until BIGINT NOT NULL, started BIGINT NOT NULL,
    draining BIGINT NOT NULL DEFAULT 0);
CREATE TABLE match_homes (
    match TEXT PRIMARY KEY, node TEXT NOT NULL, lease_until BIGINT NOT NULL,
    mode TEXT NOT NULL, variant TEXT NOT NULL, state TEXT NOT NULL, seats INTEGER NOT NULL,
    players TEXT NOT NULL, spectators BIGINT NOT NULL, placed_until BIGINT);
CREATE INDEX match_homes_node ON match_homes (node);
CREATE INDEX match_homes_placed ON match_homes (node, placed_until) WHERE placed_until IS NOT NULL;
INSERT INTO nodes SELECT 'node-' || i, '10.0.0.' || i || ':7380', 10000, 0, 0 FROM generate_series(1, 3) i;
INSERT INTO match_homes
    SELECT 'duel-' || i, 'node-' || (i % 3 + 1), 0, 'duel', 'classic', 'playing', 2,
           '[{"name":"ann","present":true,"rating":1500,"score":0,"seat":0},{"name":"bob","present":true,"rating":1500,"score":0,"seat":1}]', 0, NULL
    FROM generate_series(0, 11999) i;
VACUUM ANALYZE nodes, match_homes;
