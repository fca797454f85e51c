--
-- Data type formatting functions (section 9.8): to_char for timestamps,
-- dates and numbers, to_number, to_date, and the error of each bad input
--
SELECT to_char(timestamp '2002-04-20 17:31:12.66', 'HH12:MI:SS'), to_char(timestamp '2002-04-20 17:31:12.66', 'HH24:MI:SS.MS'), to_char(timestamp '2002-04-20 07:01:02.123456', 'HH:MI:SS.US AM'), to_char(timestamp '2002-04-20 17:31:12', 'hh12 pm P.M. a.m.');
SELECT to_char(timestamp '2002-04-20 17:31:12', 'YYYY-MM-DD'), to_char(timestamp '2002-04-20 17:31:12', 'Y,YYY YYY YY Y'), to_char(timestamp '2002-04-20 17:31:12', 'Day, DD  HH12:MI:SS'), to_char(timestamp '2002-04-20 17:31:12', 'FMDay, FMDD  HH12:MI:SS');
SELECT to_char(timestamp '2002-04-20', 'MONTH|Month|month|MON|Mon|mon|MM'), to_char(timestamp '2002-04-20', 'FMMonth FMDD, YYYY'), to_char(timestamp '2002-04-20', 'DAY|Day|day|DY|Dy|dy|D|ID');
SELECT to_char(timestamp '2002-04-20 17:31:12', 'DDD IDDD WW IW W Q CC J RM rm'), to_char(timestamp '2006-01-01', 'IYYY-IW-ID IYY IY I'), to_char(timestamp '2002-04-20 17:31:12', 'SSSS SSSSS FF1 FF3 FF6');
SELECT to_char(timestamp '2002-04-01', 'DDth Ddth FMDDTH'), to_char(timestamp '2002-04-02', 'DDth'), to_char(timestamp '2002-04-03', 'DDth'), to_char(timestamp '2002-04-11', 'DDth'), to_char(timestamp '2002-04-22', 'DDth');
SELECT to_char(timestamp '2002-04-20 17:31:12', '"Today is" Day", the" FMDDth "of" Month'), to_char(timestamp '2002-04-20', 'YYYY\"MM'), to_char(timestamp '0044-03-15 BC', 'YYYY BC bc B.C.'), to_char(timestamp '2002-04-20', 'AD a.d.');
SELECT to_char(date '2002-04-20', 'DD/MM/YYYY'), to_char(timestamp 'infinity', 'YYYY') IS NULL AS inf_null, to_char(timestamp '2002-04-20', '') IS NULL AS empty_null, to_char(timestamp '2002-04-20', 'xyz ! %');
SELECT to_char(125, '999'), to_char(-125, '999'), to_char(125.8::float8, '999D9'), to_char(-125.8, '999D99S'), to_char(0.1, '0.9'), to_char(0.5, '9.9'), to_char(0.5, 'FM9.9'), to_char(0, '9'), to_char(1, 'FM9.99'), to_char(1.5::float8, '9.99');
SELECT to_char(12, '9.9'), to_char(-12, 'FM9999'), to_char(5, '00099'), to_char(-5, '00099'), to_char(1234567, '9G999G999'), to_char(1234567, '9,999,999'), to_char(12, '9G999'), to_char(12, 'FM9G999'), to_char(148.5, '999.999'), to_char(148.5, 'FM999.999'), to_char(148.5, 'FM999.990');
SELECT to_char(-12, 'S9999'), to_char(12, 'S9999'), to_char(-12, '9999S'), to_char(-12, '9999MI'), to_char(12, '9999MI'), to_char(-12, 'MI9999'), to_char(12, 'PL9999'), to_char(-12, 'SG9999'), to_char(12, 'SG9999'), to_char(-485, '999PR'), to_char(485, '999PR'), to_char(485, 'FM999PR');
SELECT to_char(12, '99th'), to_char(21, '99TH'), to_char(485, 'RN'), to_char(485, 'FMRN'), to_char(1999, 'rn'), to_char(0, 'RN'), to_char(0.0004859, '9.99EEEE'), to_char(12345.678, '9.999EEEE'), to_char(-1.5, '9.9EEEE');
SELECT to_char(2147483647, '9999999999'), to_char(9223372036854775807, '9999999999999999999'), to_char(1e20::numeric, '999'), to_char(123.456::numeric, '999.99'), to_char(-0.004, '9.99'), to_char(3.14159::float8, '9.9999');
SELECT to_char(0.1::float4, '9.9999999999'), to_char(2.5::float8, '9'), to_char(3.5::float8, '9'), to_char(0.125::float8, '9.99'), to_char(1234567.891::float8, '9999999.99999999999'), to_char(123456789012345678::float8, '999999999999999999.99'), to_char(1.5::real, 'FM9.999'), to_char('nan'::float8, '9.9'), to_char(1e300::float8, '9.9');
SELECT to_char(12.5, '99V9'), to_char(-12.5, '99V99'), to_char(12, '9V999'), to_char(1.23456, '9V99'), to_char(1, 'V9'), to_char(-7, '9999PL');
SELECT to_char(12.5, '9V9.9');
SELECT to_number('1.5e3', '9.9EEEE');
SELECT to_number('12.3', '99.99'), to_number('12,454.8-', '99G999D9S'), to_number('12345', '99'), to_number('-12.345', '99.9'), to_number('<123>', '999PR'), to_number(' 1 2', '9 9');
SELECT to_date('05 Dec 2000', 'DD Mon YYYY'), to_date('20001205', 'YYYYMMDD'), to_date('2000 Dec', 'YYYY Mon'), to_date('2000-12-05', 'YYYY-MM-DD'), to_date('December 5, 2000', 'Month DD, YYYY'), to_date('2000 340', 'YYYY DDD'), to_date('2451545', 'J'), to_date('05/12/99', 'DD/MM/YY');
SELECT to_date('2020-13-01', 'YYYY-MM-DD');
SELECT to_date('2020-02-30', 'YYYY-MM-DD');
SELECT to_date('abc', 'YYYY');
SELECT to_date('2000 Foo', 'YYYY Mon');
SELECT to_char(timestamp '2002-04-20', 1);
SELECT to_char(-12, 'PL9999'), to_char(-12, 'FMPL9999'), to_char(12, 'FMPL9999');
SELECT to_char('abc', '999');
CREATE TABLE ff (id int, t timestamp, n numeric(10,2));
INSERT INTO ff VALUES (1, '2024-02-29 13:05:09', 1234.5), (2, '1999-12-31 00:00:00', -0.25), (3, NULL, NULL);
SELECT id, to_char(t, 'FMMonth FMDDth, YYYY HH24:MI'), to_char(n, 'FM9,999.00'), to_char(n, '9999.9S'), to_number(to_char(n, '9999.99'), '9999.99') = n AS round_trip FROM ff ORDER BY id;
DROP TABLE ff;
