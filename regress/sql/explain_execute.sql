-- EXPLAIN EXECUTE and pg_prepared_statements.
create table pe2 (id int primary key, v text);
insert into pe2 select g, 'v' || g from generate_series(1, 100) g;
prepare byid (int) as select v from pe2 where id = $1;
prepare upd (text, int) as update pe2 set v = $1 where id = $2;
explain (costs off) execute byid(5);
explain (costs off) execute upd('x', 3);
explain (analyze, costs off, timing off, summary off) execute byid(7);
execute byid(5);
execute byid(6);
select name, parameter_types, from_sql, generic_plans from pg_prepared_statements order by name;
explain execute nosuch(1);
explain (costs off) execute byid('x');
deallocate all;
select count(*) from pg_prepared_statements;
drop table pe2;
