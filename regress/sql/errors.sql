--
-- Errors: each reports PostgreSQL's SQLSTATE and the session goes on
--
\set VERBOSITY sqlstate
SELECT * FROM nosuch;
SELEC 1;
CREATE TABLE er (id int PRIMARY KEY, v int NOT NULL);
SELECT nosuchcol FROM er;
INSERT INTO er VALUES (1, 1);
INSERT INTO er VALUES (1, 2);
INSERT INTO er VALUES (2, NULL);
INSERT INTO er VALUES ('x', 1);
INSERT INTO er VALUES (3, 1, 9);
SELECT nosuchfunc(1);
SELECT 1 + 'a';
SELECT * FROM er WHERE id = 'abc';
SELECT 'abc' + 1;
SET nosuch_setting = 1;
SHOW nosuch_setting;
SELECT * FROM er ORDER BY id;
DROP TABLE er;
