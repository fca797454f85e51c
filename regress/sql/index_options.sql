-- Storage parameters of btree indexes, and the index definitions that
-- show them.
create table ixo (a int, b text);
insert into ixo select g, 'x' || g from generate_series(1, 2000) g;
create index ixo_ff on ixo (a) with (fillfactor = 50);
create index ixo_dd on ixo (b) with (deduplicate_items = off);
create index ixo_90 on ixo (a);
create index ixo_bad on ixo (a) with (foo = 1);
create index ixo_bad on ixo (a) with (fillfactor = 5);
create index ixo_bad on ixo (a) with (fillfactor = 'x');
create index ixo_bad on ixo (a) with (fillfactor = 50, fillfactor = 60);
create index ixo_bad on ixo (a int4_ops(foo = 1));
select relname, reloptions from pg_class where relname like 'ixo%' order by 1;
select pg_get_indexdef('ixo_ff'::regclass);
select pg_get_indexdef('ixo_dd'::regclass);
\d ixo
drop table ixo;
