--
-- The statements a PostgreSQL user studies the heap with, as written:
-- fill a table from generate_series, see which block each row is on, and
-- look inside a page, the free space map and the WAL. Columns that hold
-- xids and LSNs differ from server to server, so those statements run with
-- their output discarded and the deterministic parts are printed after.
--
create extension if not exists pageinspect;
create extension if not exists pg_freespacemap;
create extension if not exists pg_walinspect;
create table t (id int, v text);
select pg_current_wal_lsn() as lsn1 \gset
insert into t select g, repeat('x', 100) from generate_series(1, 10000) g;
select pg_current_wal_lsn() as lsn2 \gset
select (ctid::text::point)[0]::int as blk, count(*) from t group by 1 order by 1 limit 5;
select count(*) as blocks, min(n), max(n) from (select (ctid::text::point)[0]::int as blk, count(*) as n from t group by 1) s;
\o /dev/null
select * from heap_page_items(get_raw_page('t', 0));
select * from pg_freespace('t');
select * from pg_get_wal_records_info(:'lsn1', :'lsn2');
\o
select lp, lp_off, lp_flags, lp_len, t_hoff, t_ctid from heap_page_items(get_raw_page('t', 0)) order by lp limit 3;
select count(*) from heap_page_items(get_raw_page('t', 0));
vacuum t;
-- A page filled to its fill factor is closed under the locality policy: the
-- map holds 0 for it where PostgreSQL's holds the last few bytes (32), too
-- few for a row of t. The blocks with room for a row are the same.
select count(*) as blocks from pg_freespace('t');
select blkno, avail from pg_freespace('t') where avail >= 136 order by blkno;
select resource_manager, record_type, count(*) >= 10000 / 61 as enough
from pg_get_wal_records_info(:'lsn1', :'lsn2')
where resource_manager = 'Heap' and record_type like 'INSERT%'
group by 1, 2 order by 2;
drop table t;
drop extension pg_walinspect;
drop extension pg_freespacemap;
drop extension pageinspect;
