-- GREATEST and LEAST; IS [NOT] TRUE, FALSE, UNKNOWN.
select greatest(1, 5, 3), least(1, 5, 3), greatest(1, null, 3), least(null, null), greatest('a', 'b'), greatest(1, 2.5), least(1::int2, 7::int8);
select pg_typeof(greatest(1, 2.5)), pg_typeof(greatest('a', 'b')), pg_typeof(least(null, null));
select greatest(1, 'x');
select greatest(1, now());
select greatest(date '2026-01-01', timestamp '2025-12-31 10:00'), least('2026-01-01'::date, '2026-02-01');
create table glbt (a int, b int);
insert into glbt values (1, 2), (5, null), (null, null), (4, 3);
select a, b, greatest(a, b), least(a, b, 3) from glbt order by a nulls last;
select true is true, false is true, null is true, null is not true, true is not false, null is unknown, false is not unknown, (1 < 2) is false;
select a, (a > 2) is true as big, (a > 2) is not true as notbig, (a > 2) is unknown as unk from glbt order by a nulls last;
select 1 is true;
select 'yes' is true, 'no' is false;
select count(*) from glbt where (a > b) is not true;
drop table glbt;
