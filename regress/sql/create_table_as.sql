-- CREATE TABLE ... AS and SELECT ... INTO.
create table ctas_src (k int, v numeric(6,2), s varchar(5));
insert into ctas_src values (1, 1.5, 'a'), (2, null, 'bb'), (3, 3.25, null);
-- Column names and types from the query; unknown literals become text.
create table ctas_a as select k, v, s, 'lit' as l, null as n, k + 0.5 as half, k::int8 * 2 from ctas_src;
\d ctas_a
select * from ctas_a order by k;
-- Names from the column list (the rest from the query).
create table ctas_b (x, y) as select k, v, s from ctas_src where k > 1;
\d ctas_b
select * from ctas_b order by x;
-- VALUES, TABLE, set operations, WITH, ORDER BY / LIMIT.
create table ctas_c as values (1, 'one'), (2, null);
select * from ctas_c order by 1;
create table ctas_d as table ctas_c;
select * from ctas_d order by 1;
create table ctas_s as select s from ctas_src union select 'cd'::char(5) union select 'x';
\d ctas_s
create table ctas_t as select s from ctas_src intersect select s from ctas_src;
\d ctas_t
create table ctas_u as values ('a'::varchar(3), 1.5::numeric(4,1)), ('b'::varchar(3), 2.5::numeric(4,2));
\d ctas_u
drop table ctas_s, ctas_t, ctas_u;
create table ctas_e as select k from ctas_src intersect select column1 from ctas_c;
select * from ctas_e order by k;
create table ctas_f as with w as (select k * 10 as t from ctas_src) select t from w order by t desc limit 2;
select * from ctas_f order by t;
create table ctas_g as select;
select count(*) from ctas_g;
-- Table options and WITH NO DATA.
create table ctas_h with (fillfactor = 50, autovacuum_enabled = false) as select k from ctas_src with no data;
\d ctas_h
select count(*) from ctas_h;
insert into ctas_h values (7);
select * from ctas_h;
-- IF NOT EXISTS skips with a notice, the query not run.
create table if not exists ctas_h as select 1 / 0 as z;
create table if not exists ctas_i as select 1 as z;
select * from ctas_i;
-- SELECT INTO.
select k, s into ctas_j from ctas_src where k < 3;
select * from ctas_j order by k;
select k as kk into table ctas_k from ctas_src union all select 10 order by 1;
select * from ctas_k order by 1;
-- Transactional: a rollback or an error drops the table.
begin;
create table ctas_l as select g from generate_series(1, 5) g;
select count(*) from ctas_l;
rollback;
select * from ctas_l;
create table ctas_m as select 10 / (g - 3) as q from generate_series(1, 5) g;
select * from ctas_m;
begin;
select g into ctas_n from generate_series(1, 3) g;
commit;
select count(*) from ctas_n;
-- Rows are placed as PostgreSQL's CREATE TABLE AS places them.
create table ctas_p as select g as id, repeat('x', 100) as pad from generate_series(1, 1000) g;
select ctid, id from ctas_p where id in (1, 70, 71, 1000) order by id;
create table ctas_q with (fillfactor = 50) as select g as id, repeat('x', 100) as pad from generate_series(1, 1000) g;
select ctid, id from ctas_q where id in (1, 35, 36, 1000) order by id;
-- EXPLAIN: the query's plan; with ANALYZE the table is created and filled.
explain (costs off) create table ctas_x as select k from ctas_src where k > 1;
select count(*) from pg_class where relname = 'ctas_x';
explain (analyze, costs off, timing off, summary off) create table ctas_x as select k from ctas_src where k > 1;
select * from ctas_x order by k;
explain (costs off) create table ctas_x as select 1;
explain (costs off) create table if not exists ctas_x as select 1;
explain (analyze, costs off, timing off, summary off) select k, s into ctas_y from ctas_src;
select * from ctas_y order by k;
explain (analyze, costs off, timing off, summary off) create table ctas_z as select k from ctas_src with no data;
select count(*) from ctas_z;
-- Errors.
create table ctas_a as select 1;
create table ctas_r (a, b, c) as select 1, 2;
create table ctas_r as select 1 as a, 2 as a;
create table ctas_r (a) as select 1 as x, 2 as a;
create table ctas_r as select ctid from ctas_src;
create table ctas_r with (fillfactor = 5) as select 1;
create table ctas_r with (nosuch = 1) as select 1;
create table ctas_r as select x from ctas_nosuch;
select 1 union select 2 into ctas_r;
select * from (select 1 into ctas_r) s;
begin read only;
create table ctas_r as select 1;
rollback;
begin read only;
select 1 into ctas_r;
rollback;
select count(*) from pg_class where relname = 'ctas_r';
drop table ctas_x, ctas_y, ctas_z;
drop table ctas_src, ctas_a, ctas_b, ctas_c, ctas_d, ctas_e, ctas_f, ctas_g, ctas_h, ctas_i, ctas_j, ctas_k, ctas_n, ctas_p, ctas_q;
-- Storage parameters match their names exactly.
CREATE TABLE ctas_case WITH ("Fillfactor" = 10) AS SELECT 1 AS a;
CREATE TABLE ctas_case (a int) WITH ("Fillfactor" = 10);
