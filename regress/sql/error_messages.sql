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
SELECT CAST('42' AS integer), '42'::bigint, '  42  '::int, '4.2'::int;
SELECT 'abc'::int;
SELECT CAST('x' AS date);
SELECT 1::date;
SELECT '123.456'::numeric(4,2);
SELECT 'maybe'::boolean;
SELECT 1 + 'a';
CREATE TABLE vl (v varchar(3), n numeric(3,1));
INSERT INTO vl VALUES ('toolong', 1);
INSERT INTO vl VALUES ('ok', 100);
INSERT INTO vl VALUES ('ok', 'x');
UPDATE vl SET v = 'this is too long';
DROP TABLE vl;
ROLLBACK;
DROP TABLE fu;
SELECT CAST('42' AS integer), '42'::bigint, '  42  '::int, '4.2'::int;
SELECT 'abc'::int;
SELECT CAST('x' AS date);
SELECT 1::date;
SELECT '123.456'::numeric(4,2);
SELECT 'maybe'::boolean;
SELECT 1 + 'a';
CREATE TABLE vl (v varchar(3), n numeric(3,1));
INSERT INTO vl VALUES ('toolong', 1);
INSERT INTO vl VALUES ('ok', 100);
INSERT INTO vl VALUES ('ok', 'x');
UPDATE vl SET v = 'this is too long';
DROP TABLE vl;
