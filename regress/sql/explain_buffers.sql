--
-- EXPLAIN (BUFFERS): the shared buffers each plan node hit, read, dirtied
-- and wrote, its children's included. Only figures both servers agree on:
-- a table whose rows fill a known number of pages, already in the buffer
-- pool with their hint bits set, and every statement planned once before
-- (plain EXPLAIN) so that PostgreSQL's catalog caches are warm and its
-- planning touches no buffer (minipg's planning never does), which leaves
-- out the "Planning:" section on both.
--
create table eb (a int, b text) with (autovacuum_enabled = off);
-- One row into the empty table: the block added counts as written, and
-- the new row dirties it.
explain (costs off) insert into eb values (1, 'x');
explain (analyze, buffers, costs off, timing off, summary off) insert into eb values (1, 'x');
insert into eb select g, repeat('x', 100) from generate_series(2, 1000) g;
select count(*), pg_relation_size('eb') / 8192 as pages from eb;
-- A sequential scan hits every page once, and the aggregate over it
-- includes its child's figures.
explain (analyze, buffers, costs off, timing off, summary off) select count(*) from eb;
explain (costs off) select * from eb where a = 5;
explain (analyze, buffers, costs off, timing off, summary off) select * from eb where a = 5;
-- A limit stops the scan on the first page.
explain (costs off) select * from eb limit 1;
explain (analyze, buffers, costs off, timing off, summary off) select * from eb limit 1;
-- BUFFERS without ANALYZE shows only what planning used: nothing here.
explain (buffers, costs off) select count(*) from eb;
explain (buffers off, analyze, costs off, timing off, summary off) select count(*) from eb;
explain (analyze, buffers false, costs off, timing off, summary off) select count(*) from eb;
-- No buffer touched: no Buffers line.
explain (analyze, buffers, costs off, timing off, summary off) select 1;
-- DELETE reads each row's page once more to delete it.
explain (costs off) delete from eb;
explain (analyze, buffers, costs off, timing off, summary off) delete from eb;
-- Bad values.
explain (buffers maybe) select 1;
explain (buffers 2) select 1;
explain (buffers 'on', costs off) select 1;
explain (buffers, format yml) select 1;
drop table eb;
