--
-- UPDATE ... FROM and DELETE ... USING: tables, subqueries, joins,
-- set-returning functions, VALUES, WITH queries and LATERAL items joined to
-- the target through WHERE; RETURNING over every item; a target row joined
-- to several rows changed once; indexes, unique and foreign keys kept; the
-- errors PostgreSQL gives
--
\set VERBOSITY default
CREATE TABLE uf_t (id int PRIMARY KEY, a int, b text);
CREATE INDEX uf_t_a ON uf_t (a);
CREATE TABLE uf_s (id int, v int, note text);
INSERT INTO uf_t SELECT g, g * 10, 'r' || g FROM generate_series(1, 8) g;
INSERT INTO uf_s VALUES (1, 100, 'one'), (2, 200, 'two'), (4, NULL, 'four'), (NULL, 900, 'none'), (42, 4200, 'far');

-- a table in FROM; RETURNING reads both
UPDATE uf_t SET a = uf_s.v FROM uf_s WHERE uf_t.id = uf_s.id AND uf_s.id = 1 RETURNING uf_t.*, uf_s.note;
UPDATE uf_t SET a = uf_s.v, b = uf_t.b || '/' || uf_s.note FROM uf_s WHERE uf_t.id = uf_s.id;
SELECT * FROM uf_t ORDER BY id;
-- the index on a follows the new values
SELECT id FROM uf_t WHERE a = 200;
SELECT id FROM uf_t WHERE a IS NULL;
SELECT id FROM uf_t WHERE a = 20;
-- aliases; RETURNING * is the target's columns, then the FROM items'
UPDATE uf_t AS x SET a = y.v + 1 FROM uf_s y WHERE x.id = y.id AND y.note = 'two' RETURNING *;
UPDATE uf_t x SET a = -1 FROM uf_s y WHERE x.id = y.id AND y.note = 'nothing';
-- NULL join keys match nothing
UPDATE uf_t SET b = 'null key' FROM uf_s WHERE uf_t.id = uf_s.id AND uf_s.v IS NULL RETURNING uf_t.id, uf_t.b, uf_s.v;
UPDATE uf_t SET b = 'x' FROM uf_s WHERE uf_t.a = uf_s.id AND uf_s.id IS NULL;

-- a subquery in FROM, with column aliases
UPDATE uf_t SET a = q.total FROM (SELECT id, sum(v) AS total FROM uf_s GROUP BY id) AS q WHERE q.id = uf_t.id AND q.id = 2 RETURNING uf_t.id, uf_t.a, q.total;
UPDATE uf_t SET b = q.label FROM (SELECT id + 4, 'moved' FROM uf_s WHERE id < 3) AS q (k, label) WHERE uf_t.id = q.k;
SELECT id, b FROM uf_t WHERE b = 'moved' ORDER BY id;
-- an empty subquery changes nothing
UPDATE uf_t SET a = 0 FROM (SELECT 1 AS k WHERE false) e WHERE e.k = uf_t.id;
-- VALUES
UPDATE uf_t SET a = v.n FROM (VALUES (3, 33), (7, 77), (99, 9999)) AS v (k, n) WHERE v.k = uf_t.id;
SELECT id, a FROM uf_t WHERE id IN (3, 7) ORDER BY id;
-- a set-returning function
UPDATE uf_t SET b = 'series ' || g FROM generate_series(5, 6) AS g WHERE uf_t.id = g;
SELECT id, b FROM uf_t WHERE id IN (5, 6) ORDER BY id;
-- joins in FROM: inner, LEFT (a NULL-extended row still joins), comma list
UPDATE uf_t SET b = l.note || ':' || coalesce(r.note, '-') FROM uf_s l LEFT JOIN uf_s r ON r.id = l.id + 1 WHERE uf_t.id = l.id;
SELECT id, b FROM uf_t WHERE id IN (1, 2, 4) ORDER BY id;
UPDATE uf_t SET a = l.v + r.v FROM uf_s l JOIN uf_s r ON r.id = l.id + 1 WHERE uf_t.id = l.id RETURNING uf_t.id, uf_t.a, l.note, r.note;
UPDATE uf_t SET a = l.v * 2 FROM uf_s l, uf_s r WHERE r.id = l.id AND uf_t.id = l.id AND r.note = 'one' RETURNING uf_t.a;
-- a WITH query
WITH c AS (SELECT id, note FROM uf_s WHERE v > 150) UPDATE uf_t SET b = 'cte ' || c.note FROM c WHERE c.id = uf_t.id RETURNING uf_t.id, uf_t.b;
WITH c AS (SELECT 8 AS k) DELETE FROM uf_t USING c WHERE uf_t.id = c.k RETURNING uf_t.id;
-- LATERAL items read the items before them
UPDATE uf_t SET a = lat.dbl FROM uf_s, LATERAL (SELECT uf_s.v * 2 AS dbl) lat WHERE uf_t.id = uf_s.id AND uf_s.id = 1 RETURNING uf_t.a, lat.dbl;
UPDATE uf_t SET a = g FROM uf_s, generate_series(uf_s.id, uf_s.id) g WHERE uf_t.id = g AND uf_s.note = 'two' RETURNING uf_t.id, uf_t.a;
-- SET and WHERE read the target's old values with the FROM items'
UPDATE uf_t SET a = uf_t.a + s2.v, b = upper(uf_t.b) FROM uf_s s2 WHERE uf_t.id = s2.id AND uf_t.a > 0 AND s2.id = 2 RETURNING uf_t.id, uf_t.a, uf_t.b;
-- a subquery in WHERE sees the target and the FROM items
UPDATE uf_t SET b = 'max' FROM uf_s WHERE uf_t.id = uf_s.id AND uf_s.v = (SELECT max(v) FROM uf_s s3 WHERE s3.id <= uf_t.id) RETURNING uf_t.id;
SELECT * FROM uf_t ORDER BY id;

