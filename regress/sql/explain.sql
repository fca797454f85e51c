--
-- EXPLAIN's text format and node names for plans both servers choose
-- (minipg prints no cost estimates: COSTS OFF here), and EXPLAIN's errors.
--
create table ex (id int primary key, v text, n int not null);
create index ex_v on ex (v);
insert into ex select i, 'v' || i, i % 10 from generate_series(1, 2000) i;
analyze ex;
explain (costs off) select * from ex where id = 1;
explain (costs off) select * from ex where id = 1 and n = 1;
explain (costs off) select * from ex where n > 5;
explain (costs off) select * from ex where v = 'v17';
explain (costs off) select n, count(*) from ex group by n;
explain (costs off) select distinct n from ex;
explain (costs off) select * from ex where v like 'a%' and n in (1, 2, 3);
explain (costs off) select id from ex where n = 4 order by v desc, id;
explain (costs off) select count(*) from ex;
explain (costs off) select 1;
explain (costs off) select * from ex where id = 7 for update;
explain (costs off) update ex set n = 1 where id = 3;
explain (costs off) delete from ex where n > 1;
explain (costs off) insert into ex values (5000, 'a', 1);
explain (costs off) insert into ex values (5001, 'a', 1), (5002, 'b', 2);
explain (costs off, analyze, timing off, summary off) select * from ex where n = 3 and id < 0;
explain (costs off, analyze, timing off, summary off) select * from ex where id = 5 and n = 4;
explain (timing) select 1;
explain (nosuch) select 1;
explain (analyze maybe) select 1;
explain (format yml) select 1;
drop table ex;
