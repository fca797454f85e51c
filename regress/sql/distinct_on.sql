-- SELECT DISTINCT ON: the first row of each run, ORDER BY's rules, the Unique plan.
create table don (id int primary key, grp text, score int, at date);
insert into don values (1, 'a', 10, '2026-01-01'), (2, 'a', 30, '2026-01-03'), (3, 'b', 20, '2026-01-02'),
  (4, 'b', 20, '2026-01-05'), (5, null, 5, '2026-01-01'), (6, null, 7, '2026-01-09'), (7, 'c', null, '2026-01-04');
select distinct on (grp) grp, id, score from don order by grp, score desc nulls last, id;
select distinct on (grp) grp, id from don order by grp, id desc;
select distinct on (grp) id, score from don order by grp, at;
select distinct on (1) grp, id from don order by 1, 2;
select distinct on (grp, score) grp, score, id from don order by grp, score, id;
select distinct on (score, grp) grp, score, id from don order by grp, score, id;
select distinct on (grp) grp, id from don order by id;
select distinct on (grp, score) grp, score from don order by grp, id;
select distinct on (grp) grp, count(*) over () from don order by grp, id;
select distinct on (upper(grp)) upper(grp) as g, id from don order by upper(grp), id desc limit 2;
select count(*) from (select distinct on (grp) * from don order by grp, id) s;
select distinct on (grp) grp, id from don order by grp, id offset 1 limit 2;
explain (costs off) select distinct on (grp) grp, id from don order by grp, id;
select distinct on (nosuch) id from don;
drop table don;
