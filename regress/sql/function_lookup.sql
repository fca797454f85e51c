--
-- Function lookup errors name the function as called and the argument types
-- as written, without modifiers; arguments without an implicit cast to the
-- parameter type find no function
--
CREATE TABLE fe (v varchar(5), c char(3), n numeric(6,2), t timestamp(3));
SELECT abs(v) FROM fe;
SELECT lower(n) FROM fe;
SELECT ceiling(v) FROM fe;
SELECT ceiling(1, 2);
SELECT round(t) FROM fe;
SELECT substr(n, 1) FROM fe;
SELECT length(c, 1) FROM fe;
SELECT upper(t) FROM fe;
SELECT abs(c) FROM fe;
SELECT round(1.5::float8, 2);
SELECT trunc(1.5::real, 1);
SELECT round(1.5, 2::int8);
SELECT substr('abc', 2::int8);
SELECT substr('abc', 1, 2::bigint);
SELECT round(2.5::float8), trunc(-2.5::real), round(2.567, 2::int2), substr('abcdef', 2::int2, 3);
DROP TABLE fe;
