-- timestamp with time zone: input and output in the session TimeZone,
-- casts, comparisons and storage.
SET TimeZone = 'UTC';
SHOW TimeZone;
SELECT '2024-01-01 12:00'::timestamptz, '2024-01-01 12:00+05:30'::timestamptz, '2024-01-01 12:00 PST'::timestamptz, '2024-07-01 12:00 Europe/Paris'::timestamptz;
SELECT 'infinity'::timestamptz, '-infinity'::timestamptz, 'epoch'::timestamptz, '0044-03-15 BC'::timestamptz;
SET TimeZone = 'america/new_york';
SHOW TimeZone;
SELECT '2024-01-01 12:00'::timestamptz, '2024-07-01 12:00'::timestamptz, '2024-01-01 12:00 UTC'::timestamptz;
-- a local time in the spring-forward gap, and an ambiguous one in the fall-back hour
SELECT '2024-03-10 02:30'::timestamptz, '2024-11-03 01:30'::timestamptz, '1800-01-01'::timestamptz;
SET TimeZone = 'Asia/Kolkata';
SELECT '2024-01-01 00:00 UTC'::timestamptz, timestamptz '2024-06-01 12:00:00.123456+00';
SET TimeZone = 'Mars/Olympus';
SET TimeZone = 'Europe/Berlin';
-- casts
SELECT '2024-01-01 12:00+00'::timestamptz::timestamp, '2024-07-01 00:30+00'::timestamptz::date, timestamp '2024-07-01 12:00'::timestamptz,
       date '2024-01-01'::timestamptz, '2024-01-01 12:00+00'::timestamptz::text, '2024-07-01 12:00'::timestamptz::timestamp(0);
SELECT CAST('2024-01-01 12:00:00.5+00' AS timestamp(0) with time zone);
SELECT pg_typeof(now()), pg_typeof(current_timestamp), pg_typeof(localtimestamp), pg_typeof(clock_timestamp()),
       pg_typeof(statement_timestamp()), pg_typeof(transaction_timestamp());
SELECT now() = current_timestamp, now() = transaction_timestamp(), clock_timestamp() >= now(), current_date = now()::date;
-- comparisons across types
SELECT timestamptz '2024-01-01 00:00+00' = timestamp '2024-01-01 01:00', timestamptz '2024-01-01 00:00+00' < date '2024-01-02',
       timestamptz '2024-01-01 00:00+00' = timestamptz '2024-01-01 01:00+01';
-- bad input
SELECT 'garbage'::timestamptz;
SELECT '2024-13-01'::timestamptz;
SELECT '2024-01-01 12:00 Nowhere/City'::timestamptz;
SELECT timestamp with time zone(7) '2024-01-01';
-- a column type
CREATE TABLE tz (id int, t timestamptz);
INSERT INTO tz VALUES (1, '2024-01-01 00:00+00'), (2, '2024-06-01 12:00 America/New_York'), (3, 'infinity'), (4, NULL), (5, '2023-12-31 23:00-02');
SELECT * FROM tz ORDER BY t, id;
SET TimeZone = 'UTC';
SELECT * FROM tz ORDER BY t, id;
SELECT id FROM tz WHERE t > '2024-01-01 00:30+00' ORDER BY id;
SELECT min(t), max(t) FROM tz;
\copy tz to stdout
DROP TABLE tz;
-- to_char formats the local time
SET TimeZone = 'Asia/Tokyo';
SELECT to_char(timestamptz '2024-01-01 20:30:15+00', 'YYYY-MM-DD HH24:MI:SS Day'), to_char(timestamptz 'infinity', 'YYYY') IS NULL;
