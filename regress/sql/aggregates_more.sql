--
-- string_agg, array_agg, bool_and/bool_or/every, the statistics, and
-- ORDER BY, DISTINCT and FILTER inside aggregate calls
--
\set VERBOSITY sqlstate
CREATE TABLE ag (id int, x int, v text, b bool, f float8, n numeric, big bigint);
INSERT INTO ag VALUES
    (1, 1, 'b', true, 1.5, 1.5, 10000000000),
    (2, 2, 'a', NULL, 2.25, 2.25, 2),
    (3, 3, NULL, false, 3, 3, 3),
    (4, 4, 'a', true, NULL, NULL, NULL);
SELECT stddev(x), variance(x), stddev_pop(x), var_pop(x), var_samp(x), stddev_samp(x) FROM ag;
SELECT stddev(n), variance(n), var_pop(n), stddev_pop(n) FROM ag;
SELECT stddev(f), variance(f), var_pop(f), stddev_pop(f), stddev(f::float4), pg_typeof(stddev(f::float4)) FROM ag;
SELECT stddev(big), variance(big), pg_typeof(stddev(big)), pg_typeof(variance(x::int2)) FROM ag;
SELECT stddev(x), variance(x), var_pop(x), stddev_pop(x) FROM ag WHERE id = 1;
SELECT stddev(x), var_pop(x) FROM ag WHERE id < 0;
SELECT stddev(x), variance(x) FROM ag WHERE id IN (1, 1);
SELECT variance(x) FROM (SELECT 7 AS x FROM generate_series(1, 3)) s;
SELECT string_agg(v, ',' ORDER BY v DESC), string_agg(v, NULL), string_agg(DISTINCT v, '-') FROM ag;
SELECT string_agg(v, ',' ORDER BY id), string_agg(v, ',') FILTER (WHERE v > 'a') FROM ag;
SELECT array_agg(x ORDER BY x DESC NULLS LAST), array_agg(DISTINCT v), array_agg(v ORDER BY id DESC) FROM ag;
SELECT array_agg(b ORDER BY id), array_agg(n ORDER BY id NULLS FIRST), array_agg(f ORDER BY f DESC) FROM ag;
SELECT bool_and(b), bool_or(b), every(b) FROM ag;
SELECT bool_and(b), bool_or(b), every(b), string_agg(v, ','), array_agg(x) FROM ag WHERE false;
SELECT id % 2 AS k, string_agg(v, ',' ORDER BY id), array_agg(id ORDER BY id DESC), bool_or(b) FROM ag GROUP BY 1 ORDER BY 1;
SELECT count(DISTINCT x), count(x ORDER BY x), count(*) FILTER (WHERE x > 2), count(DISTINCT v) FROM ag;
SELECT sum(x) FILTER (WHERE b), max(v) FILTER (WHERE id > 1) FROM ag;
SELECT string_agg('x', '-') FROM ag;
SELECT string_agg(DISTINCT v, ',' ORDER BY v || 'x') FROM ag;
SELECT string_agg(1, ',');
SELECT string_agg(v) FROM ag;
SELECT bool_and(1);
SELECT stddev(v) FROM ag;
SELECT array_agg('a');
SELECT count(*) FILTER (WHERE 1) FROM ag;
DROP TABLE ag;
