-- COLLATE on columns and index columns: the collations minipg has (C, POSIX,
-- default), and a type without collations.
create table co1 (a int, b text collate "ja_JP.eucjp-x-icu");
create table co2 (a int collate "C", b text);
create table co3 (a int, b text collate "C", c varchar(5) collate "POSIX", d text collate pg_catalog."default");
create index on co3 (a collate "C");
create index co3_b on co3 (b collate "C");
select 'a' < 'B' collate "C";
select 1 collate "C";
select 'x' collate "nosuch";
drop table co3;
