-- The square root of numeric rounded once, from the exact root; the
-- currency symbol L of to_char and to_number (a blank in the C locale).
select sqrt(8015491789940783531003294973900306::numeric);
select sqrt(2::numeric), sqrt(0.0001::numeric), sqrt(1e-20::numeric), sqrt(100::numeric),
       sqrt(12345678901234567890.123::numeric), sqrt(0.000::numeric), sqrt(2.25::numeric),
       sqrt(99999999999999999999999999999999::numeric);
select to_char(456::int8, 'L9999999999999999.000'), to_char(-45.6, 'L999.99'), to_char(12, 'FML99'), to_char(12, 'L0000');
select to_number('1234.56','L99,999.99'), to_number('1,234.56','L99,999.99'), to_number(' 1234.56','L99,999.99');
select to_char(1234.5, '9G999D99L');
select pg_size_pretty('-9223372036854775808'::bigint), pg_size_pretty('9223372036854775807'::bigint), pg_size_pretty(-10239::bigint), pg_size_pretty(-10240::bigint);
