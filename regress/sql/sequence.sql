-- CREATE SEQUENCE, nextval/currval/setval/lastval, DROP SEQUENCE and
-- column defaults that call nextval.
select lastval();
create sequence s;
select currval('s');
select nextval('s'), nextval('s'), currval('s'), lastval();
select setval('s', 10);
select nextval('s');
select setval('s', 20, false);
select nextval('s'), currval('s');
select setval('s', 0);
select nextval('nosuch');
select nextval('S');
select nextval('"s"'), nextval('public.s'), nextval('s'::regclass);
create sequence s;
create sequence if not exists s;
-- nextval is not rolled back
begin;
select nextval('s');
rollback;
select nextval('s');
-- bounds and cycling
create sequence small increment 2 minvalue 1 maxvalue 5 start 1;
select nextval('small'), nextval('small'), nextval('small');
select nextval('small');
create sequence cyc maxvalue 3 cycle;
select nextval('cyc'), nextval('cyc'), nextval('cyc'), nextval('cyc');
create sequence down increment -1;
select nextval('down'), nextval('down');
create sequence down2 increment -5 minvalue -12 maxvalue -1 start -1;
select nextval('down2'), nextval('down2'), nextval('down2');
select nextval('down2');
create sequence cached cache 10;
select nextval('cached'), nextval('cached'), nextval('cached');
create sequence i4 as integer;
select setval('i4', 2147483647);
select nextval('i4');
-- parameter errors
create sequence bad increment 0;
create sequence bad minvalue 10 maxvalue 5;
create sequence bad start 0;
create sequence bad start 100 maxvalue 10;
create sequence bad cache 0;
create sequence bad as integer maxvalue 3000000000;
create sequence bad as text;
-- tables are not sequences
create table t (id int primary key, v text);
select nextval('t');
drop sequence t;
drop table s;
-- defaults
create sequence t_id_seq;
alter table t alter column id set default nextval('t_id_seq');
insert into t (v) values ('a'), ('b');
insert into t (v) values ('c') returning id;
select * from t order by id;
select currval('t_id_seq');
drop sequence t_id_seq;
alter table t alter column id drop default;
insert into t (v) values ('d');
drop sequence t_id_seq;
alter table t alter column nosuch set default 1;
-- setval with a scalar subquery, as BenchmarkSQL does
create sequence hist_seq;
select setval('hist_seq', (select max(id) from t));
select nextval('hist_seq');
-- OWNED BY: dropped with the table
create table o (a int);
create sequence o_seq owned by o.a;
create sequence o_bad owned by o.nosuch;
drop table o;
select nextval('o_seq');
drop sequence if exists o_seq, nosuch;
drop sequence nosuch;
drop sequence s, small, cyc, down, down2, cached, i4, hist_seq;
select currval('s');
drop table t;
