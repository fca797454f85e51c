-- Date input under DateStyle ISO, MDY: numeric fields, two-digit years (not
-- shifted for BC), YYMMDD, month names.
select date '99-01-08';
select date '1/8/99';
select date '08-Jan-99';
select date 'Jan 08 99';
select date 'January 8, 99 BC';
select date '08 01 99';
select date '1999 Jan 08';
select date '19990108';
select date '990108';
select date '08-01-99';
select date '01-08-1999';
select date '1-8-1999';
select date '8 Jan 99 BC';
select date 'Jan-08-99 BC';
select date '1/8/99 BC';
select date '2024-02-30';
select date 'Jan 8 69';
select date 'Jan 8 70';
select date '1 2 3';
select date '010203';
select date '99 08 01';
select timestamp '08 01 99 10:20', timestamp 'Jan 8 99 BC 04:05:06';
