-- WITH queries (non-recursive common table expressions)
create table ct (id int primary key, g int, v text) with (autovacuum_enabled = off);
insert into ct select i, i % 3, 'v' || i from generate_series(1, 12) i;
with x as (select g, count(*) n from ct group by g) select * from x order by g;
-- column aliases, a CTE reading an earlier one
with x(a, b) as (select g, count(*) from ct group by g), y as (select a from x where b > 3) select * from y order by a;
with x as (select id from ct where id < 4) select ct.v from ct join x using (id) order by 1;
-- referenced twice, with aliases
with x as (select id from ct where id < 4) select * from x a, x b where a.id = b.id + 1 order by 1;
with x as (select id from ct where id < 4) select * from x y(b) order by b;
-- in subqueries, and shadowed by an inner WITH
with x as (select 1 as one) select (select one from x) as s, exists (with x as (select 2 as one) select 1 from x where one = 2) as e;
-- a CTE hides a table of the same name; a qualified name does not see it
with ct as (select 42 as id) select * from ct;
with ct as (select 42 as id) select count(*) from public.ct;
with x as (select 1 as a) select * from public.x;
-- in UNION, with ORDER BY and LIMIT
with x as (select id from ct where g = 0) select id from x union all select id + 100 from x order by 1 limit 5;
-- WITH on INSERT and DELETE
with src as (select 100 + i as id from generate_series(1, 3) i) insert into ct select id, 9, 'new' from src;
with x as (select id from ct where g = 1) delete from ct where id in (select id from x);
with x as (select id from ct where g = 0) select id, v from ct where id in (select id from x) order by id;
select count(*) from ct;
-- errors
with x as (select 1), x as (select 2) select * from x;
with x as (select 1 as a) select b from x;
with x(a, b) as (select 1) select * from x;
drop table ct;
