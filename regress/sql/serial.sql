-- serial, bigserial and smallserial columns: an owned sequence and a
-- nextval default.
create table s1 (id serial primary key, b bigserial, c smallserial, v text);
insert into s1 (v) values ('a'), ('b');
insert into s1 (v) values ('c') returning id, b, c;
select * from s1 order by id;
select currval('s1_id_seq'), currval('s1_b_seq'), currval('s1_c_seq');
insert into s1 (id, v) values (10, 'explicit');
select nextval('s1_id_seq');
create table s2 (id serial default 5);
create table "S3" (id serial);
insert into "S3" default values;
insert into "S3" default values;
select * from "S3";
-- the sequence name is taken: the next one is chosen
create sequence s4_id_seq;
create table s4 (id serial);
insert into s4 default values;
select * from s4;
select nextval('s4_id_seq1');
drop sequence s1_id_seq;
drop table s1, "S3", s4;
select nextval('s1_id_seq');
select nextval('s4_id_seq');
drop sequence s4_id_seq;
