--
-- time and time with time zone (borrowing from PostgreSQL's time.sql and timetz.sql)
--
CREATE TABLE tt_time (f1 time(2));
INSERT INTO tt_time VALUES ('00:00');
INSERT INTO tt_time VALUES ('01:00');
-- a zone is accepted and ignored
INSERT INTO tt_time VALUES ('02:03 PST');
INSERT INTO tt_time VALUES ('11:59 EDT');
INSERT INTO tt_time VALUES ('12:00');
INSERT INTO tt_time VALUES ('12:01');
INSERT INTO tt_time VALUES ('23:59');
INSERT INTO tt_time VALUES ('11:59:59.99 PM');
INSERT INTO tt_time VALUES ('2003-03-07 15:36:39 America/New_York');
INSERT INTO tt_time VALUES ('2003-07-07 15:36:39 America/New_York');
-- fails: the zone's offset is not known without a date
INSERT INTO tt_time VALUES ('15:36:39 America/New_York');
SELECT f1 AS "Time" FROM tt_time;
SELECT f1 AS "Three" FROM tt_time WHERE f1 < '05:06:07';
SELECT f1 AS "Five" FROM tt_time WHERE f1 > '05:06:07';
SELECT f1 AS "None" FROM tt_time WHERE f1 < '00:00';
SELECT f1 AS "Eight" FROM tt_time WHERE f1 >= '00:00';
-- edge cases
SELECT '23:59:59.999999'::time;
SELECT '23:59:59.9999999'::time;
SELECT '23:59:60'::time;
SELECT '24:00:00'::time;
SELECT '24:00:00.01'::time;
SELECT '23:59:60.01'::time;
SELECT '24:01:00'::time;
SELECT '25:00:00'::time;
SELECT '04:05:06.789'::time, '04:05 PM'::time, '040506'::time, '0405'::time, '040506.5'::time;
SELECT '12:00 AM'::time, '12:00 PM'::time, 'T04:05:06'::time, 'allballs'::time, '  4:5:6  '::time;
SELECT '13:00 PM'::time;
SELECT 'abc'::time;
SELECT '12'::time;
SELECT '2020-01-01'::time;
SELECT '04:05:06 pm pm'::time;
-- typmods
SELECT '04:05:06.123456'::time(0), '04:05:06.123456'::time(3), '04:05:06.5'::time(0), '23:59:59.5'::time(0);
SELECT time(2) '12:34:56.789', cast('12:34:56.785' AS time(2));
SELECT '12:34:56.785'::time(-1);
SELECT '12:34:56.785'::time(2)::time(1);
-- extract and date_part
SELECT EXTRACT(MICROSECOND FROM TIME '2020-05-26 13:30:25.575401');
SELECT EXTRACT(MILLISECOND FROM TIME '2020-05-26 13:30:25.575401');
SELECT EXTRACT(SECOND      FROM TIME '2020-05-26 13:30:25.575401');
SELECT EXTRACT(MINUTE      FROM TIME '2020-05-26 13:30:25.575401');
SELECT EXTRACT(HOUR        FROM TIME '2020-05-26 13:30:25.575401');
SELECT EXTRACT(DAY         FROM TIME '2020-05-26 13:30:25.575401');
SELECT EXTRACT(FORTNIGHT   FROM TIME '2020-05-26 13:30:25.575401');
SELECT EXTRACT(TIMEZONE    FROM TIME '2020-05-26 13:30:25.575401');
SELECT EXTRACT(EPOCH       FROM TIME '2020-05-26 13:30:25.575401');
SELECT date_part('microsecond', TIME '2020-05-26 13:30:25.575401');
SELECT date_part('millisecond', TIME '2020-05-26 13:30:25.575401');
SELECT date_part('second',      TIME '2020-05-26 13:30:25.575401');
SELECT date_part('epoch',       TIME '2020-05-26 13:30:25.575401');
SELECT EXTRACT(HOUR FROM TIME '24:00'), EXTRACT(EPOCH FROM TIME '24:00');
-- date_trunc has no time overload: time converts implicitly to interval
SELECT date_trunc('hour', time '04:05:06'), pg_typeof(date_trunc('hour', time '04:05:06'));
-- arithmetic
SELECT time '10:00' - time '08:30:15.5' AS "1:29:44.5", time '08:00' - time '10:00' AS "-2:00";
SELECT time '23:00' + interval '2 hours', time '01:00' - interval '3 hours', interval '1 day 1 hour' + time '10:00';
SELECT time '01:00' + interval '1 month 36 hours', time '00:00' - interval '1 microsecond';
SELECT date '2020-01-02' + time '04:05', time '23:59:59' + date '2020-02-28', pg_typeof(date '2020-01-02' + time '04:05');
SELECT date 'infinity' + time '01:00', date '-infinity' + time '01:00';
SELECT date '2020-01-02' + '04:05';
-- casts
SELECT timestamp '2020-01-01 12:34:56.789'::time, timestamp '2020-01-01 12:34:56.789'::time(1);
SELECT timestamp 'infinity'::time IS NULL AS "null";
SELECT timestamptz '2020-01-01 12:34:56+03'::time, interval '26 hours 5 minutes'::time, interval '-1 hour'::time;
SELECT time '05:06:07.5'::interval, pg_typeof(time '05:06'::interval), time '05:06:07'::text, '05:06'::text::time;
SELECT make_time(8, 15, 23.5), make_time(24, 0, 0), make_time(0, 0, 59.9999999);
SELECT make_time(25, 0, 0);
SELECT make_time(10, 60, 0);
SELECT make_time(23, 59, 60.5);
-- min, max, grouping, distinct
SELECT min(f1), max(f1), count(DISTINCT f1) FROM tt_time;
-- a btree index
CREATE INDEX tt_time_idx ON tt_time (f1);
SET enable_seqscan = off;
SELECT f1 FROM tt_time WHERE f1 BETWEEN '11:00' AND '13:00' ORDER BY f1;
RESET enable_seqscan;
-- COPY
COPY tt_time TO stdout;
CREATE TABLE tt_copy (a time, b timetz(1));
COPY tt_copy FROM stdin;
04:05:06.789	04:05:06.789-08
24:00:00	\N
\N	23:59:59.99+05:30
\.
SELECT * FROM tt_copy ORDER BY a;
SELECT '04:05:06.789'::time(2) = a FROM tt_copy WHERE b IS NULL;
\d tt_copy
SELECT attname, atttypid::regtype, atttypmod FROM pg_attribute WHERE attrelid = 'tt_copy'::regclass AND attnum > 0 ORDER BY attnum;
SELECT oid, typname, typlen, typbyval, typcategory, typalign FROM pg_type WHERE typname IN ('time', 'timetz') ORDER BY oid;

--
-- time with time zone
--
SET TimeZone = 'America/Los_Angeles';
CREATE TABLE tt_timetz (f1 time(2) with time zone);
INSERT INTO tt_timetz VALUES ('00:01 PDT');
INSERT INTO tt_timetz VALUES ('01:00 PDT');
INSERT INTO tt_timetz VALUES ('02:03 PDT');
INSERT INTO tt_timetz VALUES ('07:07 PST');
INSERT INTO tt_timetz VALUES ('08:08 EDT');
INSERT INTO tt_timetz VALUES ('11:59 PDT');
INSERT INTO tt_timetz VALUES ('12:00 PDT');
INSERT INTO tt_timetz VALUES ('12:01 PDT');
INSERT INTO tt_timetz VALUES ('23:59 PDT');
INSERT INTO tt_timetz VALUES ('11:59:59.99 PM PDT');
INSERT INTO tt_timetz VALUES ('2003-03-07 15:36:39 America/New_York');
INSERT INTO tt_timetz VALUES ('2003-07-07 15:36:39 America/New_York');
INSERT INTO tt_timetz VALUES ('15:36:39 America/New_York');
INSERT INTO tt_timetz VALUES ('15:36:39 m2');
INSERT INTO tt_timetz VALUES ('15:36:39 MSK m2');
SELECT f1 AS "Time TZ" FROM tt_timetz;
SELECT f1 AS "Three" FROM tt_timetz WHERE f1 < '05:06:07-07';
SELECT f1 AS "Seven" FROM tt_timetz WHERE f1 > '05:06:07-07';
SELECT f1 AS "None" FROM tt_timetz WHERE f1 < '00:00-07';
SELECT f1 AS "Ten" FROM tt_timetz WHERE f1 >= '00:00-07';
SELECT f1 FROM tt_timetz ORDER BY f1;
SELECT '23:59:59.999999 PDT'::timetz;
SELECT '23:59:59.9999999 PDT'::timetz;
SELECT '23:59:60 PDT'::timetz;
SELECT '24:00:00 PDT'::timetz;
SELECT '24:00:00.01 PDT'::timetz;
SELECT '23:59:60.01 PDT'::timetz;
SELECT '24:01:00 PDT'::timetz;
SELECT '25:00:00 PDT'::timetz;
SELECT '04:05:06.789-08:00'::timetz, '04:05:06-0830'::timetz, '04:05:06 +05'::timetz, '04:05:06z'::timetz, '04:05:06-00:30:15'::timetz;
SELECT 'allballs'::timetz, '04:05:06 UTC'::timetz, '04:05:06 zulu'::timetz, '2003-04-12 04:05:06 America/New_York'::timetz;
SELECT '04:05:06+16'::timetz;
SELECT '04:05:06+15:59'::timetz;
SELECT '04:05:06 Asia/Tokyo'::timetz;
SELECT '04:05:06 foo/bar'::timetz;
SELECT 'abc'::timetz;
SELECT '2003-07-07 04:05:06'::timetz;
SELECT '12:34:56.789+02'::timetz(1), '12:34:56.789+02'::timetz(0)::timetz(1);
SELECT '12:34:56.789+02'::timetz(-1);
-- comparison is by UTC time, then by zone
SELECT timetz '04:00-08' < timetz '07:00-05', timetz '04:00-08' = timetz '07:00-05', timetz '04:00-08' > timetz '07:00-05';
SELECT timetz '12:00+01' = timetz '12:00+01', timetz '12:00+01' < timetz '12:00+00', time '04:00' < timetz '05:00+00';
-- arithmetic
SELECT timetz '23:00+02' + interval '2 hours', timetz '01:00-05' - interval '3 hours', interval '90 minutes' + timetz '12:00+01';
SELECT date '2020-01-02' + timetz '04:05-03', timetz '23:00+05' + date '2020-01-01';
SELECT pg_typeof(date '2020-01-02' + timetz '04:05-03');
-- casts
SELECT timestamptz '2020-01-01 12:34:56+03'::timetz, timestamptz '2020-07-01 12:34:56+03'::timetz;
SELECT timestamptz '2020-07-01 12:34:56.789+03'::timetz(1), timestamptz '2020-07-01 12:34:56+03'::time;
SELECT timetz '05:00+03'::time, timetz '05:00+03'::text, '05:00+03'::text::timetz;
SELECT timestamptz 'infinity'::timetz IS NULL AS "null";
-- extract and date_part
SELECT EXTRACT(MICROSECOND FROM TIME WITH TIME ZONE '2020-05-26 13:30:25.575401-04');
SELECT EXTRACT(MILLISECOND FROM TIME WITH TIME ZONE '2020-05-26 13:30:25.575401-04');
SELECT EXTRACT(SECOND      FROM TIME WITH TIME ZONE '2020-05-26 13:30:25.575401-04');
SELECT EXTRACT(MINUTE      FROM TIME WITH TIME ZONE '2020-05-26 13:30:25.575401-04');
SELECT EXTRACT(HOUR        FROM TIME WITH TIME ZONE '2020-05-26 13:30:25.575401-04');
SELECT EXTRACT(DAY         FROM TIME WITH TIME ZONE '2020-05-26 13:30:25.575401-04');
SELECT EXTRACT(FORTNIGHT   FROM TIME WITH TIME ZONE '2020-05-26 13:30:25.575401-04');
SELECT EXTRACT(TIMEZONE    FROM TIME WITH TIME ZONE '2020-05-26 13:30:25.575401-04:30');
SELECT EXTRACT(TIMEZONE_HOUR   FROM TIME WITH TIME ZONE '2020-05-26 13:30:25.575401-04:30');
SELECT EXTRACT(TIMEZONE_MINUTE FROM TIME WITH TIME ZONE '2020-05-26 13:30:25.575401-04:30');
SELECT EXTRACT(EPOCH       FROM TIME WITH TIME ZONE '2020-05-26 13:30:25.575401-04');
SELECT date_part('microsecond', TIME WITH TIME ZONE '2020-05-26 13:30:25.575401-04');
SELECT date_part('millisecond', TIME WITH TIME ZONE '2020-05-26 13:30:25.575401-04');
SELECT date_part('second',      TIME WITH TIME ZONE '2020-05-26 13:30:25.575401-04');
SELECT date_part('epoch',       TIME WITH TIME ZONE '2020-05-26 13:30:25.575401-04');
-- the current time (values vary; only their types and sanity are shown)
SELECT pg_typeof(current_time), pg_typeof(localtime), pg_typeof(current_time(2)), pg_typeof(localtime(0));
SELECT current_time IS NOT NULL AS cur, localtime(0) IS NOT NULL AS loc, now()::time = localtime AS same;
SELECT extract(microsecond FROM localtime(0)) % 1000000 AS zero;
-- an index on timetz
CREATE INDEX tt_timetz_idx ON tt_timetz (f1);
SET enable_seqscan = off;
SELECT f1 FROM tt_timetz WHERE f1 > '12:00-07' ORDER BY f1;
RESET enable_seqscan;
\d tt_timetz
RESET TimeZone;
DROP TABLE tt_time, tt_copy, tt_timetz;
