--
-- Error messages (default verbosity): FOR UPDATE restrictions, operator and
-- function lookup failures name types without modifiers, read-only DROP
--
CREATE TABLE fu (id int, g int, v varchar(5));
SELECT count(*) FROM fu FOR UPDATE;
SELECT DISTINCT g FROM fu FOR SHARE;
SELECT g FROM fu GROUP BY g FOR UPDATE;
SELECT g FROM fu GROUP BY g HAVING count(*) > 1 FOR NO KEY UPDATE;
SELECT 1 FROM fu HAVING count(*) > 1 FOR UPDATE;
SELECT max(id, g) FROM fu;
SELECT sum(id, 'a') FROM fu;
SELECT v + 1 FROM fu;
SELECT -v FROM fu;
SELECT sum(v) FROM fu;
BEGIN READ ONLY;
DROP TABLE fu;
ROLLBACK;
DROP TABLE fu;
