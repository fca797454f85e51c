--
-- pg_column_size: a fixed-length type's length, a varlena's bytes with its
-- header. A value read from a table keeps the 1-byte header the heap gives
-- a short varlena; a value the query computes has the 4-byte header.
--
select pg_column_size(1::smallint), pg_column_size(1::int), pg_column_size(1::bigint), pg_column_size(true);
select pg_column_size(1.5::float4), pg_column_size(1.5::float8), pg_column_size(1.5::numeric), pg_column_size(0::numeric);
select pg_column_size('2020-01-01'::date), pg_column_size(now()), pg_column_size('1 day'::interval), pg_column_size('(0,1)'::tid);
select pg_column_size('abc'::text), pg_column_size(''::text), pg_column_size('abc'::varchar(10)), pg_column_size('abc'::char(5));
select pg_column_size(repeat('a', 126)), pg_column_size(repeat('a', 127)), pg_column_size('\x0102'::bytea), pg_column_size(array[1, 2, 3]);
-- A quoted literal passed to an "any" parameter stays unknown: a C string.
select pg_column_size('abc'), pg_typeof('abc'), pg_typeof(null), pg_column_size(null);
select pg_column_size(null::int), pg_column_size(null::text);
create table cs (a text, b varchar(200), c bytea, d int[], e numeric, f int);
insert into cs values ('', repeat('b', 126), '\x01', '{1,2}', -0.001, 1),
  (repeat('a', 125), repeat('b', 127), '\x', '{}', 1e100, 2),
  ('abc', 'x', '\xdeadbeef', '{{1,2},{3,4}}', 123456.789, null),
  (null, null, null, null, 'NaN', 4);
select f, pg_column_size(a), pg_column_size(b), pg_column_size(c), pg_column_size(d), pg_column_size(e), pg_column_size(f) from cs order by f;
select f, pg_column_size(e + 0), pg_column_size(a || ''), pg_column_size(upper(b)) from cs order by f;
select f, pg_column_size(x) from (select f, a as x from cs) s order by f;
-- The row sizes a heap study adds up: one row's columns as stored.
select sum(pg_column_size(a)) as a_bytes, sum(pg_column_size(b)) as b_bytes, avg(pg_column_size(e))::numeric(10, 2) as e_avg from cs;
select pg_column_size(1, 2);
select pg_column_size();
