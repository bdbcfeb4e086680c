-- A transaction the size of setgame's record of a finished game (45 statements, SERIALIZABLE), on
-- pgbench's own tables: README, "From one server to three". pgbench -i -s 10 URL, then
--   pgbench -n -f contrib/pgbench/game.sql -c 3 -T 20 URL
\set a1 random(1, 100000 * :scale)
\set a2 random(1, 100000 * :scale)
BEGIN ISOLATION LEVEL SERIALIZABLE;
SELECT abalance FROM pgbench_accounts WHERE aid = :a1;
SELECT abalance FROM pgbench_accounts WHERE aid = :a2;
SELECT abalance FROM pgbench_accounts WHERE aid = :a1;
SELECT abalance FROM pgbench_accounts WHERE aid = :a2;
SELECT abalance FROM pgbench_accounts WHERE aid = :a1;
SELECT abalance FROM pgbench_accounts WHERE aid = :a2;
SELECT abalance FROM pgbench_accounts WHERE aid = :a1;
SELECT abalance FROM pgbench_accounts WHERE aid = :a2;
SELECT abalance FROM pgbench_accounts WHERE aid = :a1;
UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :a1;
UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :a2;
UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :a1;
UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :a2;
UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :a1;
UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :a2;
UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :a1;
UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :a2;
UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :a1;
UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :a2;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (1, 1, :a1, 1, CURRENT_TIMESTAMP);
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (1, 1, :a2, 1, CURRENT_TIMESTAMP);
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (2, 1, :a1, 1, CURRENT_TIMESTAMP);
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (2, 1, :a2, 1, CURRENT_TIMESTAMP);
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (3, 1, :a1, 1, CURRENT_TIMESTAMP);
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (3, 1, :a2, 1, CURRENT_TIMESTAMP);
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (4, 1, :a1, 1, CURRENT_TIMESTAMP);
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (4, 1, :a2, 1, CURRENT_TIMESTAMP);
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (5, 1, :a1, 1, CURRENT_TIMESTAMP);
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (5, 1, :a2, 1, CURRENT_TIMESTAMP);
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (6, 1, :a1, 1, CURRENT_TIMESTAMP);
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (6, 1, :a2, 1, CURRENT_TIMESTAMP);
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (7, 1, :a1, 1, CURRENT_TIMESTAMP);
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (7, 1, :a2, 1, CURRENT_TIMESTAMP);
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (8, 1, :a1, 1, CURRENT_TIMESTAMP);
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (8, 1, :a2, 1, CURRENT_TIMESTAMP);
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (9, 1, :a1, 1, CURRENT_TIMESTAMP);
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (9, 1, :a2, 1, CURRENT_TIMESTAMP);
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (10, 1, :a1, 1, CURRENT_TIMESTAMP);
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (10, 1, :a2, 1, CURRENT_TIMESTAMP);
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (11, 1, :a1, 1, CURRENT_TIMESTAMP);
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (11, 1, :a2, 1, CURRENT_TIMESTAMP);
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (12, 1, :a1, 1, CURRENT_TIMESTAMP);
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (12, 1, :a2, 1, CURRENT_TIMESTAMP);
END;
