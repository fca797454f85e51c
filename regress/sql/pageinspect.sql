-- The contrib modules pageinspect, pg_freespacemap and pg_walinspect:
-- CREATE / DROP EXTENSION, and the pages, free space and WAL records of a
-- table built by fixed statements. Only columns that do not depend on
-- LSNs, xids or relfilenodes are shown.

-- The functions exist only while their extension does.
SELECT get_raw_page('inspect_t', 0);
SELECT * FROM pg_freespace('inspect_t');
CREATE EXTENSION pageinspect;
CREATE EXTENSION pageinspect;
CREATE EXTENSION IF NOT EXISTS pageinspect;
CREATE EXTENSION pg_freespacemap WITH SCHEMA public;
CREATE EXTENSION pg_walinspect;
CREATE EXTENSION no_such_extension;
CREATE EXTENSION pg_walinspect_no_such;
SELECT extname, extowner, extnamespace, extrelocatable, extversion
  FROM pg_extension WHERE extname IN ('pageinspect', 'pg_freespacemap', 'pg_walinspect') ORDER BY extname;
DROP EXTENSION pg_walinspect;
DROP EXTENSION pg_walinspect;
DROP EXTENSION IF EXISTS pg_walinspect;
CREATE EXTENSION pg_walinspect;

-- Seven blocks of rows of 200 bytes, then most rows of blocks 1 and 2 and a
-- few of block 4 deleted, then VACUUM.
CREATE TABLE inspect_t (id int NOT NULL, flag int, pad text);
INSERT INTO inspect_t SELECT g, CASE WHEN g % 5 = 0 THEN NULL ELSE g % 3 END, repeat(chr(97 + g % 26), 200)
  FROM generate_series(1, 200) g;
SELECT pg_relation_size('inspect_t') / 8192 AS blocks;
SELECT lower, upper, special, pagesize, version, checksum FROM page_header(get_raw_page('inspect_t', 0));
SELECT lp, lp_off, lp_flags, lp_len, t_xmax = '0' AS live, t_field3, t_ctid, t_infomask2, t_hoff, t_bits, t_oid,
       lp_len - t_hoff AS data_len, substr(t_data::text, 1, 26) AS data_head
  FROM heap_page_items(get_raw_page('inspect_t', 0)) WHERE lp <= 8;
SELECT count(*), sum(lp_len) FROM heap_page_items(get_raw_page('inspect_t', 'main', 5));
DELETE FROM inspect_t WHERE id BETWEEN 40 AND 100;
DELETE FROM inspect_t WHERE id IN (150, 151, 152);
SELECT lp, lp_flags, lp_len, t_xmax = '0' AS live, t_ctid, t_infomask2
  FROM heap_page_items(get_raw_page('inspect_t', 1)) WHERE lp <= 5;
VACUUM inspect_t;
SELECT lower, upper, special, pagesize, version FROM page_header(get_raw_page('inspect_t', 1));
SELECT lp, lp_off, lp_flags, lp_len, t_ctid, t_hoff, t_bits, substr(t_data::text, 1, 18) AS data_head
  FROM heap_page_items(get_raw_page('inspect_t', 1)) WHERE lp <= 5;
SELECT lp_flags, count(*) FROM heap_page_items(get_raw_page('inspect_t', 4)) GROUP BY lp_flags ORDER BY lp_flags;
-- Pages VACUUM left below half full (pages fuller than that advertise no
-- space under minipg's default locality policy; classic shows them as
-- PostgreSQL does: see executor's pageinspect_test.go).
SELECT * FROM pg_freespace('inspect_t') WHERE blkno IN (1, 2, 6) ORDER BY blkno;
SELECT pg_freespace('inspect_t', 1) AS blk1, pg_freespace('inspect_t', 2) AS blk2, pg_freespace('inspect_t', 100) AS beyond;
SELECT * FROM pg_freespace('inspect_t') WITH ORDINALITY AS f WHERE avail > 1000 ORDER BY blkno;
SELECT fsm_page_contents(get_raw_page('inspect_t', 'fsm', 2)) IS NOT NULL AS has_leaf_page;

-- The WAL of one more statement: an INSERT on a page already changed
-- since the last checkpoint.
CREATE TABLE inspect_lsn (l pg_lsn);
INSERT INTO inspect_lsn SELECT pg_current_wal_lsn();
INSERT INTO inspect_t VALUES (1000, 1, 'x');
SELECT resource_manager, record_type, fpi_length,
       block_ref LIKE 'blkref #0: rel 1663/%/% fork main blk %' AS one_block_ref
  FROM pg_get_wal_records_info((SELECT l FROM inspect_lsn), pg_current_wal_lsn())
  WHERE resource_manager = 'Heap';
SELECT "resource_manager/record_type", count
  FROM pg_get_wal_stats((SELECT l FROM inspect_lsn), pg_current_wal_lsn(), true)
  WHERE "resource_manager/record_type" LIKE 'Heap/%';
SELECT count(*) > 0 AS some FROM pg_get_wal_records_info_till_end_of_wal((SELECT l FROM inspect_lsn));
SELECT count(*) > 0 AS some FROM pg_get_wal_stats_till_end_of_wal((SELECT l FROM inspect_lsn));

-- Bad arguments.
SELECT get_raw_page('inspect_t', 7);
SELECT get_raw_page('inspect_t', -1);
SELECT get_raw_page('inspect_t', 'bogus', 0);
SELECT get_raw_page('no_such_table', 0);
SELECT get_raw_page('inspect_t', 'main', NULL) IS NULL AS null_block;
SELECT * FROM page_header('\x00'::bytea);
SELECT * FROM heap_page_items('\x0000'::bytea);
SELECT fsm_page_contents('\x00'::bytea);
SELECT pg_freespace('inspect_t', -1);
SELECT * FROM pg_freespace(NULL);
SELECT * FROM pg_get_wal_records_info((SELECT l FROM inspect_lsn), (SELECT l FROM inspect_lsn));
SELECT * FROM pg_get_wal_records_info('0/10', pg_current_wal_lsn());
SELECT * FROM pg_get_wal_records_info('nonsense', '0/0');

DROP TABLE inspect_t, inspect_lsn;
DROP EXTENSION pageinspect, pg_freespacemap, pg_walinspect;
SELECT count(*) FROM pg_extension WHERE extname IN ('pageinspect', 'pg_freespacemap', 'pg_walinspect');
SELECT * FROM page_header('\x00'::bytea);
