-- ceil and floor of numeric, and the aggregates over NaN and infinities.
select a, ceil(a), ceiling(a), floor(a)
  from (values (-5.5), (-5.499999), (9.5), (0.0), (0.0000001), (-0.000001), (0.01), (-0.01),
               (1e5), (100000.000), (12345678901234567890.5), ('NaN'), ('Infinity'), ('-Infinity')) v(a);
select var_pop('inf'::numeric), var_samp('inf'::numeric);
select stddev_pop('inf'::numeric), stddev_samp('inf'::numeric);
select var_pop('nan'::numeric), var_samp('nan'::numeric);
select var_pop('inf'::float8), var_samp('inf'::float8), stddev_pop('nan'::float8);
select var_pop('inf'::float4), stddev_pop('nan'::float4);
select sum(x::numeric), avg(x::numeric), var_pop(x::numeric)
  from (values ('1'), ('infinity')) v(x);
select sum(x::numeric), avg(x::numeric), var_pop(x::numeric)
  from (values ('infinity'), ('infinity')) v(x);
select sum(x::numeric), avg(x::numeric), var_pop(x::numeric)
  from (values ('-infinity'), ('infinity')) v(x);
select sum(x::numeric), avg(x::numeric), variance(x::numeric)
  from (values ('-infinity'), ('1'), ('2')) v(x);
select sum(x::numeric), avg(x::numeric), stddev(x::numeric)
  from (values ('nan'), ('1')) v(x);
select sum(x::float8), avg(x::float8), var_pop(x::float8)
  from (values ('1'), ('infinity')) v(x);
select sum(x::float8), avg(x::float8), var_pop(x::float8)
  from (values ('-infinity'), ('infinity')) v(x);
select var_pop(x), var_samp(x) from (values (1e308::float8), (-1e308)) v(x);
select var_pop(x) from (values (1e308::float8), (1e308)) v(x);
