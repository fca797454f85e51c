-- FOREIGN KEY constraints: added by CREATE TABLE and ALTER TABLE, checked
-- when added, enforced on both sides, dropped.
create table p (id int primary key, v text);
create table c (a int, pid int references p, note text);
insert into p values (1, 'one'), (2, 'two');
insert into c values (1, 1, 'ok'), (2, null, 'null key is not checked');
insert into c values (3, 3, 'missing');
update c set pid = 4 where a = 1;
update c set pid = 2 where a = 1;
delete from p where id = 2;
update p set id = 20 where id = 2;
update p set v = 'TWO' where id = 2;
delete from p where id = 1;
select * from p order by id;
select * from c order by a;
-- table constraint, composite key, explicit name
create table p2 (x int, y int, primary key (x, y));
create table c2 (x int, y int, constraint c2_fk foreign key (x, y) references p2 (x, y));
insert into p2 values (1, 1);
insert into c2 values (1, 1), (1, null);
insert into c2 values (1, 2);
-- ALTER TABLE ... ADD: existing rows are checked
create table c3 (x int, y int);
insert into c3 values (1, 1), (5, 6);
alter table c3 add constraint c3_fk foreign key (x, y) references p2 (x, y);
delete from c3 where x = 5;
alter table c3 add constraint c3_fk foreign key (x, y) references p2 (x, y);
alter table c3 add constraint c3_fk foreign key (x, y) references p2 (x, y);
alter table c3 add foreign key (x, y) references p2;
insert into c3 values (7, 7);
alter table c3 drop constraint c3_fk;
alter table c3 drop constraint c3_x_y_fkey;
insert into c3 values (7, 7);
alter table c3 drop constraint c3_fk;
-- errors when adding
create table nokey (a int, b int);
alter table c3 add foreign key (x) references nokey (a);
alter table c3 add foreign key (x) references nokey;
alter table c3 add foreign key (x) references p2 (x);
alter table c3 add foreign key (x, y) references p2 (x);
alter table c3 add foreign key (nosuch) references p2 (x);
alter table c3 add foreign key (x) references p2 (nosuch);
alter table c3 add foreign key (x) references nosuch (a);
create table tx (t text);
alter table tx add foreign key (t) references p (id);
-- the referenced key's index and table cannot go while referenced
alter table p drop constraint p_pkey;
drop table p;
create table pu (a int);
create unique index pu_a on pu (a);
create table cu (a int references pu (a));
drop index pu_a;
drop table cu, pu;
drop table p2 cascade;
insert into c2 values (9, 9);
-- ON DELETE CASCADE, ON DELETE SET NULL, ON UPDATE CASCADE
create table pc (id int primary key);
create table cc (id int references pc on delete cascade on update cascade, n int);
create table cn (id int references pc on delete set null, n int);
insert into pc values (1), (2);
insert into cc values (1, 10), (1, 11), (2, 20);
insert into cn values (1, 10), (2, 20);
delete from pc where id = 1;
select * from cc order by n;
select * from cn order by n;
update pc set id = 3 where id = 2;
select * from cc order by n;
-- a table that references itself
create table tree (id int primary key, parent int references tree);
insert into tree values (1, null), (2, 1);
insert into tree values (3, 9);
delete from tree where id = 1;
delete from tree where id = 2;
delete from tree where id = 1;
-- rolled back inserts do not count
begin;
insert into p values (5, 'five');
insert into c values (5, 5, 'in txn');
rollback;
insert into c values (5, 5, 'after rollback');
drop table c, p;
drop table c2, c3, nokey, tx, cc, cn, pc, tree;
