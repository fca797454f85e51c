--
-- Type input and output as PostgreSQL prints them
--
\set VERBOSITY sqlstate
CREATE TABLE ty (n numeric(8,3), f float8, r real, v varchar(5), c char(3), ts timestamp, d date, b bool, s smallint, big bigint);
INSERT INTO ty VALUES (1.23456, 0.1, 0.1, 'abc', 'a', '2024-02-29 12:00:00', '2024-02-29', 't', 1, 1);
INSERT INTO ty VALUES (-2.0005, 1e20, 3.5, 'héllo', 'xyz', '2024-02-29 12:00:00.5', '1999-12-31', 'no', -32768, 9223372036854775807);
INSERT INTO ty VALUES (0, 1.5e-7, -0.0, '', '', '2000-01-01 00:00:00.123456', '2000-01-01', 'yes', 32767, -9223372036854775808);
INSERT INTO ty VALUES (NULL, 'Infinity', 'NaN', NULL, NULL, NULL, NULL, NULL, NULL, NULL);
SELECT * FROM ty;
INSERT INTO ty (v) VALUES ('toolong');
INSERT INTO ty (s) VALUES (32768);
INSERT INTO ty (n) VALUES (123456.7);
INSERT INTO ty (b) VALUES ('maybe');
INSERT INTO ty (ts) VALUES ('not a time');
INSERT INTO ty (big) VALUES ('12abc');
SELECT 'toolong'::varchar(3) AS truncated, 'ab'::char(4) || '|' AS padded;
SELECT 1.005::numeric(5,2) AS r1, -1.005::numeric(5,2) AS r2, 2.5::numeric(5,0) AS r3;
SELECT 0.1::float8 + 0.2::float8 AS f, 1/3::float8 AS third, 100000000000000000000::float8 AS big;
SELECT 2147483647 + 1;
SELECT 2147483647::bigint + 1 AS ok;
SELECT 1 / 0;
SELECT 1.0 / 0;
SELECT 5 % 0;
SELECT sum(s), sum(big::numeric), avg(s) FROM ty;
DROP TABLE ty;
