-- TRUNCATE: several tables, RESTART IDENTITY, foreign keys, transactions.
create table a (id serial primary key, v text);
create table b (id int, v text);
insert into a (v) values ('a1'), ('a2');
insert into b values (1, 'b1');
truncate a;
select * from a;
insert into a (v) values ('a3') returning id;
truncate table a, b restart identity;
select count(*) from a;
select count(*) from b;
insert into a (v) values ('a4') returning id;
insert into a (v) values ('a4') returning id;
truncate a continue identity;
insert into a (v) values ('a5') returning id;
select * from a;
-- the primary key index is emptied too
insert into a values (1, 'again');
insert into a values (1, 'dup');
-- in a transaction block: ROLLBACK keeps the rows
begin;
truncate a;
select count(*) from a;
rollback;
select * from a order by id;
begin;
truncate a;
insert into a values (7, 'after truncate');
commit;
select * from a order by id;
-- foreign keys
create table p (id int primary key);
create table c (pid int references p);
insert into p values (1);
insert into c values (1);
truncate p;
truncate p restrict;
truncate p, c;
insert into p values (2);
insert into c values (2);
truncate p cascade;
select count(*) from c;
-- errors
truncate nosuch;
create sequence sq;
truncate sq;
truncate a, nosuch;
drop sequence sq;
drop table c, p, a, b;
