--
-- Data-modifying statements in WITH.
--
CREATE TABLE wd_a (id int PRIMARY KEY, v text);
CREATE TABLE wd_b (id int, v text);
INSERT INTO wd_a VALUES (1,'x'),(2,'y'),(3,'z');

-- The statement reads the RETURNING rows, and sees the tables as they were.
WITH t AS (DELETE FROM wd_a WHERE id = 1 RETURNING *) SELECT * FROM t, wd_a ORDER BY wd_a.id;
WITH t AS (UPDATE wd_a SET v = 'u' RETURNING *) SELECT * FROM wd_a ORDER BY id;
SELECT * FROM wd_a ORDER BY id;

-- Moving rows between tables.
WITH t AS (INSERT INTO wd_a VALUES (4, 'w') RETURNING id)
  INSERT INTO wd_b SELECT id + 10, 'copy' FROM t RETURNING *;
WITH moved AS (DELETE FROM wd_a WHERE id >= 3 RETURNING *) INSERT INTO wd_b SELECT * FROM moved;
SELECT * FROM wd_a ORDER BY id;
SELECT * FROM wd_b ORDER BY id;

-- Column names, a chain of them, one nobody reads (it runs anyway), and
-- one read twice (it runs once).
WITH t(x, y) AS (UPDATE wd_b SET v = v || '!' WHERE id < 10 RETURNING id, v) SELECT y, x FROM t ORDER BY x;
WITH d AS (DELETE FROM wd_b WHERE id = 14 RETURNING *),
     i AS (INSERT INTO wd_a SELECT id - 10, v FROM d RETURNING *)
  SELECT * FROM i;
WITH t AS (INSERT INTO wd_a VALUES (20, 'unread') RETURNING *) SELECT 1 AS one;
SELECT * FROM wd_a ORDER BY id;
WITH t AS (INSERT INTO wd_b VALUES (30, 'once') RETURNING *)
  SELECT count(*) FROM t, t AS t2 WHERE t.id IN (SELECT id FROM t);
SELECT * FROM wd_b WHERE id = 30;
WITH t AS (DELETE FROM wd_b WHERE id = 30 RETURNING *) DELETE FROM wd_a USING t WHERE wd_a.id = t.id - 10 RETURNING wd_a.*, t.*;

-- Errors: a statement that fails undoes them all; no RETURNING; not at
-- the top level; in DECLARE.
WITH t AS (INSERT INTO wd_a VALUES (2, 'dup') RETURNING *) SELECT * FROM t;
WITH t AS (DELETE FROM wd_a RETURNING *) SELECT 1/0 FROM t;
SELECT * FROM wd_a ORDER BY id;
WITH t AS (DELETE FROM wd_a WHERE id = 1) SELECT * FROM t;
SELECT * FROM (WITH t AS (DELETE FROM wd_a RETURNING *) SELECT * FROM t) s;
BEGIN;
DECLARE c CURSOR FOR WITH t AS (DELETE FROM wd_a RETURNING *) SELECT * FROM t;
ROLLBACK;
BEGIN READ ONLY;
WITH t AS (DELETE FROM wd_a RETURNING *) SELECT * FROM t;
ROLLBACK;
SELECT * FROM wd_a ORDER BY id;

DROP TABLE wd_a, wd_b;

-- In WITH RECURSIVE, beside a recursive query; one may not read itself.
CREATE TABLE wd_ra (id int PRIMARY KEY, parent int);
CREATE TABLE wd_rlog (id int);
INSERT INTO wd_ra VALUES (1, NULL), (2, 1), (3, 2), (4, 3), (5, NULL);
WITH RECURSIVE sub(id) AS (
    SELECT 2
  UNION ALL
    SELECT wd_ra.id FROM wd_ra JOIN sub ON wd_ra.parent = sub.id
), gone AS (DELETE FROM wd_ra WHERE id IN (SELECT id FROM sub) RETURNING id)
INSERT INTO wd_rlog SELECT id FROM gone;
SELECT * FROM wd_ra ORDER BY id;
SELECT * FROM wd_rlog ORDER BY id;
WITH RECURSIVE t AS (DELETE FROM wd_ra WHERE id IN (SELECT id FROM t) RETURNING *) SELECT * FROM t;
WITH RECURSIVE t AS (INSERT INTO wd_rlog VALUES (9) RETURNING *) SELECT * FROM t;
DROP TABLE wd_ra, wd_rlog;
