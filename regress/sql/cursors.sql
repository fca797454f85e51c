-- SQL cursors: DECLARE, FETCH and MOVE forward, CLOSE; psql's FETCH_COUNT.
create table cur_t (id int primary key, v text);
insert into cur_t select g, 'v' || g from generate_series(1, 10) g;
declare c cursor for select * from cur_t order by id;
begin;
declare c cursor for select * from cur_t order by id;
fetch c;
fetch 2 from c;
fetch forward 3 in c;
move 2 c;
fetch next from c;
fetch all from c;
fetch c;
declare c cursor for select 1;
declare d no scroll cursor for select id * 10 as x from cur_t where id > 8;
insert into cur_t values (11, 'new');
fetch all in d;
move all in d;
close d;
fetch d;
close nosuch;
declare e scroll cursor for select 1;
rollback;
begin;
declare h cursor for select v from cur_t where id < 4 order by id;
declare i cursor for select count(*) from cur_t;
close all;
fetch h;
commit;
fetch c;
\set FETCH_COUNT 3
select id, v from cur_t order by id;
\unset FETCH_COUNT
drop table cur_t;