-- a target row joined to several FROM rows is updated once
CREATE TABLE uf_m (k int, w int);
INSERT INTO uf_m VALUES (3, 1), (3, 1), (3, 1), (5, 2), (5, 2);
UPDATE uf_t SET a = uf_t.a + uf_m.w FROM uf_m WHERE uf_t.id = uf_m.k;
SELECT id, a FROM uf_t WHERE id IN (3, 5) ORDER BY id;
DELETE FROM uf_t USING uf_m WHERE uf_t.id = uf_m.k AND uf_m.w = 2;
SELECT id FROM uf_t ORDER BY id;

-- the target joined with itself under another name
UPDATE uf_t SET a = prev.a FROM uf_t prev WHERE prev.id = uf_t.id - 1 AND uf_t.id = 4 RETURNING uf_t.id, uf_t.a, prev.id;
UPDATE uf_t x SET b = uf_t.b FROM uf_t WHERE uf_t.id = 1 AND x.id = 2 RETURNING x.id, x.b;
-- every row reads the old values of the other rows
UPDATE uf_t SET a = nxt.a FROM uf_t nxt WHERE nxt.id = (SELECT min(id) FROM uf_t m WHERE m.id > uf_t.id);
SELECT id, a FROM uf_t ORDER BY id;

-- DELETE ... USING
CREATE TABLE uf_d (id int PRIMARY KEY, grp int, val text);
INSERT INTO uf_d VALUES (1, 1, 'a'), (2, 1, 'a'), (3, 1, 'b'), (4, 2, 'a'), (5, 2, 'a'), (6, 2, 'a'), (7, NULL, 'a'), (8, NULL, 'a');
-- keep the lowest id of each (grp, val)
DELETE FROM uf_d d USING uf_d e WHERE d.grp = e.grp AND d.val = e.val AND d.id > e.id;
SELECT * FROM uf_d ORDER BY id;
DELETE FROM uf_d USING (VALUES (2), (3)) AS v (g) WHERE uf_d.grp = v.g;
DELETE FROM uf_d USING uf_s WHERE uf_d.id = uf_s.id AND uf_s.note = 'one' RETURNING uf_d.*, uf_s.note;
DELETE FROM uf_d USING generate_series(1, 0) g WHERE uf_d.id = g;
SELECT * FROM uf_d ORDER BY id;

-- constraints: unique, NOT NULL, foreign keys
CREATE TABLE uf_p (id int PRIMARY KEY, tag text UNIQUE);
CREATE TABLE uf_c (id int PRIMARY KEY, pid int REFERENCES uf_p (id));
INSERT INTO uf_p VALUES (1, 'x'), (2, 'y'), (3, 'z');
INSERT INTO uf_c VALUES (10, 1), (20, 2);
UPDATE uf_p SET tag = 'y' FROM uf_s WHERE uf_p.id = uf_s.id AND uf_s.id = 1;
\echo :LAST_ERROR_SQLSTATE
UPDATE uf_p SET tag = NULL FROM uf_s WHERE uf_p.id = uf_s.id;
SELECT * FROM uf_p ORDER BY id;
UPDATE uf_p SET id = NULL FROM uf_s WHERE uf_p.id = uf_s.id AND uf_s.id = 1;
\echo :LAST_ERROR_SQLSTATE
UPDATE uf_c SET pid = uf_s.id FROM uf_s WHERE uf_s.note = 'four' AND uf_c.id = 10;
\echo :LAST_ERROR_SQLSTATE
UPDATE uf_c SET pid = uf_p.id FROM uf_p WHERE uf_p.tag = 'z' AND uf_c.id = 10 RETURNING uf_c.*;
DELETE FROM uf_p USING uf_c WHERE uf_c.pid = uf_p.id;
\echo :LAST_ERROR_SQLSTATE
DELETE FROM uf_p USING uf_s WHERE uf_s.id = uf_p.id RETURNING uf_p.id;
SELECT * FROM uf_p ORDER BY id;

