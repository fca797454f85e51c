-- VALUES outside INSERT: as a statement, in FROM with column aliases, in
-- a subquery and a CTE, with ORDER BY and LIMIT; the columns' common type
-- over all rows; errors.
VALUES (1, 'one'), (2, 'two'), (3, 'three');
VALUES (3), (1), (2) ORDER BY 1;
VALUES (3), (1), (2) ORDER BY column1 DESC LIMIT 2;
VALUES (1), (2.5), (NULL);
VALUES ('a'), ('b');
VALUES (1), ('2');
SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS t(id, name) ORDER BY id DESC;
SELECT t.column2 FROM (VALUES (1, 'x'), (2, 'y')) t WHERE t.column1 = 2;
SELECT count(*), sum(x) FROM (VALUES (10), (20), (30)) v(x);
WITH v(k, w) AS (VALUES (1, 'p'), (2, 'q')) SELECT w FROM v WHERE k = 1;
SELECT x FROM (VALUES (now()::date - now()::date)) v(x);
SELECT 1 WHERE 2 IN (SELECT * FROM (VALUES (1), (2)) v);
VALUES (1, 2), (3);
VALUES (1), ('x');
VALUES (1), (true);
VALUES (1) ORDER BY 2;
