-- Set-returning functions: generate_series (integer, bigint, numeric) in FROM
-- and in the select list, column aliases, WITH ORDINALITY, functions in
-- FROM that read earlier FROM items, and their errors.
select * from generate_series(1, 5);
select * from generate_series(5, 1, -2);
select * from generate_series(1, 0);
select generate_series from generate_series(1, 3);
select g from generate_series(1, 3) g;
select g.i, i * 10 as tens from generate_series(1, 3) as g(i);
select * from generate_series(10, 12) with ordinality;
select * from generate_series(10, 30, 10) with ordinality as t(v, n);
select n, v from generate_series(1, 2) with ordinality t(v, n) order by n desc;
select * from generate_series(1::bigint, 3);
select * from generate_series(4294967296, 4294967298);
select * from generate_series(2147483645, 2147483647);
select * from generate_series(-2147483646, -2147483648, -1);
select * from generate_series(9223372036854775806, 9223372036854775807);
select * from generate_series(1, 2, 0.5);
select * from generate_series(0.1, 0.35, 0.1);
select * from generate_series(1.5, 0, -0.5);
select * from generate_series(1, null);
select * from generate_series(null::int, 3, 0);
select * from generate_series('1', 3);
-- in the select list
select generate_series(1, 3);
select generate_series(1, 3) * 2 as doubled, 'x' as label;
select generate_series(1, 3) as a, generate_series(1, 5) as b;
select generate_series(1, 0), 1 as one;
select count(*) from (select generate_series(1, 100)) s;
-- functions in FROM that read an earlier item (implicit LATERAL)
create table sn (name text, n int);
insert into sn values ('a', 2), ('b', 0), ('c', 3);
select name, g from sn, generate_series(1, sn.n) g order by name, g;
select name, i from sn cross join generate_series(1, n) as s(i) where i > 1 order by 1, 2;
select name, count(g) from sn left join generate_series(1, sn.n) g on true group by name order by name;
select s.name, x from sn s join generate_series(1, 3) x on x = s.n order by 1;
select name, (select sum(g) from generate_series(1, n) g) from sn order by name;
-- a series in a select list streams: a limit stops one that could never
-- be built in memory (PostgreSQL keeps the rows of a function in FROM in a
-- tuplestore, so that form is not tried here)
select generate_series(1::bigint, 9223372036854775807) as g limit 2;
-- aggregates over series, and an INSERT from one
select count(*), sum(g), min(g), max(g) from generate_series(1, 100000) g;
select sum(g) from generate_series(1, 10, 3) g;
create table sfill (id int primary key, v text);
insert into sfill select g, 'row ' || g from generate_series(1, 1000) g;
select count(*), min(id), max(id) from sfill;
select v from sfill where id in (select g * 100 from generate_series(1, 3) g) order by id;
-- errors
select * from generate_series(1, 10, 0);
select * from generate_series(1::bigint, 10, 0);
select * from generate_series(1.0, 10, 0);
select * from generate_series('NaN'::numeric, 10);
select * from generate_series(1, 'NaN'::numeric);
select * from generate_series(1, 10, 'NaN'::numeric);
select * from generate_series(1, 'Infinity'::numeric);
select * from generate_series('1', '3');
select * from generate_series(1, 2, 3, 4);
select * from generate_series(1.5::float8, 3);
select * from generate_series(1, 'x');
select * from sn where generate_series(1, 2) > 1;
select * from generate_series(1, 3) as g(a, b);
drop table sn, sfill;
