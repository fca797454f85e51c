--
-- INSERT ... ON CONFLICT: DO NOTHING and DO UPDATE, conflict targets
-- (columns, ON CONSTRAINT, an index predicate), EXCLUDED, the target's
-- alias, RETURNING, command tags, PostgreSQL's errors, EXPLAIN, and what
-- the heap shows of it: HOT updates, the row lock DO UPDATE takes, the WAL
-- records of a speculative insertion. Sessions upserting the same keys at
-- the same time are server/pgxtest/upsert_test.go's. minipg runs this
-- script with fsm_policy = classic (regress_test.go), so that rows go, and
-- pages are pruned, where and when PostgreSQL's do.
--
set client_min_messages = warning; -- another script may have created them
create extension if not exists pageinspect;
create extension if not exists pg_walinspect;
reset client_min_messages;
\set QUIET off
create table ups_t (a int primary key, b text, c int unique, d int default 7 check (d > 0));

-- DO NOTHING: the tag counts the rows inserted, not those skipped.
insert into ups_t values (1, 'one', 10) on conflict do nothing;
insert into ups_t values (1, 'uno', 11) on conflict do nothing;
insert into ups_t values (2, 'two', 10) on conflict do nothing;
insert into ups_t values (1, 'uno', 11) on conflict (a) do nothing;
-- A conflict in a unique index that is not an arbiter is an error.
insert into ups_t values (2, 'two', 10) on conflict (a) do nothing;
-- Two rows of one statement with one key: the second is skipped.
insert into ups_t values (2, 'two', 20), (2, 'deux', 21), (3, 'three', 30) on conflict do nothing;
-- NULLs never conflict.
insert into ups_t values (4, 'four', null), (5, 'five', null) on conflict (c) do nothing;
insert into ups_t values (6, 'six', 60), (1, 'x', 99), (7, 'seven', 70) on conflict (a) do nothing returning a, b, ctid;
insert into ups_t select g, 'g' || g, g * 10 from generate_series(6, 9) g on conflict do nothing returning *;
select * from ups_t order by a;

-- DO UPDATE: SET and WHERE read the existing row (by the table's name or
-- alias) and EXCLUDED, the row proposed with its defaults.
insert into ups_t values (1, 'uno', 10) on conflict (a) do update set b = ups_t.b || '/' || excluded.b returning *;
insert into ups_t as t values (2, 'deux', 20) on conflict (a) do update set b = t.b || '/' || excluded.b, d = excluded.d + t.d returning t.*;
insert into ups_t (a, b) values (3, 'trois') on conflict (a) do update set c = excluded.c, d = excluded.d returning *;
-- WHERE false leaves the row as it is, and the tag at 0.
insert into ups_t values (4, 'vier', 40) on conflict (a) do update set b = excluded.b where ups_t.b = 'nope';
insert into ups_t values (4, 'vier', 40), (50, 'fifty', 500) on conflict (a) do update set b = excluded.b where excluded.c > 100 returning a, b;
insert into ups_t values (4, 'vier', 40), (51, 'fifty-one', 510) on conflict (a) do update set b = excluded.b where excluded.c < 100 returning a, b;
-- New rows and updated ones count together.
insert into ups_t values (5, 'fünf', 55), (52, 'x', 520), (6, 'sechs', 66) on conflict (a) do update set b = excluded.b, c = excluded.c;
-- The arbiter's own column may change.
insert into ups_t values (52, 'y', 521) on conflict (a) do update set a = excluded.a + 1000 returning *;
-- ... unless it collides with another row: a unique violation.
insert into ups_t values (1052, 'z', 1) on conflict (a) do update set a = 1 returning *;
-- A key proposed twice in one statement: 21000.
insert into ups_t values (7, 'a', 71), (7, 'b', 72) on conflict (a) do update set b = excluded.b;
insert into ups_t values (800, 'a', 801), (800, 'b', 802) on conflict (a) do update set b = excluded.b;
-- ... also when the row existed before the statement.
insert into ups_t values (8, 'a', 81), (8, 'b', 82) on conflict (a) do update set b = excluded.b;
select * from ups_t where a in (7, 8, 800);
-- DEFAULT, row assignment and subqueries in SET.
insert into ups_t values (9, 'neun', 90, 3) on conflict (a) do update set d = default, b = excluded.b returning *;
insert into ups_t values (9, 'nine', 91) on conflict (a) do update set (b, c) = (excluded.b, excluded.c + 1) returning *;
insert into ups_t values (9, 'nueve', 92) on conflict (a) do update
  set (b, d) = (select excluded.b || '!', count(*)::int from ups_t where a < excluded.a) returning *;
