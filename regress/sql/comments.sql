-- COMMENT ON tables, views, indexes, sequences, columns and schemas; pg_description, obj_description, col_description, psql's \d+.
create table cmnt (a int primary key, b int);
create index cmnt_b on cmnt (b);
create view cmntv as select a from cmnt;
create sequence cmnts;
comment on table cmnt is 'the table';
comment on column cmnt.a is 'col a';
comment on column cmntv.a is 'view col';
comment on index cmnt_b is 'idx';
comment on view cmntv is 'v';
comment on sequence cmnts is 's';
comment on table cmntv is 'x';
comment on view cmnt is 'x';
comment on index cmnt is 'x';
comment on column cmnt.nosuch is 'x';
comment on table nosuch is 'x';
comment on column cmnts.last_value is 'x';
select objoid::regclass, classoid::regclass, objsubid, description from pg_description where objoid in ('cmnt'::regclass, 'cmnt_b'::regclass, 'cmntv'::regclass, 'cmnts'::regclass) order by 1, 3;
select obj_description('cmnt_b'::regclass, 'pg_class'), obj_description('cmnt'::regclass), col_description('cmnt'::regclass, 1), col_description('cmnt'::regclass, 2), obj_description('cmnt'::regclass, 'pg_namespace');
\d+ cmnt
\dt+ cmnt
\dv+ cmntv
comment on table cmnt is null;
comment on column cmnt.a is '';
select count(*) from pg_description where objoid = 'cmnt'::regclass;
comment on schema public is 'my public';
select obj_description('public'::regnamespace, 'pg_namespace');
\dn+ public
comment on schema public is 'standard public schema';
begin read only;
comment on table cmnt is 'ro';
rollback;
drop view cmntv;
drop table cmnt;
drop sequence cmnts;
