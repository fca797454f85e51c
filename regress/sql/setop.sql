-- INTERSECT and EXCEPT, with and without ALL, nested and mixed with UNION.
create table setop_a (x int, s text);
create table setop_b (y int, t text);
insert into setop_a values (1, 'one'), (1, 'one'), (1, 'one'), (2, 'two'), (null, null), (null, null), (3, 'three'), (5, null);
insert into setop_b values (1, 'one'), (1, 'one'), (null, null), (null, null), (null, null), (4, 'four'), (5, null), (5, null);
-- Multiplicities: INTERSECT ALL min(m, n), EXCEPT ALL max(m - n, 0), NULLs equal.
select x from setop_a intersect select y from setop_b order by 1;
select x from setop_a intersect all select y from setop_b order by 1;
select x from setop_a except select y from setop_b order by 1;
select x from setop_a except all select y from setop_b order by 1;
select y from setop_b except all select x from setop_a order by 1;
select x, s from setop_a intersect all select y, t from setop_b order by 1, 2;
select x, s from setop_a except all select y, t from setop_b order by 1, 2;
select x, s from setop_a except select y, t from setop_b order by 1 desc, 2;
-- Precedence: INTERSECT binds tighter than UNION and EXCEPT; these go left to right.
select 1 union select 2 intersect select 2 order by 1;
(select 1 union select 2) intersect select 2 order by 1;
select 1 union all select 1 except select 1 order by 1;
select 1 union all select 1 except all select 1 order by 1;
select 1 except select 2 union select 2 order by 1;
select 1 except (select 2 union select 1) order by 1;
select x from setop_a except select 1 intersect select x from setop_a order by 1;
select x from setop_a intersect all select y from setop_b union all select 7 order by 1;
((select x from setop_a) except all (select y from setop_b)) intersect all (select x from setop_a) order by 1;
-- ORDER BY, LIMIT and OFFSET on the whole.
select x from setop_a intersect all select y from setop_b order by x desc nulls last;
select x as k from setop_a except all select y from setop_b order by k limit 2;
select x from setop_a except all select y from setop_b order by 1 limit 2 offset 1;
(select x from setop_a order by x limit 3) intersect all select y from setop_b;
-- Types: the common type of each column, unknown literals taking it.
select 1 intersect select 1.0;
select 1.5 except select 1 order by 1;
select 'a' intersect select 'a';
select null intersect select null;
select 1 intersect select null;
select null::int except select 2 order by 1;
select 1 as a, 'x' as b intersect select 1, 'x';
select x::bigint from setop_a intersect select y from setop_b order by 1;
select s from setop_a intersect select t::varchar from setop_b order by 1;
select 1 union select '2' order by 1;
select x, pg_typeof(x) from (select 'a'::varchar union all select 'b'::text) s(x) order by 1;
select x, pg_typeof(x) from (select 'a'::text intersect select 'a'::varchar(3)) s(x);
select x, pg_typeof(x) from (select 'a'::char(2) except select 'b'::varchar) s(x);
select 1 union select 2 union select null order by 1;
select * from (select 1 intersect select 1) as q(v);
(select 1 intersect all select 1) union select 1.5 order by 1;
(select 2 except select 1) intersect select 2.0;
select count(*) from (select x from setop_a except all select y from setop_b) q;
select x from setop_a where x in (select y from setop_b intersect select 5) order by 1;
select 1.0 intersect select 1.00;
select 'NaN'::float8 intersect all select 'NaN'::float8;
values (1), (2), (3), (3) except all values (2), (3) order by 1;
select array[1, null] intersect select array[1, null];
-- Empty inputs.
select x from setop_a where false intersect select y from setop_b;
select x from setop_a except all select y from setop_b where false order by 1;
select x from setop_a where false except select 1;
-- Errors.
select 1 intersect select 1, 2;
select 1, 2 except all select 1;
select 1 union select 2 intersect select 3, 4;
select 1 except select 'a'::text;
select 1 intersect select 'a';
select 1 intersect all select true;
values (1) union values ('2');
select 1 except values ('2');
select 1 as a intersect select 2 order by b;
select 1 as a except select 2 as b except select 3 as b order by b;
select 1 as a except (select 2 as c union select 3 as b) order by b;
select 1 as a union (select 2 as b order by 1) order by b;
select 1 as a intersect values (2) order by column1;
select 1 as a intersect select 2 order by a + 1;
select 1 as a intersect select 2 order by 3;
select 1 as a, 2 as a except select 1, 2 order by a;
select 1 as a except select 1 order by q.a;
select 1 intersect select 2 for update;
drop table setop_a;
drop table setop_b;
