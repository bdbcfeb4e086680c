-- What a node reads for `list` (NodeDirectory.otherListings), at most once a second while anyone
-- lists: every other live node's listings. On renew-setup.sql's three nodes that is 8,000 rows.
--   pgbench -n -f contrib/pgbench/list.sql -c 1 -T 20 URL
\set n random(1, 3)
SELECT h.match, h.mode, h.variant, h.state, h.players, h.spectators, n.address FROM match_homes h JOIN nodes n ON n.name = h.node
    WHERE h.node <> 'node-' || :n AND n.lease_until > 0 AND h.seats > 0 ORDER BY h.match;
