-- Set-returning functions where PostgreSQL refuses them, and where minipg
-- does not support them yet.
create table srf_t (id int, grp text);
insert into srf_t values (1, 'a'), (2, 'a'), (3, 'b');
select * from generate_series(1, generate_series(1, 3));
select * from abs(generate_series(1, 3));
select min(generate_series(1, 3)) from srf_t;
select count(unnest(array[1, 2])) from srf_t;
select case when id > 1 then generate_series(1, 2) end from srf_t;
select case generate_series(1, 2) when 1 then 'x' end;
select coalesce(generate_series(1, 2), 0);
-- allowed
select abs(generate_series(-2, 2));
select generate_series(1, 2) as g, unnest(array['a', 'b', 'c']) as u;
select id, generate_series(1, id) from srf_t order by 1, 2;
drop table srf_t;