-- in a transaction block, rolled back
BEGIN;
UPDATE uf_t SET a = 0 FROM uf_s WHERE uf_t.id = uf_s.id;
DELETE FROM uf_t USING uf_s WHERE uf_t.id = uf_s.id;
SELECT count(*) FROM uf_t;
ROLLBACK;
SELECT id, a FROM uf_t ORDER BY id;

-- errors
UPDATE uf_t SET a = 1 FROM uf_t WHERE true;
\echo :LAST_ERROR_SQLSTATE
DELETE FROM uf_t USING uf_t;
\echo :LAST_ERROR_SQLSTATE
UPDATE uf_t SET a = 1 FROM uf_s JOIN uf_t ON true;
\echo :LAST_ERROR_SQLSTATE
UPDATE uf_t x SET a = 1 FROM uf_s x;
\echo :LAST_ERROR_SQLSTATE
UPDATE uf_t SET a = id FROM uf_s WHERE uf_t.id = uf_s.id;
\echo :LAST_ERROR_SQLSTATE
DELETE FROM uf_t USING uf_s WHERE id = 1;
\echo :LAST_ERROR_SQLSTATE
UPDATE uf_t SET a = 1 FROM uf_s WHERE uf_s.zz = 1;
\echo :LAST_ERROR_SQLSTATE
UPDATE uf_t SET a = 1 FROM uf_s WHERE nope.id = 1;
\echo :LAST_ERROR_SQLSTATE
UPDATE uf_t x SET a = 1 FROM uf_s WHERE uf_t.id = uf_s.id;
\echo :LAST_ERROR_SQLSTATE
UPDATE uf_t SET a = 1 FROM uf_nosuch WHERE true;
\echo :LAST_ERROR_SQLSTATE
-- FROM items cannot read the target
UPDATE uf_t SET a = 1 FROM (SELECT uf_t.a) q;
\echo :LAST_ERROR_SQLSTATE
UPDATE uf_t SET a = 1 FROM (SELECT b) q;
\echo :LAST_ERROR_SQLSTATE
UPDATE uf_t SET a = 1 FROM uf_s JOIN uf_s s2 ON s2.id = uf_t.id;
\echo :LAST_ERROR_SQLSTATE
UPDATE uf_t SET a = 1 FROM uf_s JOIN uf_s s2 ON s2.id = a;
\echo :LAST_ERROR_SQLSTATE
UPDATE uf_t SET a = q.v FROM LATERAL (SELECT uf_t.a AS v) q;
\echo :LAST_ERROR_SQLSTATE
UPDATE uf_t SET a = q.v FROM LATERAL (SELECT b AS v) q;
\echo :LAST_ERROR_SQLSTATE
DELETE FROM uf_t USING generate_series(1, uf_t.a) g;
\echo :LAST_ERROR_SQLSTATE
UPDATE uf_t x SET a = 1 FROM (SELECT uf_t.a) q;
\echo :LAST_ERROR_SQLSTATE
-- aggregates and set-returning functions
UPDATE uf_t SET a = sum(uf_s.v) FROM uf_s;
\echo :LAST_ERROR_SQLSTATE
DELETE FROM uf_t USING uf_s WHERE count(*) > 1;
\echo :LAST_ERROR_SQLSTATE
UPDATE uf_t SET a = generate_series(1, 2) FROM uf_s;
\echo :LAST_ERROR_SQLSTATE
UPDATE uf_t SET a = 1 FROM uf_s RETURNING generate_series(1, 2);
\echo :LAST_ERROR_SQLSTATE
UPDATE uf_t SET a = uf_s.note FROM uf_s WHERE uf_t.id = uf_s.id;
\echo :LAST_ERROR_SQLSTATE
UPDATE uf_t SET a = 1 FROM uf_s WHERE uf_s.v;
\echo :LAST_ERROR_SQLSTATE
UPDATE uf_t SET a = 1 FROM uf_s RETURNING nope.*;
\echo :LAST_ERROR_SQLSTATE
UPDATE uf_t SET a = 1 FROM (SELECT 1) WHERE true;
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM uf_t ORDER BY id;

DROP TABLE uf_c, uf_p, uf_d, uf_m, uf_s, uf_t;
