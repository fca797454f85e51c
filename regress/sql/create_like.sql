-- CREATE TABLE ... (LIKE source INCLUDING/EXCLUDING ...).
create table lsrc (id int primary key, code text not null default 'x', qty int check (qty >= 0), n int generated always as identity, u int unique);
create index lsrc_code_idx on lsrc (code);
create view lsrc_v as select id, code from lsrc;
create table l1 (like lsrc);
\d l1
create table l2 (extra int, like lsrc including defaults including constraints, tail text);
\d l2
create table l3 (like lsrc including all);
\d l3
create table l4 (like lsrc including indexes excluding constraints);
\d l4
create table l5 (like lsrc_v);
\d l5
create table l6 (like nosuch);
create table l7 (id int, like lsrc);
insert into l3 (id, code, qty, u) values (1, 'a', 1, 1);
insert into l3 (id, qty, u) values (2, -1, 2);
insert into l3 (id, qty, u) values (1, 1, 3);
select id, code, qty, n, u from l3;
drop table l1, l2, l3, l4, l5;
drop view lsrc_v;
drop table lsrc;
