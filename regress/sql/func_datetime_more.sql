-- Date/time operators and functions over interval and timestamptz
-- (PostgreSQL 15 section 9.9), and generate_series over timestamps.
SET TimeZone = 'UTC';
-- operators
SELECT timestamp '2024-01-31' + interval '1 month', timestamp '2024-03-31' - interval '1 month', interval '1 day' + timestamp '2024-02-28';
SELECT date '2024-01-01' + interval '36 hours', date '2024-01-01' - interval '1 day', interval '1 mon' + date '2024-01-31';
SELECT timestamp '2024-03-01' - timestamp '2024-01-01 12:00', timestamp '2024-01-01' - timestamp '2024-03-01 12:00:00.5';
SELECT timestamptz '2024-03-01 00:00+00' - timestamptz '2024-02-28 12:00+00', pg_typeof(timestamptz '2024-01-01' - timestamptz '2023-01-01');
SELECT timestamp 'infinity' + interval '1 day', timestamp '2024-01-01' - timestamp 'infinity';
SELECT timestamp '294276-12-31' + interval '1 day';
SET TimeZone = 'America/New_York';
-- calendar steps of a timestamptz are taken in local time across DST
SELECT timestamptz '2024-03-09 12:00' + interval '1 day', timestamptz '2024-03-09 12:00' + interval '24 hours',
       timestamptz '2024-10-31 12:00' + interval '1 month', timestamptz '2024-11-03 12:00' - interval '1 day';
-- age
SELECT age(timestamp '2024-03-15', timestamp '2001-04-10 12:00'), age(timestamp '2001-04-10', timestamp '2024-03-15 06:00'),
       age(timestamp '2024-02-29', timestamp '2023-03-31'), age(timestamptz '2024-03-15', timestamptz '2001-04-10 12:00');
SELECT age(timestamp '-infinity', timestamp '2024-01-01');
SELECT pg_typeof(age(timestamp '2020-01-01')), age(timestamp '2020-01-01') > interval '1 year', age(timestamptz '2020-01-01') > interval '1 year';
-- date_trunc
SELECT date_trunc('hour', interval '1 day 02:33:10'), date_trunc('year', interval '3 years 5 mons'), date_trunc('quarter', interval '1 year 5 mons 3 days'),
       date_trunc('millisecond', interval '00:00:01.234567'), date_trunc('century', interval '345 years');
SELECT date_trunc('week', interval '10 days');
SELECT date_trunc('fortnight', interval '10 days');
SELECT date_trunc('day', timestamptz '2024-03-10 15:00'), date_trunc('month', timestamptz '2024-03-10 15:00'), date_trunc('hour', timestamptz '2024-11-03 01:30-04'),
       date_trunc('day', timestamptz '2024-03-10 15:00', 'Asia/Tokyo'), date_trunc('week', timestamptz '2024-03-13 15:00');
-- date_part and extract
SELECT extract(epoch FROM interval '1 year 1 day'), extract(hour FROM interval '1 day 26:30'), extract(second FROM interval '1 min 2.5 sec'),
       extract(month FROM interval '14 months'), extract(year FROM interval '-14 months'), extract(millisecond FROM interval '1.5 sec');
SELECT date_part('epoch', interval '1 mon'), date_part('day', interval '40 days'), date_part('minute', interval '-01:02:03'), date_part('quarter', interval '7 mons');
SELECT extract(dow FROM interval '1 day');
SELECT extract(foo FROM interval '1 day');
SELECT extract(hour FROM timestamptz '2024-07-01 12:00 UTC'), extract(timezone FROM timestamptz '2024-07-01 12:00'), extract(timezone_hour FROM timestamptz '2024-01-01'),
       extract(epoch FROM timestamptz '2024-01-01 00:00+00'), date_part('day', timestamptz '2024-07-01 02:00 UTC');
-- justify_*
SELECT justify_days(interval '35 days'), justify_days(interval '-35 days'), justify_days(interval '1 mon -40 days'),
       justify_hours(interval '27 hours'), justify_hours(interval '-27 hours'), justify_hours(interval '1 day -25 hours'),
       justify_interval(interval '1 mon -1 hour'), justify_interval(interval '-1 mon 40 days 30 hours');
-- make_*
SELECT make_interval(1, 2, 3, 4, 5, 6, 7.5), make_interval(0, 0, 0, 10), make_interval(), make_interval(secs => 1.5);
SELECT make_interval(0, 0, 0, 0, 0, 0, 'infinity');
SELECT make_timestamptz(2024, 1, 1, 0, 0, 0), make_timestamptz(2024, 7, 1, 12, 30, 15.5, 'UTC'), make_timestamptz(2024, 1, 1, 0, 0, 0, 'Asia/Tokyo'),
       make_timestamp(2024, 2, 29, 23, 59, 59.999999), make_date(2024, 2, 29);
SELECT make_timestamptz(2024, 2, 30, 0, 0, 0);
SELECT make_timestamptz(2024, 1, 1, 25, 0, 0);
SELECT make_timestamptz(2024, 1, 1, 0, 0, 0, 'Nowhere/Zone');
-- to_timestamp
SELECT to_timestamp(0), to_timestamp(1700000000.5), to_timestamp('infinity'::float8), to_timestamp(-1e10);
SELECT to_timestamp('NaN'::float8);
SELECT to_timestamp(1e20);
-- isfinite
SELECT isfinite(interval '1 day'), isfinite(timestamptz 'infinity'), isfinite(timestamptz '2024-01-01'), isfinite(timestamp '-infinity');
-- generate_series over timestamps
SELECT * FROM generate_series('2024-01-01'::timestamp, '2024-01-02', interval '6 hours');
SELECT * FROM generate_series(timestamp '2024-01-31', timestamp '2024-06-01', '1 month');
SELECT * FROM generate_series(timestamp '2024-01-02', timestamp '2024-01-01', interval '-8 hours');
SELECT generate_series(timestamptz '2024-03-09 12:00', timestamptz '2024-03-12', interval '1 day');
SELECT * FROM generate_series(date '2024-01-01', date '2024-01-03', interval '1 day') WITH ORDINALITY;
SELECT count(*) FROM generate_series(timestamp '2024-01-01', timestamp '2024-12-31', interval '1 hour');
SELECT * FROM generate_series(timestamp '2024-01-01', timestamp '2024-01-02', interval '0');
SELECT * FROM generate_series(timestamp '2024-01-01', timestamp '2024-01-02', interval '1 mon -30 days');
SELECT * FROM generate_series(timestamp '2024-01-02', timestamp '2024-01-01', interval '1 day');
SELECT * FROM generate_series('2024-01-01', '2024-01-02', interval '1 day');
