-- IntervalStyle: output in each style, sql_standard's reading of a leading
-- minus sign, casts to and from text, arrays, COPY, and bad values.
create table iv(i interval);
insert into iv values ('0'), ('1 year 2 mons'), ('-1 year -2 mons'), ('3 days 04:05:06.789'), ('-3 days -04:05:06.789'),
 ('1 year 2 mons 3 days 04:05:06'), ('1 year -2 mons +3 days -04:05:06.5'), ('-00:00:00.5'), ('1 sec'), ('-1 sec'), ('2 hours'),('-1 days +02:03'), ('@ 1 min ago'), ('-0.000001 s'), ('1 day'), ('100:00:00'), ('1 mon'), ('-1 year'), ('-1.5 s'), ('1 day -1 s');
set intervalstyle = sql_standard;
select i, i::text from iv;
set intervalstyle = iso_8601;
select i, i::text, array[i] from iv;
set intervalstyle = postgres_verbose;
select i from iv;
show intervalstyle;
set intervalstyle = 'SQL_Standard';
show intervalstyle;
select '-1 2:03:04'::interval a, '-1 +2:03:04'::interval b, '-1-2 3'::interval c, '-1 day 2 hours'::interval d, '-1 -2:03'::interval f, '-1-2 +3'::interval g, '1 -2:03'::interval h, '-2:03:04'::interval i, '-1-2'::interval j, '@ -1 day 2 hours'::interval k, interval '-1 2' day to hour l;
select '-1 2:03:04'::text::interval, cast('-1 2:03:04' as varchar)::interval;
reset intervalstyle;
select '-1 2:03:04'::interval a;
set intervalstyle = 'bogus';
set intervalstyle = '';
show intervalstyle;
set intervalstyle = iso_8601;
copy iv to stdout;
select array['1 day', '-2 hours']::interval[], array[interval '1 day 2 hours']::text[];
set intervalstyle = sql_standard;
select i from iv where i < interval '-1 0:00:00' order by i;
select '-1 2:03:04'::interval < '0'::interval, interval '-1 2:03' = interval '-1 days -2 hours -3 minutes';
set intervalstyle = postgres_verbose;
select interval '1 day ago', interval '-1 sec', interval '1.5 sec', '@ 2 days 3 hours ago'::interval;
drop table iv;
reset intervalstyle;
show intervalstyle;