insert into ups_t values (9, 'nove', 93) on conflict (a) do update
  set b = (select string_agg(b, ',' order by a) from ups_t where a in (1, 2)) where excluded.c in (select c + 1 from ups_t) returning *;
-- CHECK and NOT NULL hold for the new version; the failing row is shown.
insert into ups_t values (9, 'nine', 90) on conflict (a) do update set d = -1;
insert into ups_t values (9, 'nine', 90) on conflict (a) do update set a = null;
-- ON CONFLICT ON CONSTRAINT names the arbiter.
insert into ups_t values (100, 'hundred', 10) on conflict on constraint ups_t_c_key do update set b = excluded.b returning *;
insert into ups_t values (1, 'eins', 1000) on conflict on constraint ups_t_pkey do update set b = excluded.b returning *;
-- An index predicate: without partial indexes it picks the same indexes.
insert into ups_t values (1, 'one', 10) on conflict (a) where a > 0 do update set b = excluded.b returning *;
insert into ups_t values (1, 'one', 10) on conflict (a) where b is not null do nothing;
select * from ups_t order by a;
-- In a transaction: a row an earlier statement inserted, updated or
-- deleted is the row this one meets (or not).
begin;
insert into ups_t values (900, 'new', 900);
insert into ups_t values (900, 'again', 901) on conflict (a) do update set b = ups_t.b || '+' || excluded.b returning *;
insert into ups_t values (900, 'third', 902) on conflict (a) do update set b = ups_t.b || '+' || excluded.b returning *;
delete from ups_t where a = 900;
insert into ups_t values (900, 'back', 903) on conflict (a) do update set b = 'not this' returning *;
insert into ups_t as t values (900, 'skip', 904) on conflict do nothing returning t.a;
commit;
select * from ups_t where a = 900;
-- A SELECT proposing one key twice, DO NOTHING: the first row wins.
insert into ups_t select 901, 'v' || g, null from generate_series(1, 3) g on conflict (a) do nothing returning *;

-- A conflict target over two columns, in any order; NULLs never conflict.
create table ups_pair (x int, y int, v text, unique (x, y));
insert into ups_pair values (1, 1, 'a'), (1, 2, 'b'), (null, 1, 'c');
insert into ups_pair values (1, 2, 'B'), (2, 1, 'D'), (null, 1, 'E') on conflict (y, x) do update set v = ups_pair.v || excluded.v;
insert into ups_pair values (1, 1, 'A') on conflict (x, x, y) do update set v = excluded.v;
insert into ups_pair values (1, 1, 'A') on conflict (x) do nothing;
select * from ups_pair order by x, y, v;

-- Foreign keys on both sides hold for DO UPDATE.
create table ups_parent (id int primary key, name text);
create table ups_child (id int primary key, parent int references ups_parent, note text);
insert into ups_parent values (1, 'p1'), (2, 'p2');
insert into ups_child values (1, 1, 'c1') on conflict (id) do update set parent = excluded.parent;
insert into ups_child values (1, 2, 'c1') on conflict (id) do update set parent = excluded.parent returning *;
insert into ups_child values (1, 3, 'c1') on conflict (id) do update set parent = excluded.parent;
insert into ups_parent values (2, 'p2') on conflict (id) do update set id = 20;
insert into ups_parent values (1, 'p1') on conflict (id) do update set id = 10;
insert into ups_parent values (1, 'p1') on conflict (id) do update set name = excluded.name || '!' returning *;

