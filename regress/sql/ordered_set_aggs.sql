--
-- Ordered-set aggregates: percentile_cont, percentile_disc and mode, with
-- WITHIN GROUP (ORDER BY ...), as a benchmark report summarises latencies.
--
create table lat (g int, ms float8, n int, t text, d interval);
insert into lat select i % 3, (i * 7 % 101)::float8 / 4, i * 7 % 11, chr(97 + i % 5), (i % 13) * interval '1 second' from generate_series(1, 200) i;
insert into lat values (0, null, null, null, null), (5, null, null, null, null);
select percentile_cont(0.5) within group (order by ms) as median, percentile_cont(0.9) within group (order by ms) as p90,
  percentile_cont(0.99) within group (order by ms) as p99, percentile_cont(0) within group (order by ms) as p0,
  percentile_cont(1) within group (order by ms) as p100 from lat;
select g, percentile_cont(0.5) within group (order by ms), percentile_disc(0.5) within group (order by ms),
  percentile_disc(0.5) within group (order by n), mode() within group (order by n), count(*) from lat group by g order by g;
select percentile_cont(0.25) within group (order by ms desc), percentile_disc(0.25) within group (order by ms desc) from lat;
select percentile_cont(0.5) within group (order by n), pg_typeof(percentile_cont(0.5) within group (order by n)),
  percentile_disc(0.5) within group (order by n), pg_typeof(percentile_disc(0.5) within group (order by n)) from lat;
select percentile_disc(0.5) within group (order by t), mode() within group (order by t), pg_typeof(mode() within group (order by t)) from lat;
select percentile_cont(0.5) within group (order by d), percentile_disc(0.9) within group (order by d), mode() within group (order by d) from lat;
select percentile_cont(array[0.1, 0.5, 0.9]) within group (order by ms) from lat;
select percentile_disc(array[0, 0.5, 1, null]) within group (order by n) from lat;
select percentile_cont(null) within group (order by ms), percentile_disc(null::float8) within group (order by ms) from lat;
select percentile_cont(0.5) within group (order by ms) filter (where g = 1) from lat;
select percentile_cont(0.5) within group (order by ms), mode() within group (order by n) from lat where false;
select mode() within group (order by x) from (values (3), (1), (3), (1), (2)) v(x);
select percentile_cont(0.5) within group (order by x) from (values (1), (2)) v(x);
select percentile_disc(0.5) within group (order by x) from (values (1), (2), (3), (4)) v(x);
-- Errors.
select percentile_cont(1.5) within group (order by ms) from lat;
select percentile_disc(-0.1) within group (order by ms) from lat;
select percentile_cont(0.5) within group (order by t) from lat;
select percentile_cont(0.5) from lat;
select sum(ms) within group (order by ms) from lat;
select lower('a') within group (order by ms) from lat;
select mode(n) within group (order by n) from lat;
select percentile_cont(0.5) within group (order by ms) from lat group by percentile_cont(0.5) within group (order by ms);
select percentile_cont(0.5) within group (order by ms, n) from lat;
select sum(ms) from lat group by 1;
select percentile_disc(0.5) within group (order by ms) from lat group by 1;
select percentile_cont('abc') within group (order by ms) from lat;
select percentile_cont('0.25') within group (order by ms) from lat;
select percentile_cont('{0.25,0.5}') within group (order by ms) from lat;
select percentile_cont(array['a']) within group (order by ms) from lat;
select mode() within group (order by null) from lat;
select mode() within group (order by 'x') from lat;
select percentile_disc(0.5) within group (order by g) over () from lat;
select percentile_cont(0.5) within group (order by percentile_cont(0.5) within group (order by ms)) from lat;
select percentile_cont('NaN') within group (order by ms) from lat;
select g, percentile_cont(0.5) within group (order by ms) from lat group by g having percentile_cont(0.5) within group (order by ms) > 1 order by 1;
select percentile_cont(0.5) within group (order by ms) from lat where percentile_cont(0.5) within group (order by ms) > 1;
select 1 from lat order by percentile_cont(0.5) within group (order by ms);
select percentile_cont(0.5) within group (order by '2') from lat;
select percentile_cont(0.5) within group (order by 'x') from lat;
select g, percentile_cont(g / 4.0) within group (order by ms) from lat group by g order by g;
-- A fraction is checked even when the group has no values; an array of
-- fractions only when it has.
select percentile_cont(2) within group (order by ms) from lat where false;
select percentile_disc(array[2]) within group (order by ms) from lat where false;
select percentile_cont(0.5) within group (order by ms) filter (where false), mode() within group (order by ms) filter (where false) from lat;
select g, percentile_disc(g / 10.0) within group (order by ms) filter (where ms > 20) from lat group by g order by g;
