-- A node's lease renewal as migration 2 writes it: every match row of the node rewritten. Set up with
--   psql URL -f contrib/pgbench/renew-setup.sql, then pgbench -n -f contrib/pgbench/renew.sql -c 1 -T 20 URL
\set n random(1, 3)
UPDATE homes SET lease_until = lease_until + 2000 WHERE node = 'node-' || :n;
