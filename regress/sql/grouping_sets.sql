--
-- GROUP BY GROUPING SETS, ROLLUP, CUBE and GROUPING().
--
CREATE TABLE gst1 (a int, b int, v int);
INSERT INTO gst1 VALUES (1,1,10),(1,1,11),(1,2,12),(1,2,13),(1,3,14),
  (2,3,15), (3,3,16),(3,4,17), (4,1,18),(4,1,19);
CREATE TABLE gst2 (a integer, b integer, c integer, d integer);
INSERT INTO gst2 VALUES (1, 1, 1, 1), (1, 1, 1, 2), (1, 1, 2, 2), (1, 2, 2, 2),
  (2, 2, 2, 2), (2, 2, 2, NULL), (NULL, NULL, NULL, NULL);
CREATE TABLE gst_empty (a integer, b integer, v integer);

-- ROLLUP with several aggregates, ordered aggregates and GROUPING().
SELECT a, b, grouping(a,b), sum(v), count(*), max(v)
  FROM gst1 GROUP BY ROLLUP (a,b) ORDER BY a, b;
SELECT a, b, grouping(a,b), sum(v), count(*), max(v)
  FROM gst1 GROUP BY ROLLUP (a,b) ORDER BY b DESC, a;
SELECT a, b, grouping(a,b), sum(v), count(*), max(v)
  FROM gst1 GROUP BY ROLLUP (a,b) ORDER BY coalesce(a,0)+coalesce(b,0), a, b;
SELECT a, b, grouping(a,b), array_agg(v ORDER BY v), string_agg(v::text, ':' ORDER BY v DESC),
       percentile_disc(0.5) WITHIN GROUP (ORDER BY v)
  FROM gst1 GROUP BY ROLLUP (a,b) ORDER BY a, b;

-- CUBE, GROUPING SETS, and their combinations.
SELECT a, b, sum(c), count(*) FROM gst2 GROUP BY CUBE (a, b) ORDER BY a, b, grouping(a, b);
SELECT a, b, sum(c) FROM gst2 GROUP BY GROUPING SETS ((a, b), (a), ()) ORDER BY a, b, grouping(a, b);
SELECT a, b, c, sum(d) FROM gst2 GROUP BY a, ROLLUP (b, c) ORDER BY a, b, c, grouping(b, c);
SELECT a, b, sum(d), grouping(a, b) FROM gst2 GROUP BY GROUPING SETS (ROLLUP (a), CUBE (b)) ORDER BY a, b, 4;
SELECT a, b, c, count(*) FROM gst2 GROUP BY ROLLUP ((a, b), c) ORDER BY a, b, c, grouping(a, b, c);
SELECT a, b, count(*) FROM gst2 GROUP BY GROUPING SETS ((a, b), (a, b), ()) ORDER BY a, b, 3;
SELECT a, b, count(*) FROM gst2 GROUP BY DISTINCT GROUPING SETS ((a, b), (a, b), ()) ORDER BY a, b, 3;
SELECT a, b, count(*) FROM gst2 GROUP BY DISTINCT ROLLUP (a, b), ROLLUP (a) ORDER BY a, b, 3;
SELECT sum(c) FROM gst2 GROUP BY GROUPING SETS ((), GROUPING SETS ((), GROUPING SETS (()))) ORDER BY 1 DESC;
SELECT sum(c) FROM gst2 GROUP BY GROUPING SETS (GROUPING SETS (ROLLUP (c), GROUPING SETS (CUBE (c)))) ORDER BY 1 DESC;

-- The empty grouping set gives its row for no input too; the others none.
SELECT a, b, sum(v), count(*) FROM gst_empty GROUP BY GROUPING SETS ((a, b), ());
SELECT sum(v), count(*) FROM gst_empty GROUP BY GROUPING SETS ((), (), ());
SELECT sum(v), count(*) FROM gst_empty GROUP BY ();
SELECT a, count(*) FROM gst_empty GROUP BY ROLLUP (a);

-- HAVING, ORDER BY GROUPING(), FILTER, expressions of keys, window functions.
SELECT a, b, sum(v) FROM gst1 GROUP BY ROLLUP (a, b) HAVING sum(v) > 30 ORDER BY a, b;
SELECT a, sum(v) FROM gst1 GROUP BY ROLLUP (a) ORDER BY grouping(a), a;
SELECT CASE WHEN grouping(a) = 1 THEN 'total' ELSE a::text END AS a, sum(v)
  FROM gst1 GROUP BY ROLLUP (a) ORDER BY 1;
SELECT a, b, count(*) FILTER (WHERE v > 12), count(DISTINCT v % 2)
  FROM gst1 GROUP BY GROUPING SETS ((a, b), (b), ()) ORDER BY a, b;
SELECT a + 1 AS x, sum(v) FROM gst1 GROUP BY ROLLUP (a + 1) ORDER BY 1;
SELECT a, b, sum(v), sum(sum(v)) OVER (ORDER BY a, b) AS rsum
  FROM gst1 GROUP BY ROLLUP (a, b) ORDER BY rsum, a, b;
SELECT a, b, sum(v), rank() OVER (PARTITION BY grouping(a, b) ORDER BY sum(v) DESC)
  FROM gst1 GROUP BY ROLLUP (a, b) ORDER BY grouping(a, b), 4, a, b;
SELECT (SELECT max(v) FROM gst1 i WHERE i.a = o.a) AS m, a, count(*)
  FROM gst1 o GROUP BY ROLLUP (a) ORDER BY a;
SELECT DISTINCT a FROM gst1 GROUP BY CUBE (a, b) ORDER BY a;

-- EXPLAIN: every set is hashed; the empty one is a plain aggregate.
EXPLAIN (COSTS OFF) SELECT count(*) FROM gst1 GROUP BY ();
EXPLAIN (COSTS OFF) SELECT a, b, count(*) FROM gst1 GROUP BY ROLLUP (a, b);
EXPLAIN (COSTS OFF) SELECT a, b, count(*) FROM gst1 GROUP BY GROUPING SETS ((a), (b));
EXPLAIN (COSTS OFF) SELECT a, b, count(*), grouping(a, b) FROM gst1 GROUP BY CUBE (a, b) ORDER BY 1, 2;

-- Errors.
SELECT grouping(a) FROM gst1;
SELECT a FROM gst1 WHERE grouping(a) = 0 GROUP BY a;
SELECT a, grouping(b) FROM gst1 GROUP BY ROLLUP (a);
SELECT count(*) FROM gst1 GROUP BY CUBE (a, b, v, a, b, v, a, b, v, a, b, v, a);
SELECT grouping(a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a) FROM gst1 GROUP BY a;
SELECT sum(v) FROM gst1 GROUP BY ROLLUP (sum(v));

DROP TABLE gst1, gst2, gst_empty;
