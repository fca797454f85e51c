-- interval: input forms, output (IntervalStyle postgres), comparison,
-- arithmetic, storage in a table.
SET TimeZone = 'UTC';
SELECT '1 day 02:00:00'::interval, '6 hours'::interval, 'P1D'::interval, '@ 1 hour ago'::interval;
SELECT '1 year 2 months 3 days 4 hours 5 minutes 6 seconds'::interval, '1.5 hours'::interval, '-1 days +02:03'::interval;
SELECT '1.5 months'::interval, '1.5 years'::interval, '1.5 weeks'::interval, '1 week 2 days'::interval;
SELECT 'P1Y2M3DT4H5M6S'::interval, 'P0001-02-03T04:05:06'::interval, 'PT1.5S'::interval, 'PT36H'::interval, 'P1W'::interval;
SELECT '1:30'::interval, '1:30.5'::interval, '10'::interval, '1-2'::interval, '-1-2'::interval, '100:00:00'::interval;
SELECT '@ 1 day 2 hours ago'::interval, '0'::interval, '1 mon -1 day'::interval, '-00:00:01.5'::interval, '1 hour 30'::interval;
SELECT '1 millisecond'::interval, '1 microsecond'::interval, '3 decades'::interval, '2 centuries'::interval, '1 millennium'::interval;
SELECT '  2 DAYS  3 Hours '::interval, '1d 2h'::interval, '1 mon 2 days -03:00:00'::interval;
-- bad input
SELECT 'foo'::interval;
SELECT '2 days 1 day'::interval;
SELECT '1e3 seconds'::interval;
SELECT 'infinity'::interval;
SELECT '1 quarter'::interval;
SELECT '99999999999 years'::interval;
SELECT '2147483647 months 1 year'::interval;
SELECT '9223372036854775807 hours'::interval;
SELECT 'P1X'::interval;
-- comparison: a month is 30 days, a day 24 hours
SELECT interval '1 mon' = interval '30 days', interval '1 day' = interval '24 hours', interval '1 day' < interval '25 hours',
       interval '-1 day' < interval '0', interval '1 year' > interval '360 days', interval '1 year' <> interval '1 mon';
-- arithmetic
SELECT interval '1 day' + interval '2 hours', interval '1 day' - interval '1 mon', -interval '1 day 02:00', - interval '-3 mons';
SELECT interval '1 day' * 1.5, 2 * interval '1 mon 3 days', interval '1 mon' / 7, interval '3 hours' / 2, interval '1 year' * 0.3;
SELECT interval '1 day' / 0;
SELECT interval '2147483647 days' + interval '1 day';
SELECT interval '1 mon' * 1e10;
-- a column type
CREATE TABLE iv (id int, d interval);
INSERT INTO iv VALUES (1, '1 day'), (2, '-3 hours'), (3, '1 mon'), (4, '30 days'), (5, NULL), (6, '00:00:00.000001'), (7, '1 year 2 mons');
SELECT * FROM iv ORDER BY d, id;
SELECT d, count(*) FROM iv GROUP BY d ORDER BY d;
SELECT * FROM iv WHERE d > '1 day' ORDER BY id;
SELECT min(d), max(d) FROM iv;
SELECT DISTINCT d FROM iv WHERE d >= '1 mon' ORDER BY d;
CREATE INDEX iv_d ON iv (d);
SELECT id FROM iv WHERE d = '30 days' ORDER BY id;
UPDATE iv SET d = d * 2 WHERE id = 1;
SELECT * FROM iv WHERE id = 1;
SELECT d::text, '2 hours'::text::interval FROM iv WHERE id = 7;
DROP TABLE iv;
