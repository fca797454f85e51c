-- Subqueries in FROM (derived tables): aliases, column aliases, aggregates,
-- GROUP BY ... HAVING and outer joins inside them, joins of derived tables.
create table fo (o_id int primary key, o_cust int, o_cnt int);
create table fl (l_o_id int, l_no int, l_amount numeric(6,2), primary key (l_o_id, l_no));
insert into fo values (1, 10, 2), (2, 10, 3), (3, 20, 1), (4, 30, 0), (5, 20, 2);
insert into fl values (1, 1, 1.50), (1, 2, 2.25), (2, 1, 10.00), (2, 2, 0.75),
  (3, 1, 4.00), (5, 1, 3.00), (5, 2, 3.00), (5, 3, 1.00);

select * from (select o_id, o_cust from fo where o_cust = 10) as s order by o_id;
select s.x, s.y from (select o_id, o_cust from fo) s (x, y) where s.y > 10 order by 1;
select x, o_cust from (select o_id, o_cust from fo) s (x) order by x desc limit 2;
select count(*) from (select * from fo) t;
select count(*) as n from (select o_id from fo where o_cnt > 5) as none;
select * from (select 1 as a, 'two' as b) v;
select * from (select o_cust, count(*) as orders, sum(o_cnt) as lines
               from fo group by o_cust) g order by o_cust;
select o_cust from (select o_cust, count(*) as n from fo group by o_cust having count(*) > 1) g
  order by o_cust;
-- an outer join, GROUP BY and HAVING inside the derived table
select * from (
  select o_id, o_cnt, count(l_no) as actual
    from fo left join fl on l_o_id = o_id
    group by o_id, o_cnt
    having o_cnt <> count(l_no)
) as x order by o_id;
select count(*) from (
  select o_id, o_cnt, count(*) as actual
    from fo left join fl on l_o_id = o_id
    group by o_id, o_cnt
    having o_cnt <> count(*)
) as x;
-- a cross join of two aggregate derived tables
select a, b, a + b as total
  from (select sum(o_cnt) as a from fo) as s1,
       (select count(*) as b from fl) as s2;
select * from (select sum(o_cnt) as a from fo) s1 cross join (select sum(l_amount) as b from fl) s2
  where a <> b;
-- derived tables joined with tables and with each other
select o.o_id, t.total from fo o
  join (select l_o_id, sum(l_amount) as total from fl group by l_o_id) t on t.l_o_id = o.o_id
  order by o.o_id;
select o.o_id, coalesce(t.total, 0) as total from fo o
  left join (select l_o_id, sum(l_amount) as total from fl group by l_o_id) t on t.l_o_id = o.o_id
  order by o.o_id;
select a.o_cust, a.n, b.amount
  from (select o_cust, count(*) as n from fo group by o_cust) a
  join (select o_cust, sum(l_amount) as amount from fo join fl on l_o_id = o_id group by o_cust) b
    on a.o_cust = b.o_cust
  order by 1;
-- derived tables matched on keys with NULLs and of other types
select o.o_id, d.k from fo o left join (select case when o_id > 3 then null else o_id end as k from fo) d
  on d.k = o.o_id order by 1;
select o.o_id, d.k from fo o join (select o_id * 1.0 as k from fo) d on d.k = o.o_id order by 1;
select o.o_id, d.c from fo o join (select o_cust as c, o_cnt as n from fo) d on d.c = o.o_cust and d.n = o.o_cnt
  order by 1, 2;
-- nested derived tables, a derived table in a subquery
select max(n) from (select n from (select o_cnt * 2 as n from fo) a where n > 0) b;
select o_id from fo where o_cnt = (select max(c) from (select o_cnt as c from fo) m);
select * from (select o_id, o_cnt from fo order by o_cnt desc, o_id limit 3) top order by o_id;
select distinct c from (select o_cust as c from fo) d order by c;
-- grouped over a derived table
select c, count(*), sum(n) from (select o_cust as c, o_cnt as n from fo) d group by c order by c;
-- LATERAL subqueries read the items before them
select o.o_id, l.* from fo o, lateral (select l_no, l_amount from fl where l_o_id = o.o_id order by l_no desc limit 1) l
  order by 1;
select o.o_id, l.n from fo o left join lateral (select count(*) as n from fl where l_o_id = o.o_id and l_no > 1) l on true
  order by 1;
select o.o_id, x.t from fo o cross join lateral (select o.o_cnt * 10 as t) x where x.t > 10 order by 1;
select c, (select sum(s) from (select o_cnt as s from fo where o_cust = c) q) from (select distinct o_cust as c from fo) d
  order by c;
-- errors
select * from (select 1);
select * from (select 1, 2) s (a, b, c);
select s.o_id from (select o_cust from fo) s;
select o_id from (select o_id from fo) a, (select o_id from fo) b;
select * from fo, (select 1) fo;
drop table fo, fl;
