-- LEFT, RIGHT and FULL OUTER JOIN with ON, USING and NATURAL; CROSS JOIN;
-- joins of more than two tables; NULL-extended rows as PostgreSQL gives them.
create table ja (id int primary key, k int, a text);
create table jb (id int primary key, k int, b text);
create table jc (k int, c text);
insert into ja values (1, 1, 'a1'), (2, 2, 'a2'), (3, null, 'a3'), (4, 4, 'a4');
insert into jb values (10, 1, 'b1'), (20, 2, 'b2'), (21, 2, 'b2bis'), (30, 3, 'b3'), (40, null, 'b4');
insert into jc values (1, 'c1'), (3, 'c3'), (5, 'c5');

select * from ja left join jb on ja.k = jb.k order by ja.id, jb.id;
select * from ja right join jb on ja.k = jb.k order by jb.id, ja.id;
select * from ja full join jb on ja.k = jb.k order by ja.id, jb.id;
select * from ja full outer join jb on ja.k = jb.k and jb.b <> 'b2' order by ja.id, jb.id;
select ja.id, jb.id from ja left join jb on ja.k = jb.k and jb.id > 15 order by 1, 2;
-- WHERE on the NULL-extended side
select ja.id from ja left join jb on ja.k = jb.k where jb.id is null order by 1;
select ja.id, jb.id from ja left join jb on ja.k = jb.k where jb.b like 'b2%' order by 1, 2;
select jb.id from ja right join jb on ja.k = jb.k where ja.id is null order by 1;
select ja.id, jb.id from ja full join jb on ja.k = jb.k where ja.id is null or jb.id is null order by 1, 2;
-- USING and NATURAL: the merged column first, once
select * from ja join jc using (k) order by k;
select * from ja left join jc using (k) order by id;
select * from ja right join jc using (k) order by k;
select * from ja full join jc using (k) order by k, id;
select k, ja.k, jc.k from ja full join jc using (k) order by 1, 2, 3;
select * from ja natural join jc order by id;
select * from jb natural full join ja order by id;
-- CROSS JOIN and comma lists
select ja.id, jc.c from ja cross join jc where ja.id <= 2 order by 1, 2;
select count(*) from ja, jb, jc;
-- more than two tables
select ja.id, jb.id, jc.c from ja join jb on ja.k = jb.k join jc on jc.k = ja.k order by 1, 2;
select ja.id, jb.id, jc.c from ja left join jb on ja.k = jb.k left join jc on jc.k = jb.k order by 1, 2;
select ja.id, jb.id, jc.c from ja left join jb on ja.k = jb.k right join jc on jc.k = jb.k order by 3, 1, 2;
select ja.id, jb.id, jc.c from ja left join (jb join jc on jb.k = jc.k) on ja.k = jb.k order by 1, 2;
select ja.id, jb.id, jc.c from ja full join jb on ja.k = jb.k full join jc on jc.k = coalesce(ja.k, jb.k)
  order by 1, 2, 3;
select ja.id, x.id from ja join jb x on x.k = ja.k join jb y on y.id = x.id order by 1, 2;
-- aggregates over outer joins
select ja.id, count(jb.id), count(*) from ja left join jb on ja.k = jb.k group by ja.id order by ja.id;
select jb.k, count(ja.id) from ja right join jb on ja.k = jb.k group by jb.k order by jb.k;
-- errors
select * from ja join jb using (nosuch);
select * from ja join jb using (k, k);
select * from ja join jc using (c);
select id from ja join jb on ja.k = jb.k;
select * from ja full join jb on ja.k < jb.k;
select * from ja full join jb on ja.k = jb.k or ja.id = jb.id;
drop table ja, jb, jc;
