-- Window functions: OVER, WINDOW, frames (ROWS, RANGE, GROUPS, EXCLUDE),
-- the window functions and aggregates as window aggregates, and errors.

create table win_t1(a int, b int, c text);
insert into win_t1 values (1,1,'x'),(1,2,'y'),(2,null,'z'),(null,3,'w'),(2,5,'v');
select a, b, row_number() over (order by b), rank() over (order by a), dense_rank() over (order by a) from win_t1 order by b;
select a, b, sum(b) over (partition by a order by b), count(*) over (partition by a) from win_t1 order by a, b;
select a, b, lag(b) over w, lead(b, 2, -1) over w, first_value(b) over w, last_value(b) over w, nth_value(b, 2) over w from win_t1 window w as (order by b rows between unbounded preceding and unbounded following) order by b;
select a, sum(a) over (order by a range between 1 preceding and current row) from win_t1 order by a, b;
select a, count(*), sum(sum(b)) over (order by a) from win_t1 group by a order by a;
select a, b, ntile(2) over (order by b), percent_rank() over (order by a), cume_dist() over (order by a) from win_t1 order by b;
select b, sum(b) over (order by b rows between 1 preceding and 1 following exclude current row) from win_t1 order by b;
select b, sum(b) over (order by a groups between 1 preceding and 1 following), string_agg(c, ',') over (order by a groups between current row and unbounded following exclude ties) from win_t1 order by b;
select sum(b) filter (where a > 1) over (), count(*) over () from win_t1;
select row_number() over (order by a, b desc), a, b from win_t1;
drop table win_t1;

create table win_t4(g int, v int, name text);
insert into win_t4 values (1,10,'a'),(1,20,'b'),(2,30,'c'),(2,40,'d'),(3,50,'e'),(1,60,'f');
select name, row_number() over (order by v desc) from win_t4 order by row_number() over (order by v desc) limit 3;
select name, rank() over (partition by g order by v) r from win_t4 order by r, name;
select distinct g, count(*) over (partition by g) from win_t4 order by 1;
select name, v from (select name, v, row_number() over (partition by g order by v desc) rn from win_t4) s where rn = 1 order by name;
select g, v, (select count(*) from win_t4 w2 where w2.g = win_t4.g), sum(v) over (partition by g) from win_t4 order by g, v;
select g, generate_series(1,2), row_number() over (order by v) from win_t4 where g = 1 order by 3, 2;
select g, v, row_number() over (order by v), sum(v) over (partition by g) from win_t4;
select g, v, row_number() over (partition by g order by v), row_number() over (order by v desc) from win_t4;
select g, v, sum(v) over w1, avg(v) over w2 from win_t4 window w1 as (partition by g), w2 as (w1 order by v);
select g, sum(v), rank() over (order by sum(v) desc) from win_t4 group by g having count(*) > 1 order by g;
select g, max(v) over (order by g rows between 1 preceding and 1 following), min(v) over (), bool_and(v > 15) over (order by v), every(v > 5) over (), bool_or(v > 55) over (order by v) from win_t4 order by v;
select v, array_agg(v) over (order by v rows 2 preceding), stddev(v) over (order by v), var_pop(v) over (order by v rows between 1 preceding and 1 following) from win_t4 order by v;
select v, avg(v) over (order by v), count(v) over (order by v groups between unbounded preceding and 1 preceding) from win_t4 order by v;
explain (costs off) select g, row_number() over (partition by g order by v) from win_t4;
explain (costs off) select g, row_number() over (), rank() over (order by v) from win_t4;
explain (costs off) select g, sum(v) over (order by g) from win_t4 order by g;
select row_number() over () from (select 1) s where false;
select count(*) over () from win_t4 where false;
select sum(v) over (order by v rows between 1 following and 3 following), lead(name, -1) over (order by v), lag(name, 1, 'none') over (order by v) from win_t4 order by v;
select first_value(name) over w, last_value(name) over w, nth_value(name, 3) over w from win_t4 window w as (order by v range between unbounded preceding and unbounded following exclude group) order by v;
select ntile(4) over (order by v), ntile(10) over (order by v), ntile(null) over (order by v), v from win_t4 order by v;
explain (costs off) select g, v, row_number() over (partition by g order by v), row_number() over (order by v desc), sum(v) over (partition by g) from win_t4 order by v desc;
drop table win_t4;

