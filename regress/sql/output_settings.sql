-- extra_float_digits in float output, and the session's output settings
-- (TimeZone, IntervalStyle, bytea_output) in concat, format, quote_literal
-- and array_to_string.
create table fl (f float8, r real);
insert into fl values (0, 0), (1004.3, 1004.3), (-34.84, -34.84), (1.2345678901234e+200, 1.2345e+30), (1.2345678901234e-200, 1.2345e-30), (100, 100), (1e15, 1e6), (123456789012345678, 1234567), (0.1, 0.1), (1e-5, 1e-5), ('nan', 'inf');
set extra_float_digits = 0;
select f, r, sqrt(abs(f)), f / 3, r / 3 from fl;
set extra_float_digits = -3;
select f, r, f / 3 from fl;
set extra_float_digits = -15;
select f, r from fl;
set extra_float_digits = 3;
select f, r, f / 3 from fl;
reset extra_float_digits;
select f, r, f / 3 from fl;
drop table fl;
set extra_float_digits = 0;
select (1.0/3)::float8::text, array[1.0/3, 2.0/3]::float8[], concat(0.1::float8 + 0.2::float8), format('%s', 0.1::float8 + 0.2::float8);
reset extra_float_digits;
select (1.0/3)::float8::text, array[1.0/3, 2.0/3]::float8[], concat(0.1::float8 + 0.2::float8);
set timezone = 'America/New_York';
select concat('2024-01-01 12:00:00+00'::timestamptz), format('%s|%L|%I', '2024-01-01 12:00:00+00'::timestamptz, '2024-01-01 12:00:00+00'::timestamptz, 1.5::float8),
       quote_literal('2024-01-01 12:00:00+00'::timestamptz), quote_nullable('2024-01-01 12:00:00+00'::timestamptz),
       array_to_string(array['2024-01-01 12:00:00+00'::timestamptz], ','), concat_ws(',', '2024-01-01 12:00:00+00'::timestamptz, true, 1.5::real);
set intervalstyle = 'sql_standard';
select concat(interval '1 day 2 hours'), format('%s', interval '-1 year');
set bytea_output = escape;
select concat('\x41ff'::bytea), format('%s', '\x41ff'::bytea);
reset all;