-- Identity columns: GENERATED ALWAYS may not be set.
create table ups_ident (id int generated always as identity primary key, k int unique, v text);
insert into ups_ident (k, v) values (1, 'a'), (2, 'b');
insert into ups_ident (k, v) values (1, 'A') on conflict (k) do update set v = excluded.v returning *;
insert into ups_ident (k, v) values (1, 'A') on conflict (k) do update set id = 5;
insert into ups_ident (k, v) values (1, 'A') on conflict (k) do update set id = default returning *;

-- A table without indexes: DO NOTHING inserts; a target finds no index.
create table ups_noidx (a int, b text);
insert into ups_noidx values (1, 'x'), (1, 'x') on conflict do nothing;
insert into ups_noidx values (1, 'x') on conflict (a) do nothing;

-- Parameters, through PREPARE.
prepare ups_p(int, text) as insert into ups_t values ($1, $2) on conflict (a) do update set b = $2 || excluded.b returning a, b;
execute ups_p(1, 'p');
execute ups_p(200, 'q');
deallocate ups_p;

-- Errors, with PostgreSQL's texts and positions (their SQLSTATEs below).
insert into ups_t values (1) on conflict do update set b = 'x';
insert into ups_t values (1) on conflict (b) do nothing;
insert into ups_t values (1) on conflict (a, c) do nothing;
insert into ups_t values (1) on conflict ((a + 1)) do nothing;
insert into ups_t values (1) on conflict (nosuch) do nothing;
insert into ups_t values (1) on conflict (a desc) do nothing;
insert into ups_t values (1) on conflict (a nulls first) do nothing;
insert into ups_t values (1) on conflict (a) where (select true) do nothing;
insert into ups_t values (1) on conflict (a) where count(*) > 0 do nothing;
insert into ups_t values (1) on conflict on constraint nosuch do nothing;
insert into ups_t values (1) on conflict on constraint ups_t_d_check do nothing;
insert into ups_child values (1) on conflict on constraint ups_child_parent_fkey do nothing;
insert into ups_t values (1) on conflict (a) do update set b = b;
insert into ups_t values (1) on conflict (a) do update set nosuch = 1;
insert into ups_t values (1) on conflict (a) do update set b = excluded.nosuch;
insert into ups_t values (1) on conflict (a) do update set b = excluded.ctid::text;
insert into ups_t values (1) on conflict (a) do update set b = 'x' where count(*) > 0;
insert into ups_t values (1) on conflict (a) do update set b = 'x' returning excluded.b;
insert into ups_t values (1) on conflict do nothing returning excluded.b;
insert into ups_t as t values (1) on conflict (a) do update set b = ups_t.b;
insert into ups_t as t values (1) on conflict (a) do update set b = 'x' returning ups_t.b;
insert into ups_t values (1) on conflict (a) do update set b = 1 + 'x';
insert into ups_t values (1) on conflict (a) do update set b = 'x', b = 'y';
-- The arbiters are inferred once the statement is bound: its other errors
-- come first.
insert into ups_t values (1) on conflict (b) do update set nosuch = 1;
\set VERBOSITY sqlstate
insert into ups_t values (1) on conflict do update set b = 'x';
insert into ups_t values (1) on conflict (b) do nothing;
insert into ups_t values (1) on conflict (a desc) do nothing;
insert into ups_t values (1) on conflict on constraint nosuch do nothing;
insert into ups_t values (1) on conflict on constraint ups_t_d_check do nothing;
insert into ups_t values (1) on conflict (a) do update set b = b;
insert into ups_t values (1) on conflict (a) do update set b = 'x' returning excluded.b;
insert into ups_t values (7, 'a', 71), (7, 'b', 72) on conflict (a) do update set b = excluded.b;
insert into ups_t values (2, 'two', 10) on conflict (a) do nothing;
\set VERBOSITY default

-- EXPLAIN shows how conflicts are resolved, the arbiters and the filter.
explain (costs off) insert into ups_t values (1, 'x') on conflict do nothing;
explain (costs off) insert into ups_t values (1, 'x'), (2, 'y') on conflict (c) do nothing;
explain (costs off) insert into ups_t values (1, 'x') on conflict (a) do update set b = excluded.b where ups_t.c > excluded.c;
explain (costs off) insert into ups_t as t values (1, 'x') on conflict on constraint ups_t_pkey do update set b = excluded.b where t.b <> excluded.b;
explain (costs off) insert into ups_t select id + 1000, name from ups_parent on conflict (a) do nothing;
explain (analyze, costs off, timing off, summary off)
  insert into ups_t values (1, 'x', 10), (3000, 'y', 3000), (2, 'z', 20), (3001, 'w', 3001) on conflict (a) do update set b = excluded.b where excluded.c > 10;
