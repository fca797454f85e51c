-- 'now', 'today', 'tomorrow' and 'yesterday' read the transaction's start, in
-- the session's TimeZone.
create table nowt (d1 timestamp(2) with time zone, d2 timestamp, d3 date);
begin;
select pg_sleep(0.1);
select now() = 'now'::timestamptz as a, now()::timestamp = 'now'::timestamp as b,
       current_date = 'today'::date as c, 'today'::timestamptz = date_trunc('day', now()) as d,
       'tomorrow'::date - 'yesterday'::date as e, 'now'::date = current_date as f;
insert into nowt values ('now', 'now', 'now');
select pg_sleep(0.1);
insert into nowt values ('now', 'now', 'today');
select count(*) as two, count(distinct d1) as one, count(distinct d2) as one_too from nowt;
select count(*) as two from nowt where d1 = timestamp(2) with time zone 'now';
set timezone = 'Pacific/Auckland';
select now()::timestamp = 'now'::timestamp as b, current_date = 'today'::date as c,
       'today'::timestamptz = date_trunc('day', now()) as d, 'today'::timestamp = date_trunc('day', localtimestamp) as g;
commit;
reset timezone;
drop table nowt;
