--
-- PRIMARY KEY and CREATE INDEX
--
\set VERBOSITY sqlstate
CREATE TABLE ix (a int, b int, c text, PRIMARY KEY (a, b));
INSERT INTO ix SELECT 1, 1, 'x';
INSERT INTO ix VALUES (1, 2, 'y'), (2, 1, 'z'), (2, 2, 'w'), (3, 1, 'v');
INSERT INTO ix VALUES (2, 2, 'dup');
SELECT * FROM ix WHERE a = 2 ORDER BY b;
SELECT * FROM ix WHERE a = 2 AND b = 1;
SELECT * FROM ix WHERE a >= 2 ORDER BY a, b;
CREATE INDEX ix_c ON ix (c);
SELECT a, b FROM ix WHERE c = 'w';
CREATE UNIQUE INDEX ix_c_u ON ix (c);
INSERT INTO ix VALUES (4, 1, 'w');
CREATE INDEX ix_c ON ix (c);
UPDATE ix SET a = 9 WHERE c = 'v';
SELECT * FROM ix WHERE a = 9;
DELETE FROM ix WHERE a = 9;
INSERT INTO ix VALUES (9, 1, 'again');
SELECT * FROM ix ORDER BY a, b;
DROP TABLE ix;
