-- ORDER BY past work_mem: the sort writes runs to disk and merges them; the
-- answers are those of an in-memory sort (NULLs, DESC, several keys, OFFSET).
set work_mem = '64kB';
show work_mem;
create table big (id int, g int, t text, n numeric, d date);
insert into big select i, i % 97, 'row ' || (i * 7919 % 100003), (i % 1000) / 7.0, date '2020-01-01' + (i % 400) from generate_series(1, 60000) i;
insert into big values (null, null, null, null, null), (60001, 5, null, 1.5, null);
select count(*), sum(id), min(t), max(t) from (select * from big order by t desc nulls last, id) s;
select id, g, t, n, d from big order by t, id limit 5;
select id, g, t, n, d from big order by t desc, id limit 5;
select id, t from big order by g, n desc, id offset 30000 limit 5;
select id from big order by d nulls first, id limit 3;
select g, count(*) from big group by g order by count(*) desc, g limit 4;
select distinct g from big order by g desc limit 3;
reset work_mem;
select id, t from big order by g, n desc, id offset 30000 limit 5;
drop table big;
