-- pg_stat_bgwriter's columns (PostgreSQL 15) and pg_stat_reset_shared's
-- targets; the counters themselves vary from run to run.
SELECT * FROM pg_stat_bgwriter WHERE false;
SELECT count(*) FROM pg_stat_bgwriter;
SELECT checkpoints_timed >= 0 AS timed, checkpoints_req >= 0 AS req, checkpoint_write_time >= 0 AS wt,
       checkpoint_sync_time >= 0 AS st, buffers_checkpoint >= 0 AS bc, buffers_alloc >= 0 AS ba,
       stats_reset IS NOT NULL AS has_reset
  FROM pg_stat_bgwriter;
SELECT pg_stat_reset_shared('bgwriter');
SELECT pg_stat_reset_shared('nonsense');
SHOW checkpoint_completion_target;
SHOW min_wal_size;
SHOW max_wal_size;
SET checkpoint_completion_target = 0.5;
SET min_wal_size = '100MB';
