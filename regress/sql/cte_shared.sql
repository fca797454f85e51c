-- A CTE referenced more than once is evaluated once: a volatile function in
-- it gives every reference the same rows.
SELECT count(*) FROM (
  WITH q1(x) AS (SELECT random() FROM generate_series(1, 5))
    SELECT * FROM q1
  UNION
    SELECT * FROM q1
) ss;
with r as (select random() as v) select a.v = b.v as same from r a, r b;
create sequence cte_seq;
with n as (select nextval('cte_seq') as v) select a.v, b.v from n a cross join n b;
select currval('cte_seq');
with t(x) as (values (1), (2), (3)) select a.x, b.x from t a join t b on a.x = b.x order by 1;
with t(x) as (values (1), (2)) select (select count(*) from t), count(*) from t;
with t(x) as (select generate_series(1, 3)) select x, (select max(x) from t t2 where t2.x < t1.x) from t t1 order by 1;
drop sequence cte_seq;
