-- AT TIME ZONE and timezone(zone, value): zone names, abbreviations, POSIX
-- offsets, interval zones, DST gaps and overlaps, errors.
select timestamp '2020-07-01 12:00' at time zone 'America/New_York' a, timestamptz '2020-07-01 12:00+00' at time zone 'america/new_york' b;
select timestamp '2020-01-01 12:00' at time zone 'PST' a, timestamptz '2020-01-01 12:00+00' at time zone 'pst' b, timestamp '2020-07-01 12:00' at time zone 'EST' c;
select timestamp '2020-01-01 00:00' at time zone '+05' a, timestamptz '2020-01-01 00:00+00' at time zone '+05' b, timestamp '2020-01-01 00:00' at time zone '-03:30' c, timestamp '2020-01-01 00:00' at time zone 'UTC+3' d, timestamp '2020-01-01' at time zone 'UTC' e, timestamp '2020-01-01' at time zone 'Z' f;
select timestamp '2020-01-01 00:00' at time zone interval '-03:30' a, timestamptz '2020-01-01 00:00+00' at time zone interval '05:45' b, timestamp '2020-01-01' at time zone interval '1.5 seconds' c;
select timezone('Asia/Tokyo', timestamp '2020-01-01 00:00') a, timezone('Asia/Tokyo', timestamptz '2020-01-01 00:00+00') b, timezone(interval '2 hours', timestamp '2020-01-01') c;
select timestamp '2020-01-01' at time zone 'Mars/Olympus';
select timestamptz '2020-01-01' at time zone 'bogus';
select timestamp '2020-01-01' at time zone interval '1 day';
select timestamptz '2020-01-01' at time zone interval '1 mon 2 hours';
select timestamp 'infinity' at time zone 'UTC', timestamptz '-infinity' at time zone 'Europe/Paris';
select '2020-03-08 02:30'::timestamp at time zone 'America/New_York' gap, '2020-11-01 01:30'::timestamp at time zone 'America/New_York' overlap;
select now() at time zone 'UTC' = (now() at time zone 'UTC')::timestamp;
select timestamp '2020-01-01 12:00' at time zone null, null::timestamp at time zone 'UTC';
select pg_typeof(timestamp '2020-01-01' at time zone 'UTC'), pg_typeof(timestamptz '2020-01-01' at time zone 'UTC');
set timezone = 'Asia/Kolkata';
select timestamp '2020-01-01 12:00' at time zone 'Europe/London' a, timestamptz '2020-01-01 12:00' at time zone 'Europe/London' b;
select '2020-06-01 12:00'::date at time zone 'UTC';
select '2020-01-01 12:00' at time zone 'UTC';
reset timezone;
create table tzt (ts timestamp, zone text);
insert into tzt values ('2020-01-01 12:00', 'Europe/Berlin'), ('2020-07-01 12:00', 'Europe/Berlin'), ('2020-07-01 12:00', 'EST5EDT'), ('2020-07-01 12:00', 'CET'), ('2020-07-01 12:00', 'GMT+2');
select ts, zone, ts at time zone zone, (ts at time zone zone) at time zone zone from tzt;
drop table tzt;
select timestamp '294276-12-31 23:00' at time zone '+05';
select timestamptz '4714-11-24 00:00:00+00 BC' at time zone '+01';
select timestamp '2020-01-01 00:00' at time zone '<foo>-02' a, timestamp '2020-01-01 00:00' at time zone 'FOO+2:30' b,
       timestamp '2020-01-01 00:00' at time zone 'Asia/Kathmandu' c, timestamptz '2020-01-01 00:00+00' at time zone 'Australia/Lord_Howe' d;
select timestamp '2020-01-01 00:00' at time zone '+200';
