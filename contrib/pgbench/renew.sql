-- A node's lease renewal as NodeDirectory.renew writes it since migration 5: its node's one row
-- (and a read of whether an operator drains it), the listings of its matches that changed since
-- the last renewal (`changed` of its 4,000: one UPDATE here for what the node writes one row at a
-- time), and the sweep of rows placed on it that no player made in time (an index lookup; none). A match's lease is its node's: no
-- other match row is written. Set up with psql URL -f contrib/pgbench/renew-setup.sql, then
--   pgbench -n -f contrib/pgbench/renew.sql -D changed=0 -c 1 -T 20 URL     (nothing changed)
--   pgbench -n -f contrib/pgbench/renew.sql -D changed=100 -c 1 -T 20 URL   (4,000 five-minute duels' churn)
\set n random(1, 3)
\set first 3 * random(0, 3999 - :changed) + :n - 1
\set now 1800000000000 + random(0, 1000000)
BEGIN;
INSERT INTO nodes (name, address, lease_until, started) VALUES ('node-' || :n, '10.0.0.' || :n || ':7380', :now + 10000, :now)
    ON CONFLICT (name) DO UPDATE SET lease_until = excluded.lease_until, address = excluded.address;
SELECT draining FROM nodes WHERE name = 'node-' || :n;
UPDATE match_homes SET placed_until = NULL, spectators = spectators + 1
    WHERE match IN (SELECT 'duel-' || i FROM generate_series(:first, :first + 3 * (:changed - 1), 3) i) AND node = 'node-' || :n;
DELETE FROM match_homes WHERE node = 'node-' || :n AND placed_until <= :now;
END;
