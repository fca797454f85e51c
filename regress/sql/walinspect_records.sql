--
-- The WAL of a heap relation, record by record, as pg_walinspect shows it:
-- the same statements write the same records, of the same lengths, with
-- the same descriptions, on PostgreSQL and on minipg.
--
-- Left out because they cannot agree: the LSN, xid and prev_lsn columns
-- (positions in the log and transaction ids differ between servers); the
-- xids inside descriptions (masked as X: xmax, locking xid,
-- latestRemovedXid; a 0 stays 0); the database and relfilenode numbers in
-- block_ref (masked as D/N); records of other relations and other resource
-- managers (commits carry timestamps, checkpoints the server's state, and
-- the log is the whole cluster's, other databases' included: relfilenodes
-- come from the cluster-wide OID counter, so the filenode alone picks
-- this table);
-- Heap2/VISIBLE records, which VACUUM writes for the visibility map, a fork
-- minipg does not have. The CHECKPOINT first makes the first change of
-- every page after it carry a full-page image on both servers, whatever
-- the checkpoints before. minipg runs this script with fsm_policy =
-- classic (regress_test.go's classicPlacement), so that rows go where
-- PostgreSQL's free space map puts them.
--
create extension pg_walinspect;
create table walrec (id int, v text) with (autovacuum_enabled = off);
insert into walrec select g, repeat('a', 100) from generate_series(1, 60) g;
create table walrec_flush (n int);
checkpoint;
select pg_current_wal_insert_lsn() as lsn1 \gset
-- An INSERT on a page changed before the checkpoint: a full-page image.
insert into walrec values (61, repeat('b', 100));
-- The same page again: no image now.
insert into walrec values (62, repeat('b', 100));
-- An UPDATE that stays on its page (block 1 has room; there is no index:
-- HOT), with a common prefix and suffix left out of the record.
update walrec set v = repeat('b', 50) || 'x' || repeat('b', 49) where id = 61;
-- An UPDATE whose new version does not fit on its full page (block 0):
-- the old version is locked, the new one goes to block 1.
update walrec set v = repeat('d', 200) where id = 3;
delete from walrec where id in (4, 5);
vacuum walrec;
select pg_current_wal_insert_lsn() as lsn2 \gset
-- A commit flushes the log past VACUUM's records: pg_walinspect reads only
-- up to the flushed end.
insert into walrec_flush values (1);
select resource_manager, record_type, record_length, main_data_length, fpi_length,
       regexp_replace(description, '(xmax|xid|latestRemovedXid) [1-9][0-9]*', '\1 X', 'g') as description,
       regexp_replace(block_ref, 'rel 1663/[0-9]+/[0-9]+', 'rel 1663/D/N', 'g') as block_ref
  from pg_get_wal_records_info(:'lsn1', :'lsn2')
 where block_ref like '%rel 1663/%/' || pg_relation_filenode('walrec') || ' fork main %'
   and record_type <> 'VISIBLE'
 order by start_lsn;
-- pg_get_wal_stats agrees with pg_get_wal_records_info over the same range:
-- counts, record sizes (without images) and image sizes, per record type.
select count(*) > 0 as some_types,
       bool_and(s.count = r.n and s.record_size = r.rec and s.fpi_size = r.fpi
                and s.combined_size = r.rec + r.fpi) as stats_agree
  from pg_get_wal_stats(:'lsn1', :'lsn2', true) s
  join (select resource_manager || '/' || record_type as k, count(*) as n,
               sum(record_length - fpi_length) as rec, sum(fpi_length) as fpi
          from pg_get_wal_records_info(:'lsn1', :'lsn2') group by 1) r
    on s."resource_manager/record_type" = r.k;
select sum(count) = (select count(*) from pg_get_wal_records_info(:'lsn1', :'lsn2')) as counts_agree,
       round(sum(count_percentage)) as pct
  from pg_get_wal_stats(:'lsn1', :'lsn2');
select count(*), sum(length(v)) from walrec;
drop table walrec, walrec_flush;
drop extension pg_walinspect;
