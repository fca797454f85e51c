-- WITH RECURSIVE: the non-recursive term, then the recursive term over the
-- rows of the previous round until a round produces none.
create table wr_tree (id int, parent int, name text);
insert into wr_tree values (1, null, 'root'), (2, 1, 'a'), (3, 1, 'b'), (4, 2, 'aa'), (5, 4, 'aaa'), (6, 3, 'ba');
create table wr_edge (a int, b int);
insert into wr_edge values (1, 2), (2, 3), (3, 1), (3, 4), (4, null);
with recursive t(n) as (select 1 union all select n + 1 from t where n < 5) select * from t;
with recursive sub(id, name, depth, path) as (
  select id, name, 0, name from wr_tree where parent is null
  union all
  select t.id, t.name, s.depth + 1, s.path || '/' || t.name from wr_tree t join sub s on t.parent = s.id
) select * from sub order by path;
with recursive fib(a, b, i) as (select 0::numeric, 1::numeric, 1 union all select b, a + b, i + 1 from fib where i < 30)
  select i, a from fib where i in (1, 2, 10, 30) order by i;
-- LIMIT stops an endless recursion.
with recursive t(n) as (select 1 union all select n + 1 from t) select * from t limit 5;
-- UNION drops rows already produced (NULLs equal), so a cycle ends.
with recursive reach(v) as (select 1 union select b from wr_edge e join reach r on e.a = r.v) select * from reach order by v nulls first;
with recursive t(n) as (select 1 union select n % 3 + 1 from t) select * from t order by 1;
with recursive t(n) as (select 1 union select null::int from t) select * from t order by 1;
with recursive t(n) as (select 1 union all select null::int from t where n is not null) select * from t;
-- Column names from the CTE's list or the non-recursive term.
with recursive t as (select 1 as n union all select n + 1 from t where n < 3) select * from t;
with recursive t(n, s) as (select 1, null::text union all select n + 1, coalesce(s, '') || n from t where n < 4) select * from t;
-- Types come from the non-recursive term; unknown literals there are text.
with recursive t(x) as (select 'a' union all select x || 'b' from t where length(x) < 4) select x, pg_typeof(x) from t;
with recursive t(x) as (select 'a'::varchar union all select x || 'b' from t where length(x) < 3) select x, pg_typeof(x) from t;
with recursive t(n) as (select 1::int8 union all select n + 1 from t where n < 3) select n, pg_typeof(n) from t;
with recursive t(n) as (select 1.5::numeric(5,2) union all select n from t where false) select * from t;
-- The recursive term: a subquery in FROM, GROUP BY, DISTINCT, UNION and EXCEPT inside.
with recursive t(n) as (select 1 union all select n + 1 from (select * from t) s where n < 3) select * from t;
with recursive t(n) as (select 1 union all select n + 1 from t group by n having n < 3) select * from t;
with recursive t(n) as (select 1 union all select distinct n + 1 from t where n < 3) select * from t;
with recursive t(n) as (select 1 union all (select n + 1 from t where n < 3 union all select 10 from generate_series(1, 0))) select * from t;
with recursive t(n) as (select 1 union all (select n + 1 from t where n < 3 except select 2)) select * from t;
with recursive t(n) as (select 1 union all select t.n + 1 from t left join wr_edge e on e.a = t.n where n < 3) select * from t;
-- Several CTEs: later ones may be named first, and recursive ones nest.
with recursive a(n) as (select * from b), b(n) as (select 1 union all select n + 1 from b where n < 3) select * from a;
with recursive t(n) as (select 1 union all select n + 1 from t where n < 4), u(m) as (select n * 10 from t) select * from u order by 1;
with recursive t(n) as (select 1 union all (with recursive u(m) as (select 1 union all select m + 1 from u where m < 2) select n + m from t, u where n < 5))
  select n, count(*) from t group by n order by n;
