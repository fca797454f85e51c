-- pg_class.relpages and reltuples are what VACUUM and ANALYZE recorded:
-- 0 and -1 for a table neither has seen.
create table rs (a int, b text) with (autovacuum_enabled = off);
select relpages, reltuples from pg_class where relname = 'rs';
insert into rs select g, 'row ' || g from generate_series(1, 1000) g;
select relpages, reltuples from pg_class where relname = 'rs';
analyze rs;
select relpages, reltuples from pg_class where relname = 'rs';
delete from rs where a <= 400;
vacuum rs;
select relpages, reltuples from pg_class where relname = 'rs';
select relpages, reltuples from pg_class where relname = 'rs' and relpages = pg_relation_size('rs') / 8192;
drop table rs;