create table win_t5(g int, v int, name text);
insert into win_t5 values (1,10,'a'),(1,20,'b'),(2,30,'c'),(2,40,'d'),(3,50,'e'),(1,60,'f');
select x, sum(x) over (order by x desc), lag(x, 1, 0.5) over (order by x) from generate_series(1,4) x order by x;
with c as (select g, v, dense_rank() over (order by g) dr from win_t5) select * from c where dr = 2 order by v;
select a.g, b.name, row_number() over (partition by a.g order by b.v) from win_t5 a join win_t5 b on a.v = b.v order by 1, 3;
select g, v, (select max(v2) from (select v as v2, row_number() over (order by v) rn from win_t5 i where i.g = o.g) s where rn <= 2) from win_t5 o order by v;
select name, row_number() over (order by 1), min(name) over (partition by g % 2 order by name), max(name) over (partition by g % 2) from win_t5 order by name;
select g, v, rn from (select g, v, row_number() over w as rn from win_t5 window w as (partition by g order by v desc)) s order by rn, g;
select v from win_t5 union all select row_number() over () from win_t5 where g = 3 order by 1;
select g, sum(v) over (partition by g order by v range between unbounded preceding and unbounded following) s from win_t5 order by s, v;
select v, sum(v) over (order by v rows between unbounded preceding and 2 preceding), sum(v) over (order by v rows between 3 following and unbounded following) from win_t5 order by v;
select v, count(*) over (order by g groups between 1 following and 2 following), count(*) over (order by g groups 5 preceding) from win_t5 order by v;
select v, count(*) over (order by g rows between current row and current row exclude current row) from win_t5 order by v;
select v, sum(v) over (order by v rows between 9223372036854775807 preceding and 9223372036854775807 following) from win_t5 order by v;
select v, sum(v) over (order by v groups between 9223372036854775807 preceding and 9223372036854775807 following) from win_t5 order by v;
select count(*) over (order by v) as c from win_t5 order by c desc limit 2;
select g, avg(v) over (partition by g)::numeric(10,2), sum(v::numeric) over (order by v) from win_t5 order by v;
select g, string_agg(name, '-') over (partition by g order by name desc) from win_t5 order by g, name;
select 1 from win_t5 window w as (order by nosuch);
select row_number() over (order by v) from win_t5 window w as (partition by g) order by 1 limit 1;
select first_value(v) over (partition by g order by v rows between 1 following and unbounded following) fv, v from win_t5 order by v;
select rank() over (order by g desc nulls first), g from win_t5 order by g desc, v;
select sum(distinct v) over () from win_t5;
select count(*) over (order by v range between current row and 10 following exclude group), v from win_t5 order by v;
drop table win_t5;

create table win_t3(id int, d date, ts timestamp, f float8, n numeric, i8 bigint, s smallint, iv interval);
insert into win_t3 values
 (1, '2024-01-01', '2024-01-01 10:00', 1.5, 1.25, 10, 1, '1 hour'),
 (2, '2024-01-02', '2024-01-01 11:30', 2.5, 2.5, 20, 2, '2 hours'),
 (3, '2024-01-05', '2024-01-01 12:00', 'NaN', 'NaN', 30, 3, '1 day'),
 (4, '2024-01-06', '2024-01-02 10:00', 'Infinity', 4, 9223372036854775807, 4, '3 hours'),
 (5, null, null, null, null, null, null, null),
 (6, '2024-01-06', '2024-01-01 10:00', '-Infinity', -1, -9223372036854775808, 5, '1 hour');
