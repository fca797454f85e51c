-- The integer bitwise operators: & | # << >> and prefix ~ (PostgreSQL int2/4/8and, or, xor, shl, shr, not).
select 12 & 10, 12 | 3, 12 # 10, 1 << 4, 256 >> 4, ~5, -16 >> 2, 1 << 31, 1 << 32, 1::int8 << 40, 1::int8 << 64;
select 5::int2 & 3::int2, 5::int2 | 8, pg_typeof(5::int2 & 3::int2), pg_typeof(5::int2 & 3), pg_typeof(5 & 3::int8), 32767::int2 << 1, ~0::int2;
select '7' & 3, 7 & '3', 1.5 & 1;
select 'a' & 1;
select x, x & 256 <> 0 as flag from (values (256), (2304), (1)) v(x) order by x;
select 1 << 2 + 1, (1 << 2) + 1, 6 & 3 | 8;
select x << 1 as shifted from (values (1::int8), (null)) v(x);
select 5 & null, null | 3;
