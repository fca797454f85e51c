--
-- Date/time functions and operators (section 9.9) for timestamp and date,
-- and the error of each bad argument
--
SELECT date_trunc('hour', timestamp '2001-02-16 20:38:40.123456'), date_trunc('minute', timestamp '2001-02-16 20:38:40.5'), date_trunc('second', timestamp '2001-02-16 20:38:40.5'), date_trunc('milliseconds', timestamp '2001-02-16 20:38:40.123456'), date_trunc('microseconds', timestamp '2001-02-16 20:38:40.123456');
SELECT date_trunc('day', timestamp '2001-02-16 20:38:40'), date_trunc('week', timestamp '2001-02-16 20:38:40'), date_trunc('week', timestamp '2001-02-19 00:00:01'), date_trunc('month', timestamp '2001-02-16 20:38:40'), date_trunc('quarter', timestamp '2001-05-16 20:38:40'), date_trunc('YEAR', timestamp '2001-02-16 20:38:40');
SELECT date_trunc('decade', timestamp '2001-02-16'), date_trunc('century', timestamp '2001-02-16'), date_trunc('century', timestamp '2000-12-31'), date_trunc('millennium', timestamp '2001-02-16'), date_trunc('millennium', timestamp '2000-02-16'), date_trunc('year', timestamp 'infinity');
SELECT date_trunc('foo', timestamp '2001-02-16');
SELECT date_trunc('dow', timestamp '2001-02-16');
SELECT extract(year from timestamp '2001-02-16 20:38:40.5'), extract(month from timestamp '2001-02-16 20:38:40'), extract(day from timestamp '2001-02-16 20:38:40'), extract(hour from timestamp '2001-02-16 20:38:40'), extract(minute from timestamp '2001-02-16 20:38:40'), extract(second from timestamp '2001-02-16 20:38:40.5'), extract(milliseconds from timestamp '2001-02-16 20:38:40.5'), extract(microseconds from timestamp '2001-02-16 20:38:40.5');
SELECT extract(epoch from timestamp '2001-02-16 20:38:40.12'), extract(dow from timestamp '2001-02-18'), extract(isodow from timestamp '2001-02-18'), extract(doy from timestamp '2001-02-16'), extract(week from timestamp '2001-02-16'), extract(quarter from timestamp '2001-02-16'), extract(isoyear from timestamp '2006-01-01'), extract(week from timestamp '2006-01-01');
SELECT extract(decade from timestamp '2001-02-16'), extract(century from timestamp '2001-02-16'), extract(century from timestamp '2000-12-16'), extract(millennium from timestamp '2001-02-16'), extract(year from timestamp '0044-03-15 BC'), extract(century from timestamp '0044-03-15 BC'), extract(julian from timestamp '2020-01-01 12:00');
SELECT extract(day from date '2020-02-03'), extract(epoch from date '2020-02-03'), extract(year from date '2020-02-03'), extract(dow from date '2020-02-03'), extract(julian from date '2020-02-03'), extract(year from date 'infinity'), extract(month from date 'infinity') IS NULL AS month_null, extract(epoch from timestamp '-infinity');
SELECT date_part('year', timestamp '2001-02-16 20:38:40'), date_part('second', timestamp '2001-02-16 20:38:40.25'), date_part('epoch', timestamp '2001-02-16 20:38:40.25'), date_part('hour', date '2001-02-16'), date_part('doy', date '2001-02-16'), pg_typeof(date_part('year', date '2001-02-16')), pg_typeof(extract(year from date '2001-02-16'));
SELECT extract(foo from timestamp '2001-02-16');
SELECT extract(timezone from timestamp '2001-02-16');
SELECT extract(hour from date '2001-02-16');
SELECT date_part('foo', date '2001-02-16');
SELECT make_date(2013, 7, 15), make_date(-44, 3, 15), make_date(2024, 2, 29), make_timestamp(2013, 7, 15, 8, 15, 23.5), make_timestamp(2013, 7, 15, 24, 0, 0), make_timestamp(1, 1, 1, 0, 0, 0.000001);
SELECT make_date(2013, 2, 30);
SELECT make_date(0, 7, 15);
SELECT make_date(2013, 13, 1);
SELECT make_timestamp(2013, 7, 15, 8, 15, 61.5);
SELECT make_timestamp(2013, 7, 15, 25, 15, 1);
SELECT make_timestamp(2013, 7, 15, 8, 60, 1);
SELECT date '2001-09-28' + 7, 7 + date '2001-09-28', date '2001-10-01' - 7, date '2001-10-01' - date '2001-09-28', date '2020-01-02' - '2020-01-01', pg_typeof(date '2001-10-01' - date '2001-09-28'), date 'infinity' + 1;
SELECT date 'infinity' - date '2020-01-01';
SELECT date '5874897-12-31' + 1;
SELECT date '2001-09-28' + 1.5;
SELECT date '2001-09-28' * 2;
SELECT date '2020-01-01' + '1';
SELECT '1' + date '2020-01-01';
SELECT '2020-01-02' - date '2020-01-01', date '2020-01-02' - '1';
SELECT isfinite(date '2001-02-16'), isfinite(date 'infinity'), isfinite(timestamp '2001-02-16 21:28:30'), isfinite(timestamp '-infinity');
SELECT now() = current_timestamp AS same_now, transaction_timestamp() = now() AS tx, statement_timestamp() = now() AS stmt, localtimestamp = now() AS localts, clock_timestamp() >= now() AS clock, current_date = now()::date AS today, pg_typeof(clock_timestamp()) IN ('timestamp without time zone', 'timestamp with time zone') AS clock_type;
BEGIN;
SELECT now() AS t1 \gset
SELECT pg_sleep(0.01) IS NULL AS slept;
SELECT now() = :'t1' AS now_fixed_in_tx, clock_timestamp() > :'t1' AS clock_moves, statement_timestamp() > :'t1' AS stmt_moves, transaction_timestamp() = :'t1' AS tx_fixed;
COMMIT;
CREATE TABLE fd (id int, d date, t timestamp);
INSERT INTO fd VALUES (1, '2024-02-29', '2024-02-29 23:59:59.999999'), (2, '1999-12-31', '1999-12-31 00:00:00'), (3, NULL, NULL);
SELECT id, date_trunc('month', t), extract(year from d), date_part('day', t), d + 1, d - date '2000-01-01', make_date(extract(year from d)::int, 1, 1) FROM fd ORDER BY id;
DROP TABLE fd;