select id, d, count(*) over (order by d range between '1 day' preceding and current row) from win_t3 order by id;
select id, d, count(*) over (order by d desc range between '1 day' preceding and '2 days' following) from win_t3 order by id;
select id, ts, string_agg(id::text, ',') over (order by ts range between '1 hour' preceding and '1 hour' following) from win_t3 order by id;
select id, f, count(*) over (order by f range between 1 preceding and 1 following) from win_t3 order by id;
select id, f, count(*) over (order by f range between 'Infinity' preceding and 'Infinity' following) from win_t3 order by id;
select id, n, sum(n) over (order by n range between 1 preceding and 1.5 following) from win_t3 order by id;
select id, i8, count(*) over (order by i8 range between 5 preceding and 5 following) from win_t3 order by id;
select id, s, sum(s) over (order by s range between 1 preceding and 1 following exclude current row) from win_t3 order by id;
select id, iv, count(*) over (order by iv range between '1 hour' preceding and current row) from win_t3 order by id;
select id, s, sum(s) over (order by s nulls first range between 1 preceding and 1 following) from win_t3 order by id;
select id, s, sum(s) over (order by s desc nulls last range between 1 preceding and unbounded following) from win_t3 order by id;
select id, count(*) over (order by n range between -1 preceding and current row) from win_t3;
select id, count(*) over (order by f range between 'NaN' preceding and current row) from win_t3;
select id, count(*) over (order by d range between '-1 day' preceding and current row) from win_t3;
select id, count(*) over (order by d range between 1 preceding and current row) from win_t3;
select id, count(*) over (order by id range between 1::bigint preceding and current row) from win_t3 order by id;
select id, count(*) over (order by s range between 1::int8 preceding and current row) from win_t3 order by id;
select id, count(*) over (order by i8 range between 1::int4 preceding and current row) from win_t3 order by id;
select id, count(*) over (order by n range between 1 preceding and current row) from win_t3 order by id;
select id, count(*) over (order by f range between 1 preceding and current row) from win_t3 order by id;
drop table win_t3;

create table win_t2(a int, b int, c text);
insert into win_t2 values (1,1,'x'),(1,2,'y'),(2,null,'z'),(null,3,'w');
select 1 from win_t2 where row_number() over () > 1;
select count(*) from win_t2 group by row_number() over ();
select rank() over (order by 1), count(*) from win_t2 group by 1;
select count(*) from win_t2 having row_number() over () > 1;
select sum(row_number() over ()) from win_t2;
select row_number() over (order by row_number() over ()) from win_t2;
select row_number() over (partition by rank() over ()) from win_t2;
select sum(a) filter (where row_number() over () > 1) over () from win_t2;
select sum(a) filter (where sum(a)>1) over () from win_t2;
select sum(a) filter (where row_number() over () > 1) from win_t2;
select lower('x') over () from win_t2;
select nosuch(a) over () from win_t2;
select row_number() from win_t2;
select rank(a) over () from win_t2;
select count(distinct a) over () from win_t2;
select sum(a order by b) over () from win_t2;
select row_number() filter (where a > 1) over () from win_t2;
select row_number() over w from win_t2;
select row_number() over (w) from win_t2 window w as (order by a rows 1 preceding);
select row_number() over (w order by b) from win_t2 window w as (order by a);
select row_number() over (w partition by b) from win_t2 window w as (order by a);
select 1 from win_t2 window w as (order by a), w as (order by b);
select row_number() over (w2) from win_t2 window w as (order by a), w2 as (w order by b);
select row_number() over (x) from win_t2 window w as (order by a);
select row_number() over (order by a rows a preceding) from win_t2;
select row_number() over (order by a rows 'x' preceding) from win_t2;
select row_number() over (order by a rows 'x'::text preceding) from win_t2;
select row_number() over (order by a rows -1 preceding) from win_t2;
select row_number() over (order by a rows between current row and -1 following) from win_t2;
select row_number() over (order by a rows null preceding) from win_t2;
select sum(a) over (order by a,b range 1 preceding) from win_t2;
select sum(a) over (order by c range 1 preceding) from win_t2;
select sum(a) over (order by a range 1.5 preceding) from win_t2;
select sum(a) over (order by a range -1 preceding) from win_t2;
select sum(a) over (order by a groups -1 preceding) from win_t2;
select sum(a) over (groups 1 preceding) from win_t2;
select sum(a) over (order by a rows count(*) preceding) from win_t2;
select sum(a) over (rows unbounded following) from win_t2;
select generate_series(1,a) over () from win_t2;
select sum(generate_series(1,a)) over () from win_t2;
select ntile(0) over () from win_t2;
select nth_value(a, 0) over () from win_t2;
select first_value('x') over () from win_t2;
select lag(a, 1::bigint) over () from win_t2;
select lag(c, 1, 1) over () from win_t2;
values (row_number() over ());
update win_t2 set a = row_number() over ();
insert into win_t2 values (row_number() over ());
select * from win_t2 join win_t2 t2 on row_number() over () > 1;
select * from generate_series(1, row_number() over ());
select 1 from win_t2 limit row_number() over ();
select percentile_cont(0.5) within group (order by a) over () from win_t2;
delete from win_t2 returning row_number() over ();
select count(*) over (), row_number(*) over () from win_t2 limit 1;
drop table win_t2;

