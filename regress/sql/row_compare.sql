-- Row comparisons: (a, b) op (c, d), IS [NOT] DISTINCT FROM, [NOT] IN lists of rows.
select (1, 2) = (1, 2), (1, 2) = (1, 3), (1, null) = (1, 2), (1, null) = (2, 2), (1, 2) <> (1, 3), (1, null) <> (1, 2), (1, null) <> (2, 2);
select (1, 2) < (1, 3), (1, 2) < (2, 0), (2, 0) < (1, 9), (1, 2) <= (1, 2), (1, 2) > (1, 2), (1, 2) >= (1, 2), (1, null) < (2, 0), (1, null) < (1, 5), (null, 1) < (1, 2);
select (1, 'a', 2.5) < (1, 'b', 0), (1, 2, 3) = (1, 2, 3), row(1, 2) = row(1, 2), (1, 2) is distinct from (1, null), (1, null) is not distinct from (1, null);
select (1, 2) in ((1, 2), (3, 4)), (5, 6) in ((1, 2), (3, 4)), (1, 2) not in ((1, 2), (3, 4)), (5, 6) not in ((1, 2), (3, 4)), (1, null) in ((1, 2));
create table rowc (a int, b int, c text);
insert into rowc select g / 3, g % 3, 'r' || g from generate_series(0, 11) g;
select a, b, c from rowc where (a, b) > (1, 1) order by a, b limit 4;
select a, b from rowc where (a, b) <= (0, 1) order by a, b;
select count(*) from rowc where (a, b) in ((1, 1), (2, 2), (9, 9));
select (1, 2) = (1, 2, 3);
select (1, 'x') = (1, 2);
select (1, 2) < (1, '2');
drop table rowc;
