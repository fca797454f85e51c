-- default_transaction_read_only and READ ONLY / READ WRITE transactions:
-- every transaction begins with the default, inside a block or not.
create table ro_t (a int primary key);
insert into ro_t values (1);
create sequence ro_s;
set default_transaction_read_only = on;
show transaction_read_only;
insert into ro_t values (2);
update ro_t set a = 3;
delete from ro_t;
select * from ro_t;
select * from ro_t for update;
select * from ro_t for share;
select nextval('ro_s');
create table ro_u (a int);
create index on ro_t (a);
drop table ro_t;
truncate ro_t;
copy ro_t from stdin;
-- a READ WRITE block overrides the default
begin read write;
show transaction_read_only;
insert into ro_t values (4);
commit;
begin;
show transaction_read_only;
insert into ro_t values (5);
rollback;
set session characteristics as transaction read write;
show default_transaction_read_only;
begin read only;
insert into ro_t values (6);
rollback;
insert into ro_t values (7);
select * from ro_t order by a;
set work_mem to default;
reset work_mem;
drop table ro_t;
drop sequence ro_s;