-- Window functions are not allowed in DML's clauses either.
create table win_t6(a int);
insert into win_t6 values (1), (2);
select a, sum(a) over (order by a) from win_t6 where a > (select count(*) over () from win_t6 limit 1);
delete from win_t6 returning row_number() over ();
select a from win_t6 order by row_number() over (order by a desc);
select a, row_number() over (order by a) rn from win_t6 order by rn desc;
drop table win_t6;

-- Rows the windows do not order (ties) come out in PostgreSQL's order.
create table win_t7(dep text, empno int, salary int);
insert into win_t7 values ('develop', 10, 5200), ('sales', 1, 5000), ('personnel', 5, 3500),
  ('sales', 4, 4800), ('personnel', 2, 3900), ('develop', 7, 4200), ('develop', 9, 4500),
  ('sales', 3, 4800), ('develop', 8, 6000), ('develop', 11, 5200);
select dep, empno, salary, rank() over (partition by dep order by salary) from win_t7;
select dep, empno, salary, sum(salary) over (partition by dep), row_number() over (order by salary desc) from win_t7;
select x % 3 as k, x, count(*) over (partition by x % 3), lag(x) over (partition by x % 3) from generate_series(1, 50) x;
drop table win_t7;

-- A window whose keys begin with the previous window's sorts the rows
-- incrementally, which gives ties PostgreSQL's order too.
create table win_t8(id int, g int, v int);
insert into win_t8 select i, i % 3, (i * 7) % 5 from generate_series(1, 200) i;
insert into win_t8 select 1000 + i, 7, i % 4 from generate_series(1, 150) i;
explain (costs off) select g, row_number() over (partition by g order by v desc), row_number() over (partition by g order by v) from win_t8;
select id, g, v, row_number() over (partition by g order by v desc), row_number() over (partition by g order by v) from win_t8;
select id, g, v, row_number() over (partition by g, v order by id desc), row_number() over (partition by g order by id % 3) from win_t8 where id % 4 = 1;
explain (costs off) select g, sum(v), rank() over (order by sum(v) desc) from win_t8 group by g;
drop table win_t8;

-- FOR UPDATE, aggregates over window functions, subqueries and INSERT ... SELECT.
create table win_t9(a int, b text);
insert into win_t9 values (1,'x'),(2,'y'),(3,'z');
select a, row_number() over () from win_t9 for update;
select a, row_number() over () from win_t9 for share;
select string_agg(b, ',') over (order by a desc), count('x') over (), lag(a, 1, null) over (order by a) from win_t9 order by a;
select a, sum(a) over (order by a rows between current row and unbounded following), max(b) over (order by a range between current row and unbounded following) from win_t9 order by a;
select (select count(*) over () from win_t9 i where i.a > o.a limit 1) from win_t9 o order by a;
select a, sum(a) over (rows between (select 1) preceding and current row) from win_t9 order by a;
insert into win_t9 select a + 10, b || row_number() over (order by a) from win_t9;
select * from win_t9 order by a;
drop table win_t9;


-- Sliding frames: aggregates follow the frame (rows leaving it taken out of count, sum and avg of integers).
create table win_t10(id int, v int, b bigint, s smallint);
insert into win_t10 select i, case when i % 7 = 0 then null else (i * 37) % 101 - 50 end, i * 1000000000000, (i % 13)::smallint from generate_series(1, 300) i;
select sum(x) from (select sum(v) over (order by id rows between 2 preceding and 3 following) + coalesce(avg(v) over (order by id rows between 5 preceding and 1 preceding), 0) + count(v) over (order by id rows between current row and unbounded following) + sum(b) over (order by id rows between 10 preceding and 10 following) + avg(s) over (order by id groups between 1 following and 4 following) as x from win_t10) q;
select id, sum(v) over w, avg(v) over w, count(v) over w, count(*) over w, sum(b) over w, avg(s) over w from win_t10 window w as (order by v range between 3 preceding and 2 following) order by id limit 20;
select id, avg(v) over (order by id rows between 1 following and 3 following) from win_t10 where id > 290 order by id;
drop table win_t10;

