-- COPY ... FROM STDIN WITH (FREEZE): only on a table created or truncated
-- in the current transaction.
create table f (id int, v text);
copy f from stdin with (freeze);
1	one
\.
begin;
copy f from stdin with (freeze);
1	one
\.
rollback;
begin;
truncate f;
copy f from stdin with (freeze);
2	two
\.
commit;
select * from f;
begin;
create table g (id int);
copy g from stdin with (freeze on);
3
\.
commit;
select * from g;
copy f from stdin with (freeze false);
4	four
\.
select count(*) from f;
drop table f, g;
