-- INSERT ... SELECT whose source is a UNION.
create table iu (a int, b text);
insert into iu select 1 from generate_series(1, 3) union all select 2;
insert into iu select 1, 'x' union select 2, 'y' order by 1 limit 1;
insert into iu select 'x'::text union all select 'y';
insert into iu select 1, 2, 3 union all select 1, 2, 3;
insert into iu (a, b) select 1 union all select 2;
insert into iu values (7, 'v') union all select 8, 'w';
insert into iu select a + 10, b from iu where a < 2 union all select 20, 'z';
select * from iu order by a, b;
drop table iu;
