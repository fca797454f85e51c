-- Interval type modifiers: field ranges and fractional-second precision
-- (AdjustIntervalForTypmod), in casts, literals and column types.
select interval '1 year 2 months 3 days 04:05:06.789' year;
select interval '1 year 2 months 3 days 04:05:06.789' month;
select interval '1 year 2 months 3 days 04:05:06.789' day;
select interval '1 year 2 months 3 days 04:05:06.789' hour;
select interval '1 year 2 months 3 days 04:05:06.789' minute;
select interval '1 year 2 months 3 days 04:05:06.789' second;
select interval '1 year 2 months 3 days 04:05:06.789' second(1);
select interval '1 year 2 months 3 days 04:05:06.789' year to month;
select interval '1 year 2 months 3 days 04:05:06.789' day to hour;
select interval '1 year 2 months 3 days 04:05:06.789' day to minute;
select interval '1 year 2 months 3 days 04:05:06.789' day to second;
select interval '1 year 2 months 3 days 04:05:06.789' day to second(2);
select interval '1 year 2 months 3 days 04:05:06.789' hour to minute;
select interval '1 year 2 months 3 days 04:05:06.789' hour to second;
select interval '1 year 2 months 3 days 04:05:06.789' hour to second(0);
select interval '1 year 2 months 3 days 04:05:06.789' minute to second;
select interval '1 year 2 months 3 days 04:05:06.789' minute to second(3);
-- negative values truncate and round toward and away from zero
select interval '-1 year -11 months' year, interval '-3 days -04:05:06.789' hour,
       interval '-04:05:06.5' second(0), interval '-04:05:06.45' second(1);
-- a bare number counts the range's last field
select interval '2' year, interval '2' month, interval '2' year to month, interval '2' day,
       interval '2' hour, interval '2' day to hour, interval '2' minute,
       interval '2' hour to minute, interval '2' day to minute, interval '2' second,
       interval '2' minute to second, interval '2' day to second;
select interval '1:2' minute to second, interval '1:2' hour to second, interval '1:2' hour to minute,
       interval '1:2.5' minute to second, interval '1 2:03' day to minute;
select interval '1-2' year to month, interval '1.5' year, interval '1.5' day;
-- interval(p)
select interval(0) '1.5 seconds', interval(3) '1.23456 seconds', interval(6) '1.2345678 seconds';
select '1.98765 seconds'::interval(2), cast('-1.98765 seconds' as interval(1));
-- an I/O cast from text reads without the range, then applies it
select '2'::text::interval year, '2'::varchar::interval hour, '3 days 2 hours'::text::interval day;
select (interval '1 day 02:03:04.5678')::interval hour to minute,
       (interval '1 day 02:03:04.5678')::interval second(2);
-- errors
select interval(-1) '1 second';
select '1 day'::interval(-2);
-- column types
create table ivm (a interval(2), b interval year to month, c interval day to second(3),
                  d interval minute, e interval hour to second(0), f interval year);
insert into ivm values ('1.2345 s', '1 year 3 months 4 days', '1 day 1.23456 s',
                        '3 hours 4 minutes 5.5 seconds', '1 day 02:03:04.5', '2 years 11 months');
insert into ivm values ('7', '7', '7', '7', '7', '7');
insert into ivm values (interval '9.999 s', interval '1 year 11 months 29 days',
                        interval '-1 day -0.0005 s', interval '-59.9 s', interval '-0.5 s', interval '-13 months');
select * from ivm;
update ivm set a = a + interval '0.006 s', d = d + interval '90 s';
select a, d from ivm;
select format_type(atttypid, atttypmod) from pg_attribute
 where attrelid = 'ivm'::regclass and attnum > 0 order by attnum;
\d ivm
select format_type('interval'::regtype, -1), format_type('interval'::regtype, 2147483647);
select format_type('interval'::regtype, null), format_type(null, 1), format_type('interval'::regtype, 131075);
drop table ivm;