-- The self-reference hides an outer CTE of the same name; aliases rename it.
with t as (select 5 as n) select * from (with recursive t(n) as (select 1 union all select n + 1 from t where n < 3) select * from t) s;
with recursive t(n) as (select 1 union all select m + 1 from t as x(m) where m < 3) select * from t;
select * from generate_series(1, 3) g where g in (with recursive t(n) as (select 2 union all select n + 1 from t where n < 3) select n from t);
with recursive t(n) as (select 1 union all (with t as (select 5 as n) select n + 1 from t where n < 3)) select * from t;
with recursive t(n) as (select 1 union all (with u as (select n + 1 as n from t where n < 3) select n from u)) select * from t;
-- A recursive CTE read more than once, and in subqueries.
with recursive t(n) as (select 1 union all select n + 1 from t where n < 3) select a.n, b.n from t a, t b where a.n = b.n order by 1;
with recursive t(n) as (select 1 union all select n + 1 from t where n < 3) select n, (select count(*) from t t2 where t2.n <= t.n) from t order by 1;
with recursive t(n) as (select 1 union all select n + 1 from t where n < 3) select * from t t1 left join t t2 on t2.n = t1.n + 1 order by 1;
select * from (with recursive t(n) as (select 1 union all select n + 1 from t where n < 3) select sum(n) from t) s;
with recursive t(n) as (select 1 union all select n + 1 from t where n < 3) insert into wr_edge select n, n from t;
select count(*) from wr_edge;
-- Errors.
with recursive t(n) as (select 1 union all select n + 1::bigint from t where n < 5) select * from t;
with recursive t(n) as (select 1 union all select n + 0.5 from t where n < 5) select * from t;
with recursive t(n) as (select 1::int2 union all select n + 1 from t where n < 5) select * from t;
with recursive t(n) as (select 'a'::varchar(3) union all select n || 'b' from t where length(n) < 3) select * from t;
with recursive t(n) as (select 1 union all select 'a' || n from t) select * from t;
with recursive t(n) as (select 'a'::varchar(3) union all select 'b' from t where false) select * from t;
with recursive t(n) as (select 1.5::numeric(5,2) union all select n + 1 from t where n < 3) select * from t;
with recursive t(n) as (select n from t) select * from t;
with recursive t(n) as (select 1 intersect select n from t) select * from t;
with recursive t(n) as (select n from t union all select 1) select * from t;
with recursive t(n) as (select 1 union all select n + 1 from t where n < 3 union all select 10) select * from t;
with recursive t(n) as (select 1 union all select t1.n from t t1, t t2) select * from t;
with recursive t(n) as (select 1 union all select n from t where n in (select n from t)) select * from t;
with recursive t(n) as (select 1 union all select (select n from t)) select * from t;
with recursive t(n) as (select 1 union all select t.n from generate_series(1, 2) g left join t on true) select * from t;
with recursive t(n) as (select 1 union all (select n + 1 from t intersect all select 2)) select * from t;
with recursive t(n) as (select 1 union all (select 2 except select n + 1 from t)) select * from t;
with recursive t(n) as (select 1 union all select count(*) from t) select * from t;
with recursive t(n) as (select 1 union all select abs(max(n)) from t) select * from t;
with recursive t(n) as (select 1 union all select n + 1 from t order by 1) select * from t;
with recursive t(n) as (select 1 union all select n + 1 from t where n < 3 limit 5) select * from t;
with recursive t(n) as (select 1 union all select n + 1 from t where n < 3 offset 1) select * from t;
with recursive t(n) as (select 1 union all select n + 1 from t where n < 3 for update) select * from t;
with recursive a(n) as (select 1 union all select n from b), b(n) as (select 1 union all select n from a) select * from a;
with recursive t(n, m) as (select 1 union all select n + 1 from t) select * from t;
with recursive t(n) as (select 1 union all select n + 1, 2 from t) select * from t;
with recursive x(n) as (with x1 as (select 1 from x) select 0 union select * from x1) select * from x;
with recursive x(n) as (with x1 as (select 2 from x) select * from x1 union select * from x) select * from x;
with x(n) as (select 1 union all select n + 1 from x where n < 3) select * from x;
with a as (select * from b), b as (select 1) select * from a;
drop table wr_tree, wr_edge;
