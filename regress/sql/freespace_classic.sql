--
-- pg_freespace under PostgreSQL's own free-space policy (the runner starts
-- this script's sessions with fsm_policy=classic): what the map records for
-- each block after fixed inserts, deletes and VACUUMs is PostgreSQL's.
--
create extension pg_freespacemap;
create table fs (id int, v text) with (autovacuum_enabled = off);
insert into fs select g, repeat('x', 200) from generate_series(1, 300) g;
-- Before VACUUM the map holds what an insert found too little: the few
-- bytes each full page had left when the next row moved on.
select * from pg_freespace('fs');
delete from fs where id % 3 = 0;
delete from fs where id > 250;
-- Deletes do not touch the map.
select * from pg_freespace('fs');
vacuum fs;
select * from pg_freespace('fs');
select pg_freespace('fs', 0) as blk0, pg_freespace('fs', 5) as blk5, pg_freespace('fs', 1000) as beyond;
-- Inserts after VACUUM take the recorded space, and record what they leave.
insert into fs select g, repeat('y', 500) from generate_series(1, 40) g;
select * from pg_freespace('fs');
select (ctid::text::point)[0]::int as blk, count(*) from fs where v like 'y%' group by 1 order by 1;
vacuum fs;
select * from pg_freespace('fs');
-- An emptied table is truncated: no blocks left.
delete from fs;
vacuum fs;
select count(*) from pg_freespace('fs');
-- With a fill factor the map records a page's whole free space, the
-- reserve included; inserts stop at the fill factor all the same.
create table ff (id int, v text) with (fillfactor = 50, autovacuum_enabled = off);
insert into ff select g, repeat('z', 100) from generate_series(1, 200) g;
select * from pg_freespace('ff');
vacuum ff;
select * from pg_freespace('ff');
update ff set v = repeat('w', 100) where id % 10 = 0;
vacuum ff;
select * from pg_freespace('ff');
drop table fs, ff;
drop extension pg_freespacemap;