explain (analyze, costs off, timing off, summary off)
  insert into ups_t values (1, 'x'), (3002, 'y') on conflict do nothing;

-- The heap: DO UPDATE of a column no index covers is HOT (the new version
-- stays on the page, heap-only); of an indexed column it is not. DO
-- UPDATE locks the row before WHERE: FOR NO KEY UPDATE when SET changes
-- no key column, FOR UPDATE (HEAP_KEYS_UPDATED) when it does; a row WHERE
-- turned down stays locked. DO NOTHING locks nothing.
create table ups_h (k int primary key, v int, w text);
create index on ups_h (v);
insert into ups_h values (1, 10, 'a'), (2, 20, 'b'), (3, 30, 'c'), (4, 40, 'd');
insert into ups_h values (1, 0, 'A') on conflict (k) do update set w = excluded.w;
insert into ups_h values (2, 0, 'B') on conflict (k) do update set v = ups_h.v + 1;
insert into ups_h values (3, 0, 'C') on conflict (k) do update set w = excluded.w where false;
insert into ups_h values (4, 0, 'D') on conflict (k) do update set k = 4 where false;
insert into ups_h values (4, 0, 'D') on conflict (k) do nothing;
select k, v, w, ctid from ups_h order by k;
select lp, lp_flags, t_ctid, t_xmax <> '0' as has_xmax,
       (t_infomask & 128) <> 0 as lock_only, (t_infomask & 64) <> 0 as excl_lock,
       (t_infomask2 & 8192) <> 0 as keys_updated, (t_infomask2 & 16384) <> 0 as hot_updated,
       (t_infomask2 & 32768) <> 0 as heap_only
  from heap_page_items(get_raw_page('ups_h', 0));

-- The WAL of an upsert: a speculative insertion is an INSERT flagged
-- 0x04 (XLH_INSERT_IS_SPECULATIVE) and a CONFIRM; DO UPDATE a LOCK and an
-- UPDATE; DO NOTHING that met a conflict writes nothing; into a table
-- without indexes it is a plain INSERT.
create table ups_wal (k int primary key, v text) with (autovacuum_enabled = off);
create table ups_walflush (n int);
insert into ups_wal values (1, 'a');
checkpoint;
select pg_current_wal_insert_lsn() as lsn1 \gset
insert into ups_wal values (2, 'b') on conflict do nothing;
insert into ups_wal values (2, 'c') on conflict do nothing;
insert into ups_wal values (2, 'c') on conflict (k) do update set v = excluded.v;
insert into ups_wal values (1, 'd') on conflict (k) do update set k = 10;
select pg_current_wal_insert_lsn() as lsn2 \gset
insert into ups_walflush values (1);
select resource_manager, record_type, record_length, main_data_length, fpi_length,
       regexp_replace(description, '(xmax|xid) [1-9][0-9]*', '\1 X', 'g') as description
  from pg_get_wal_records_info(:'lsn1', :'lsn2')
 where block_ref like '%rel 1663/%/' || pg_relation_filenode('ups_wal') || ' fork main %'
 order by start_lsn;
select pg_current_wal_insert_lsn() as lsn1 \gset
insert into ups_noidx values (5, 'e') on conflict do nothing;
select pg_current_wal_insert_lsn() as lsn2 \gset
insert into ups_walflush values (2);
select resource_manager, record_type, main_data_length, description
  from pg_get_wal_records_info(:'lsn1', :'lsn2')
 where block_ref like '%rel 1663/%/' || pg_relation_filenode('ups_noidx') || ' fork main %'
 order by start_lsn;

drop table ups_t, ups_pair, ups_child, ups_parent, ups_ident, ups_noidx, ups_h, ups_wal, ups_walflush;
drop extension pg_walinspect;
