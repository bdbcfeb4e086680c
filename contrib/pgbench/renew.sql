-- A node's lease renewal as NodeDirectory.renew writes it since migration 4: its node's one row,
-- the listings of its matches that changed since the last renewal (`changed` of its 4,000: one
-- UPDATE here for what the node writes one row at a time), and the sweep of rows placed on it
-- that no player made in time (an index lookup; none here). A match's lease is its node's: no
-- other match row is written. Set up with psql URL -f contrib/pgbench/renew-setup.sql, then
--   pgbench -n -f contrib/pgbench/renew.sql -D changed=0 -c 1 -T 20 URL     (nothing changed)
--   pgbench -n -f contrib/pgbench/renew.sql -D changed=100 -c 1 -T 20 URL   (4,000 five-minute duels' churn)
\set n random(1, 3)
\set first 3 * random(0, 3999 - :changed) + :n - 1
\set now 1800000000000 + random(0, 1000000)
BEGIN;
UPDATE nodes SET lease_until = :now + 10000, address = address WHERE name = 'node-' || :n;
UPDATE match_homes SET placed_until = NULL, spectators = spectators + 1
    WHERE match IN (SELECT 'duel-' || i FROM generate_series(:first, :first + 3 * (:changed - 1), 3) i) AND node = 'node-' || :n;
DELETE FROM match_homes WHERE node = 'node-' || :n AND placed_until <= :now;
END;
