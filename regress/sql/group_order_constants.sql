--
-- GROUP BY and ORDER BY items that are constants: an integer is a position
-- in the select list, any other constant is an error
--
CREATE TABLE g1 (a int, b text);
INSERT INTO g1 VALUES (2, 'x'), (1, 'y');
SELECT a FROM g1 GROUP BY 'x';
SELECT a FROM g1 ORDER BY 'x';
SELECT a FROM g1 ORDER BY NULL;
SELECT a FROM g1 GROUP BY 1.5;
SELECT a FROM g1 ORDER BY true;
SELECT a FROM g1 GROUP BY a ORDER BY 2;
SELECT a FROM g1 ORDER BY (1);
SELECT a FROM g1 ORDER BY -1;
SELECT a, b FROM g1 ORDER BY 2 DESC;
SELECT b, count(*) FROM g1 GROUP BY 1 ORDER BY 1;
DROP TABLE g1;
