--
-- date_bin and pg_size_bytes.
--
select date_bin('15 minutes', timestamp '2020-02-11 15:44:17', timestamp '2001-01-01');
select date_bin('15 minutes', timestamptz '2020-02-11 15:44:17+00', timestamptz '2001-01-01 00:02:30+00');
select date_bin('1 month', timestamp '2020-02-11 15:44:17', timestamp '2001-01-01');
select date_bin('0 days', timestamp '2020-02-11 15:44:17', timestamp '2001-01-01');
select date_bin('-1 hour', timestamp '2020-02-11 15:44:17', timestamp '2001-01-01');
select date_bin('5 min'::interval, timestamp '2020-02-01 01:01:01', timestamp '2020-02-01 01:03:00');
select date_bin('1 day', timestamp 'infinity', timestamp '2001-01-01');
select date_bin('1 day', timestamp '2001-01-01', timestamp 'infinity');
select date_bin('1 microsecond', timestamp '2020-02-01 01:01:01.123456', timestamp '2020-02-01 01:03:00');
select date_bin('2 days 3 hours', timestamp '1999-12-31 23:59:59', timestamp '2020-02-01');
select date_bin('30 minutes'::interval, timestamp '2024-02-01 15:00:00', timestamp '2024-02-01 17:00:00');
select date_bin('30 minutes'::interval, timestamptz '2024-02-01 15:00:00+00', timestamptz '2024-02-01 17:00:00+00');
select pg_size_bytes('1 kB'), pg_size_bytes('1.5 MB'), pg_size_bytes(' -1GB '), pg_size_bytes('1e3'), pg_size_bytes('1 bytes'), pg_size_bytes('10 PB');
select pg_size_bytes('1 B');
select pg_size_bytes('1 xB');
select pg_size_bytes('');
select pg_size_bytes('1 kb'), pg_size_bytes('1 TB'), pg_size_bytes('1e-1 kB'), pg_size_bytes('+2.5e2 mb');
select pg_size_bytes('9223372036854775807.9');
select pg_size_bytes('1e1000');
select pg_size_bytes('.5 kB'), pg_size_bytes('1. kB'), pg_size_bytes('-.1 kB');
select pg_size_bytes('1 E'), pg_size_bytes('.');
select pg_size_bytes('1EB');