-- Named windows copied, varying arguments, EXCLUDE, and more errors.
create table win_t11(a int, b int);
insert into win_t11 values (1,10),(2,20),(3,null),(4,40),(2,25);
select row_number() over (w2) from win_t11 window w2 as (w1), w1 as (order by a);
select row_number() over (w rows 1 preceding) from win_t11 window w as (order by a rows unbounded preceding);
select row_number() over w from win_t11 window w as (order by a rows unbounded preceding) order by 1;
select a, ntile(a) over (order by a desc), nth_value(b, a) over (order by a rows between unbounded preceding and unbounded following) from win_t11 order by a, b;
select a, lag(b, -1) over (order by a, b), lead(b, 1, a * 100) over (order by a, b), lag(b, a - 2) over (order by a, b) from win_t11 order by a, b;
select count(*), rank() over () from win_t11 where false;
select a, count(*) over (partition by null), sum(b) over (partition by a is null, a > 2 order by b nulls first) from win_t11 order by a, b;
select a, case when a > 1 then row_number() over (order by a, b) else -1 end, coalesce(lag(b) over (order by a, b), 0) from win_t11 order by a, b;
select a, b, sum(b) over (order by a range between unbounded preceding and 1 following exclude group) from win_t11 order by a, b;
select a, b, first_value(b) over (order by a groups between 1 following and unbounded following exclude ties), last_value(b) over (order by a range between current row and current row exclude current row) from win_t11 order by a, b;
select row_number() over (order by a) filter (where a > 1) from win_t11;
select sum(b) over (order by a range between unbounded preceding and unbounded following rows) from win_t11;
select avg(b) over (order by b range between 10 preceding and 10 following) from win_t11 order by 1;
select string_agg(b::text, ',' order by b) over () from win_t11;
select a, percent_rank() over (partition by a order by b), cume_dist() over (partition by a order by b) from win_t11 order by a, b;
drop table win_t11;

-- Identical windows share one WindowAgg.
create table win_t12(a int);
explain (costs off) select rank() over (order by a), sum(a) over w from win_t12 window w as (order by a);
explain (costs off) select rank() over (order by a), sum(a) over (order by a) from win_t12 window w as (order by a);
explain (costs off) select rank() over (order by a), sum(a) over w, count(*) over w2 from win_t12 window w as (order by a), w2 as (order by a);
drop table win_t12;

-- More argument and clause errors.
create table win_t13(a int);
insert into win_t13 values (1), (2);
select sum(a) over (order by a range between count(*) preceding and current row) from win_t13;
select sum(a) over (order by a groups between sum(a) preceding and current row) from win_t13;
select sum(a) over (order by a rows between row_number() over () preceding and current row) from win_t13;
delete from win_t13 where rank() over () = 1;
select a from win_t13 group by a having sum(a) over () > 0;
select lead(a, 1, 'x') over () from win_t13;
select lag(a, 'x') over () from win_t13;
select nth_value(a, 1.5) over () from win_t13;
select ntile('2') over (order by a), ntile(2.5) over () from win_t13;
select first_value(a, 1) over () from win_t13;
select sum(a, a) over () from win_t13;
select count() over () from win_t13;
select sum(*) over () from win_t13;
drop table win_t13;

-- Windows in subqueries (correlated too), shared CTEs, UNION arms and over grouped rows.
create table win_t14(a int, b int);
insert into win_t14 values (1, 5), (2, 3), (3, 3), (4, 1);
select a, (select sum(o.a + i.a) over (order by i.a) from win_t14 i where i.a <= o.a order by i.a desc limit 1) from win_t14 o order by a;
with c as (select a, row_number() over (order by b, a) rn from win_t14) select c1.a, c2.a, c1.rn from c c1 join c c2 using (rn) order by rn;
select a, rank() over (order by b) from win_t14 where a < 3 union all select a, dense_rank() over (order by b) from win_t14 where a >= 3 order by 1;
select * from (select a, b, lag(a) over (order by a) la from win_t14) s where la is not null and b < 5 order by a;
select a, sum(a) over (order by a) from win_t14 where a in (select max(a) over (partition by b) from win_t14) order by a;
select array_agg(a) over (order by a rows between 1 preceding and 1 following), min(b) over (order by a rows 1 preceding), max(b) over (order by a groups between current row and 1 following) from win_t14 order by a;
select b, count(*), sum(count(*)) over (order by b), avg(sum(a)) over (), string_agg(b::text, ',') over (order by count(*) desc, b) from win_t14 group by b order by b;
select b, count(*) over (partition by b), sum(a) over (partition by b order by a range between unbounded preceding and unbounded following) from win_t14 order by b, a;
drop table win_t14;
