--
-- INSERT and SELECT: WHERE, ORDER BY, LIMIT/OFFSET, expressions
--
\set VERBOSITY sqlstate
CREATE TABLE emp (id int, name text, dept varchar(10), salary numeric(10,2), mgr int);
INSERT INTO emp VALUES
    (1, 'alice', 'eng', 120000.00, NULL),
    (2, 'bob', 'eng', 95000.50, 1),
    (3, 'carol', 'sales', 70000, 1),
    (4, 'dave', 'sales', 65000.255, 3),
    (5, 'eve', NULL, 50000, 3);
INSERT INTO emp (id, name) VALUES (6, 'frank') RETURNING id, name, salary;
SELECT * FROM emp ORDER BY id;
SELECT name, salary FROM emp WHERE dept = 'eng' ORDER BY salary DESC;
SELECT id FROM emp WHERE salary > 60000 AND dept <> 'eng' ORDER BY id;
SELECT id FROM emp WHERE dept IS NULL OR mgr IS NULL ORDER BY id;
SELECT id FROM emp WHERE id IN (2, 4, 6, 8) ORDER BY id;
SELECT id FROM emp WHERE id NOT IN (2, 4) ORDER BY id;
SELECT id FROM emp WHERE id BETWEEN 2 AND 4 ORDER BY id;
SELECT id FROM emp WHERE NOT (id > 2) ORDER BY id;
SELECT id, name FROM emp ORDER BY id LIMIT 2;
SELECT id, name FROM emp ORDER BY id LIMIT 2 OFFSET 3;
SELECT id, name FROM emp ORDER BY id OFFSET 4;
SELECT id, mgr FROM emp ORDER BY mgr NULLS FIRST, id;
SELECT id, mgr FROM emp ORDER BY mgr DESC, id;
SELECT id, id * 2 AS twice, id + 0.5 AS half, id / 2 AS div, id % 2 AS mod, -id AS neg FROM emp ORDER BY 1;
SELECT name || '-' || dept AS label FROM emp ORDER BY id;
SELECT 1 + 1 AS two, 'abc'::text AS t, 10 / 3 AS i, 10.0 / 3 AS n, 2.5::float8 * 2 AS f;
SELECT id::text, salary::int, '42'::int + 1 AS x, CAST(id AS bigint) AS b FROM emp ORDER BY id LIMIT 3;
SELECT DISTINCT dept FROM emp ORDER BY dept;
SELECT count(*) FROM emp WHERE salary IS NOT NULL;
SELECT e.name FROM emp e WHERE e.id = 3;
DROP TABLE emp;
