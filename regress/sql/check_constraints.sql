-- CHECK constraints: column and table constraints, their names, the rows
-- they refuse, ALTER TABLE ... ADD/DROP, NOT VALID, and what they may hold.
create table chk (a int check (a > 0), b int, c int constraint c_small check (c < 10),
  check (a < b), check (b > 0 and b < 100), check (true), check (c <> a));
\d chk
select conname, contype, convalidated, conkey from pg_constraint where conrelid = 'chk'::regclass order by conname;
select relchecks from pg_class where relname = 'chk';
insert into chk values (1, 2, 3);
insert into chk values (0, 2, 3);
insert into chk values (null, null, null);
insert into chk values (5, 2, 3);
insert into chk values (1, 200, 3);
insert into chk values (3, 4, 3);
update chk set c = 12 where a = 1;
update chk set b = b + 1 where a = 1;
copy chk from stdin;
2	5	7
\.
\copy chk from stdin
9	3	1
\.
select * from chk order by a nulls last;
create table chk2 (a int, check (a > (select 1)));
create table chk2 (a int, check (sum(a) > 1));
create table chk2 (a int, check (a));
create table chk2 (a int, check (ctid::text <> '(0,0)'));
create table chk2 (a int, check (nosuch > 0));
create table chk2 (a int, constraint same check (a > 0), constraint same check (a < 9));
create table chk2 (a int, check (a > 0) no inherit, b int check (b > a));
\d chk2
alter table chk add constraint chk_big check (a < 10);
alter table chk add check (a < 2);
alter table chk add constraint chk_nv check (a < 2) not valid;
insert into chk values (3, 4, 5);
alter table chk add constraint chk_big check (a < 20);
alter table chk drop constraint chk_a_check;
alter table chk drop constraint chk_nv, drop constraint chk_big;
insert into chk values (3, 4, 5);
alter table chk drop constraint nosuch;
alter table chk drop constraint if exists nosuch;
\d chk
begin;
alter table chk add constraint chk_b_even check (b % 2 = 0);
rollback;
insert into chk values (-1, 5, 6);
drop table chk, chk2;
