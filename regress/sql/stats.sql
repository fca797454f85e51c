-- Table statistics (pg_stat_user_tables) as PostgreSQL 15 counts them: row
-- changes applied when their transaction ends, an aborted transaction's new
-- row versions dead, VACUUM and ANALYZE counting live and dead rows anew.
-- The tables keep autovacuum off so that no run changes the counts.
CREATE TABLE st (id int PRIMARY KEY, v text) WITH (autovacuum_enabled = off);
CREATE TABLE nx (id int, v text) WITH (autovacuum_enabled = off);
INSERT INTO st VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd');
INSERT INTO nx VALUES (1, 'a'), (2, 'b');
BEGIN;
INSERT INTO st VALUES (5, 'e');
UPDATE st SET v = 'z' WHERE id = 1;
ROLLBACK;
UPDATE st SET v = 'B' WHERE id = 2;
DELETE FROM st WHERE id = 3;
SELECT * FROM nx ORDER BY id;
SELECT pg_stat_force_next_flush();
SELECT relname, n_tup_ins, n_tup_upd, n_tup_del, n_tup_hot_upd, n_live_tup, n_dead_tup,
       n_mod_since_analyze, n_ins_since_vacuum
  FROM pg_stat_user_tables WHERE relname IN ('st', 'nx') ORDER BY relname;
SELECT relname, seq_scan, seq_tup_read, idx_scan, idx_tup_fetch, last_vacuum, last_analyze
  FROM pg_stat_all_tables WHERE relname = 'nx';
VACUUM st;
ANALYZE nx;
SELECT pg_stat_force_next_flush();
SELECT relname, n_live_tup, n_dead_tup, n_mod_since_analyze, n_ins_since_vacuum,
       last_vacuum IS NOT NULL AS vacuumed, vacuum_count, last_analyze IS NOT NULL AS analyzed,
       analyze_count, autovacuum_count, autoanalyze_count
  FROM pg_stat_user_tables WHERE relname IN ('st', 'nx') ORDER BY relname;
-- VACUUM (ANALYZE) does both; ANALYZE runs in a transaction block, VACUUM not.
VACUUM (ANALYZE) nx;
BEGIN;
ANALYZE st;
COMMIT;
BEGIN;
VACUUM st;
ROLLBACK;
ANALYZE nosuch;
SELECT pg_stat_force_next_flush();
SELECT relname, vacuum_count, analyze_count FROM pg_stat_user_tables
  WHERE relname IN ('st', 'nx') ORDER BY relname;
-- The autovacuum storage parameters.
ALTER TABLE st SET (autovacuum_vacuum_threshold = 10, autovacuum_vacuum_scale_factor = 0.05,
  autovacuum_vacuum_insert_threshold = -1, autovacuum_analyze_scale_factor = 0);
ALTER TABLE st SET (autovacuum_vacuum_scale_factor = 101);
ALTER TABLE st SET (autovacuum_vacuum_threshold = -5);
ALTER TABLE st SET (autovacuum_enabled = maybe);
ALTER TABLE st RESET (autovacuum_vacuum_threshold, autovacuum_enabled);
CREATE TABLE wv (a int) WITH (autovacuum_naptime = 3);
SET autovacuum_naptime = 5;
SET vacuum_cost_limit = 0;
SET vacuum_cost_delay = 101;
SET vacuum_cost_delay = 2;
SHOW vacuum_cost_delay;
RESET vacuum_cost_delay;
-- pg_stat_reset() zeroes every counter, n_live_tup and n_dead_tup included.
SELECT pg_stat_reset();
SELECT relname, seq_scan, n_tup_ins, n_live_tup, n_dead_tup, vacuum_count, last_vacuum
  FROM pg_stat_user_tables WHERE relname IN ('st', 'nx') ORDER BY relname;
DROP TABLE st, nx;
