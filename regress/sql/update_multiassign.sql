--
-- UPDATE ... SET (a, b) = (SELECT ...): each column takes its column of
-- the subquery's one row (NULLs when it returns none), the subquery runs
-- once per row and may read the target row and the FROM items
--
\set VERBOSITY default
CREATE TABLE uma_t (id int PRIMARY KEY, a int NOT NULL DEFAULT 0, b text, c numeric(6,2));
CREATE TABLE uma_s (id int, v int, w text);
INSERT INTO uma_t VALUES (1, 10, 'x', 1), (2, 20, 'y', 2), (3, 30, 'z', 3), (4, 40, NULL, NULL);
INSERT INTO uma_s VALUES (1, 100, 'one'), (2, 200, 'two'), (2, 201, 'two again'), (4, NULL, NULL);

-- uncorrelated, with assignment casts
UPDATE uma_t SET (a, b) = (SELECT 5::bigint, 7) WHERE id = 1 RETURNING *;
UPDATE uma_t SET (a, c) = (SELECT 5.7, 1.234) WHERE id = 1 RETURNING *;
UPDATE uma_t SET (c) = (SELECT 9) WHERE id = 1 RETURNING c;
UPDATE uma_t SET (a, b) = (SELECT max(v), min(w) FROM uma_s), c = c * 2 WHERE id = 1 RETURNING *;
UPDATE uma_t SET (b, a) = (VALUES ('values', 6)) WHERE id = 1 RETURNING *;
UPDATE uma_t SET (a, b) = (SELECT 1 AS p, 'named' AS q) WHERE id = 1 RETURNING a, b;
-- correlated with the target row
UPDATE uma_t SET (b, a) = (SELECT w, v FROM uma_s WHERE uma_s.id = uma_t.id) WHERE id = 1 RETURNING *;
UPDATE uma_t SET (a, b) = (SELECT count(*), 'n=' || count(*) FROM uma_s WHERE uma_s.v > uma_t.a);
SELECT * FROM uma_t ORDER BY id;
-- no row: NULLs
UPDATE uma_t SET (b, c) = (SELECT w, v FROM uma_s WHERE false) WHERE id = 3 RETURNING *;
UPDATE uma_t SET (a, b) = (SELECT v, w FROM uma_s WHERE uma_s.id = uma_t.id) WHERE id = 3;
UPDATE uma_t SET (b) = (SELECT w FROM uma_s WHERE uma_s.id = uma_t.id) WHERE id = 4 RETURNING *;
-- two subqueries, and one next to ROW and plain items
UPDATE uma_t SET (a, b) = (SELECT 7, 'seven'), (c) = (SELECT 7.5), id = id + 10 WHERE id = 4 RETURNING *;
UPDATE uma_t SET (a, b) = (22, 'row'), (c) = (SELECT 2.5) WHERE id = 2 RETURNING *;
UPDATE uma_t SET (a, b) = (DEFAULT, 'default') WHERE id = 2 RETURNING *;
-- with FROM: the subquery reads the FROM items
UPDATE uma_t SET (b, a) = (SELECT w, v FROM uma_s WHERE uma_s.id = x.id AND uma_s.v < 201) FROM uma_s x
  WHERE x.id = uma_t.id - 12 AND x.v = 100 RETURNING uma_t.*, x.v;
-- a volatile subquery runs once per row, for all its columns
UPDATE uma_t SET (a, b) = (SELECT r, r::text FROM (SELECT (random() * 1000)::int AS r) q);
SELECT count(*) FROM uma_t WHERE a::text = b;

-- errors
UPDATE uma_t SET (a, b) = (SELECT '5', 'q') WHERE id = 1;
\echo :LAST_ERROR_SQLSTATE
UPDATE uma_t SET (a, b) = (SELECT 'x'::text, 'q') WHERE id = 1;
\echo :LAST_ERROR_SQLSTATE
UPDATE uma_t SET (a, b) = (SELECT v, w FROM uma_s WHERE uma_s.id = 2);
\echo :LAST_ERROR_SQLSTATE
UPDATE uma_t SET (a, b) = (SELECT v, w FROM uma_s WHERE uma_s.id = uma_t.id);
\echo :LAST_ERROR_SQLSTATE
UPDATE uma_t SET (a, b) = (SELECT 1, 'c' UNION SELECT 2, 'd');
\echo :LAST_ERROR_SQLSTATE
UPDATE uma_t SET (a, nope) = (SELECT 1, 2);
\echo :LAST_ERROR_SQLSTATE
UPDATE uma_t SET (a, a) = (SELECT 1, 2);
\echo :LAST_ERROR_SQLSTATE
UPDATE uma_t SET (a, b) = (SELECT 1, 2, 3);
\echo :LAST_ERROR_SQLSTATE
UPDATE uma_t SET (a, b) = (SELECT 1);
\echo :LAST_ERROR_SQLSTATE
UPDATE uma_t SET (a, b) = (SELECT * FROM uma_s WHERE false);
\echo :LAST_ERROR_SQLSTATE
UPDATE uma_t SET (a, b) = (SELECT 1, 'c'), (id) = (SELECT 2);
\echo :LAST_ERROR_SQLSTATE
UPDATE uma_t SET a = (SELECT 1, 2);
\echo :LAST_ERROR_SQLSTATE
UPDATE uma_t SET (a, b) = (SELECT nope, 1);
\echo :LAST_ERROR_SQLSTATE
SELECT id, a IS NOT NULL AS has_a, c FROM uma_t ORDER BY id;

DROP TABLE uma_s, uma_t;
