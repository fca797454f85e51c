-- Row IN subqueries: (a, b) [NOT] IN (SELECT x, y ...), with NULLs on either side.
create table rin_a (a int, b text);
create table rin_b (x int, y text);
insert into rin_a values (1, 'x'), (2, 'y'), (3, null), (null, 'z'), (5, 'w');
insert into rin_b values (1, 'x'), (2, 'q'), (null, 'w'), (3, 'r'), (1, 'x');
select a, b, (a, b) in (select x, y from rin_b) as in_b, (a, b) not in (select x, y from rin_b) as not_in_b from rin_a order by a nulls last, b;
select a from rin_a where (a, b) in (select x, y from rin_b) order by a;
select a from rin_a where (a, b) not in (select x, y from rin_b where x is not null) order by a;
select (1, 'x') in (select x, y from rin_b where false);
select a from rin_a r where (a, 'x') in (select x, y from rin_b s where s.x = r.a) order by a;
select (1, 2) in (select 1, 2, 3);
select (1, 2, 3) in (select 1, 2);
select (1, 'a') in (select 1, 2);
drop table rin_a, rin_b;
