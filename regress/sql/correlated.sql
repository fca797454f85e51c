-- Correlated subqueries: EXISTS, NOT EXISTS, IN, NOT IN (with PostgreSQL's
-- NULL semantics), scalar subqueries in WHERE and in the select list;
-- CASE count(*) WHEN ..., coalesce, nullif.
create table co (o_w int, o_d int, o_id int, o_carrier int, primary key (o_w, o_d, o_id));
create table cn (no_w int, no_d int, no_o int, primary key (no_w, no_d, no_o));
create table cv (v int);
insert into co values (1, 1, 1, 5), (1, 1, 2, null), (1, 1, 3, null), (1, 2, 1, 7), (2, 1, 1, null);
insert into cn values (1, 1, 2), (1, 1, 3), (1, 2, 1), (2, 1, 9);
insert into cv values (1), (2), (null);

select o_w, o_d, o_id from co where exists
  (select 1 from cn where no_w = o_w and no_d = o_d and no_o = o_id) order by 1, 2, 3;
select o_w, o_d, o_id from co where not exists
  (select 1 from cn where no_w = o_w and no_d = o_d and no_o = o_id) order by 1, 2, 3;
select no_w, no_d, no_o from cn where not exists
  (select * from co where no_w = o_w and no_d = o_d and no_o = o_id);
-- the consistency-check shape
select case count(*) when 0 then 'OK   ' else 'ERROR' end as "check", count(*) as "count"
  from co where o_carrier is null
  and not exists (select 1 from cn where no_w = o_w and no_d = o_d and no_o = o_id);
select case count(*) when 0 then 'OK   ' else 'ERROR' end as "check", count(*) as "count"
  from co where o_carrier is not null
  and exists (select 1 from cn where no_w = o_w and no_d = o_d and no_o = o_id);
-- IN and NOT IN, correlated and not, with NULLs
select o_id from co where o_id in (select no_o from cn where no_w = co.o_w) order by 1;
select o_id, o_d from co where o_id not in (select no_o from cn where no_d = co.o_d) order by 1, 2;
select v from cv where v in (select v from cv where v > 1);
select v from cv where v not in (select v from cv where v > 1) order by v;
select v from cv where v not in (select v from cv) order by v;
select v from cv where v not in (select v from cv where v is not null and v > 5) order by v;
select v, v not in (select v from cv) as not_in, v in (select v from cv) as is_in from cv order by v;
select 3 not in (select v from cv), 3 not in (select v from cv where v is not null),
       null::int in (select v from cv where false), null::int not in (select v from cv where false);
-- scalar subqueries
select o_id, (select count(*) from cn where no_w = o_w and no_d = o_d) as n from co order by o_w, o_d, o_id;
select o_id from co where o_id = (select max(no_o) from cn where no_w = o_w and no_d = o_d) order by 1;
select o_w, o_d, o_id, coalesce((select max(no_o) from cn where no_w = o_w and no_o > o_id), -1) as next
  from co order by 1, 2, 3;
select (select no_o from cn where no_w = o_w and no_d = o_d and no_o = o_id) from co order by o_w, o_d, o_id;
-- a subquery two levels down reads the outermost row
select o_id from co where exists (select 1 from cn where no_w = o_w and exists
  (select 1 from cv where v = co.o_d and v = cn.no_d)) order by 1;
-- correlated subquery in a join's WHERE
select c1.o_id, c2.o_id from co c1 join co c2 on c1.o_w = c2.o_w and c1.o_d = c2.o_d
  where c2.o_id = (select min(o_id) from co c3 where c3.o_w = c1.o_w and c3.o_d = c1.o_d and c3.o_id > c1.o_id)
  order by 1, 2;
-- correlated subqueries in an aggregate query read its group keys
create table cg (k int, x text);
insert into cg values (1, 'a1'), (2, 'a2'), (2, 'a22'), (null, 'an');
select k, count(*), (select count(*) from cn b where b.no_d = a.k) as nb from cg a group by k order by k;
select k from cg a group by k having (select count(*) from cn b where b.no_d = a.k) > 1;
select k, (select max(no_o) from cn b where b.no_d = a.k and exists (select 1 from cn b2 where b2.no_d = a.k and b2.no_o <> b.no_o)) from cg a group by k order by k;
select count(*), (select count(*) from cn b where b.no_d = 2) from cg;
select k, (select count(*) from cn b where b.no_d = a.k + 0) from cg a group by k, a.k + 0 order by 1;
select k, (select count(*) from cn where cn.no_o::text = a.x) from cg a group by k;
drop table cg;
-- CASE, coalesce, nullif
select case count(*) when 0 then 'none' when 1 then 'one' else 'many' end from co where o_carrier is not null;
select coalesce(o_carrier, 0), coalesce(null, o_carrier, 42) from co order by o_w, o_d, o_id;
select nullif(o_d, 1), nullif('a', 'a'), nullif(o_id, 2.0) from co order by o_w, o_d, o_id;
select sum(coalesce(o_carrier, 0)) from co;
-- errors
select o_id from co where o_id = (select no_o from cn where no_w = o_w);
select (select no_o, no_d from cn limit 1) from co;
select o_id from co where exists (select nosuch from cn);
drop table co, cn, cv;
