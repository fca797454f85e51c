--
-- EXPLAIN of data-modifying WITH queries and of subplans.
--
CREATE TABLE ex_a (id int PRIMARY KEY, v text);
CREATE TABLE ex_b (id int, w int);
INSERT INTO ex_a VALUES (1, 'x'), (2, 'y'), (3, 'z');
INSERT INTO ex_b VALUES (1, 2), (2, 3);
EXPLAIN (COSTS OFF) WITH t AS (DELETE FROM ex_a WHERE id = 3 RETURNING *) SELECT * FROM t;
EXPLAIN (COSTS OFF) WITH t AS (DELETE FROM ex_a WHERE v = 'x' RETURNING *) INSERT INTO ex_b SELECT id, 0 FROM t;
EXPLAIN (COSTS OFF) WITH t AS (UPDATE ex_a SET v = 'u' RETURNING *) SELECT count(*) FROM t;
SELECT * FROM ex_a ORDER BY id;
-- EXPLAIN ANALYZE runs them first; the statement reads their rows.
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) WITH t AS (DELETE FROM ex_a WHERE id = 2 RETURNING *) SELECT * FROM t;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) WITH t AS (DELETE FROM ex_a WHERE id = 1 RETURNING *) INSERT INTO ex_b SELECT id, 7 FROM t;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) WITH t AS (INSERT INTO ex_a VALUES (5, 'n')) SELECT 1 AS one;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) DELETE FROM ex_a WHERE id = 5 RETURNING *;
SELECT * FROM ex_a ORDER BY id;
SELECT * FROM ex_b ORDER BY id;
-- Subplans sit two further right than children, under their labels.
EXPLAIN (COSTS OFF) SELECT * FROM ex_a WHERE id = (SELECT max(w) FROM ex_b);
EXPLAIN (COSTS OFF) SELECT id, (SELECT count(*) FROM ex_b WHERE ex_b.id = ex_a.id) FROM ex_a;
DROP TABLE ex_a, ex_b;
