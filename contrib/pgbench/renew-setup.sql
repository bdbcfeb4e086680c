-- 12,000 matches' homes on three nodes, as contrib/pgbench/renew.sql renews them.
DROP TABLE IF EXISTS homes;
CREATE TABLE homes (match text PRIMARY KEY, node text NOT NULL, lease_until bigint NOT NULL, players text);
CREATE INDEX ON homes (node);
INSERT INTO homes
    SELECT 'duel-' || i, 'node-' || (i % 3 + 1), 0, '[{"name":"ann","rating":1500},{"name":"bob","rating":1500}]'
    FROM generate_series(1, 12000) i;
