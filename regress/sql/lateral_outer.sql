-- A LATERAL item may read the left side of an inner or LEFT join, not of a
-- RIGHT or FULL one.
create table lt (f1 int);
insert into lt values (0), (2), (-1);
select f1, g from lt a right join lateral generate_series(0, a.f1) g on true;
select f1, g from lt a full join lateral generate_series(0, a.f1) g on true;
select f1, g from lt a right join lateral generate_series(0, f1) g on true;
select f1, g from lt a left join lateral generate_series(0, a.f1) g on true order by 1, 2;
select f1, x from lt a right join lateral (select a.f1 + 1 as x) s on true;
select a.f1, b.f1, g from lt a, lt b right join lateral generate_series(0, a.f1) g on true order by 1, 2, 3;
select a.f1, g from lt a right join (lt b cross join lateral generate_series(0, b.f1) g) on true order by 1, 2;
drop table lt;
