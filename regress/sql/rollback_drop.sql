-- DROP TABLE follows its transaction: ROLLBACK gives the table back, rows,
-- index and name, and the name is free for the transaction meanwhile.
create table dt (a int primary key, b serial, c text);
create index dt_c on dt (c);
insert into dt (a, c) values (1, 'one'), (2, 'two');
begin;
drop table dt;
select * from dt;
select relname from pg_class where relname like 'dt%' order by 1;
create table dt (x text primary key);
insert into dt values ('new');
select * from dt;
rollback;
select * from dt order by a;
select relname from pg_class where relname like 'dt%' order by 1;
insert into dt (a, c) values (3, 'three');
select a, b, c from dt where c = 'three';
begin;
drop table dt;
create table dt (x text primary key);
commit;
select * from dt;
select relname from pg_class where relname like 'dt%' order by 1;
drop table dt;
create table dt2 (a int);
insert into dt2 values (1);
drop table dt2; select 1/0;
select * from dt2;
drop table dt2;
