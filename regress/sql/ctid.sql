--
-- Tuple placement: ctids of a single-session sequence, as PostgreSQL 15 places them
--
\set VERBOSITY sqlstate
CREATE TABLE pl (id int, pad text);
INSERT INTO pl SELECT 1, 'one';
INSERT INTO pl VALUES (2, 'two'), (3, 'three'), (4, 'four');
SELECT ctid, * FROM pl ORDER BY id;
-- an update that fits on its page goes to the same page
UPDATE pl SET pad = 'TWO' WHERE id = 2;
SELECT ctid, * FROM pl ORDER BY id;
-- delete, vacuum, insert: the freed line pointer is reused
DELETE FROM pl WHERE id = 3;
VACUUM pl;
INSERT INTO pl VALUES (5, 'five');
SELECT ctid, * FROM pl ORDER BY id;
SELECT * FROM pl WHERE ctid = '(0,1)';
DROP TABLE pl;
-- fill factor: rows of a 4-byte int, 226 fit on an empty page at fillfactor 100
CREATE TABLE ff100 (a int);
CREATE TABLE ff50 (a int) WITH (fillfactor=50);
CREATE TABLE ff10 (a int) WITH (fillfactor=10);
INSERT INTO ff100 VALUES (1),(2),(3),(4),(5),(6),(7),(8),(9),(10);
-- many rows via repeated doubling
INSERT INTO ff100 SELECT a + 10 FROM ff100;
INSERT INTO ff100 SELECT a + 20 FROM ff100;
INSERT INTO ff100 SELECT a + 40 FROM ff100;
INSERT INTO ff100 SELECT a + 80 FROM ff100;
INSERT INTO ff100 SELECT a + 160 FROM ff100;
INSERT INTO ff100 SELECT a + 320 FROM ff100;
INSERT INTO ff50 SELECT a FROM ff100;
INSERT INTO ff10 SELECT a FROM ff100;
SELECT count(*), max(ctid) FROM ff100;
SELECT count(*), max(ctid) FROM ff50;
SELECT count(*), max(ctid) FROM ff10;
SELECT pg_relation_size('ff100'), pg_relation_size('ff50'), pg_relation_size('ff10');
SELECT ctid FROM ff50 WHERE a IN (1, 113, 114, 115, 640) ORDER BY a;
-- updates under fill factor stay on their page while room remains
UPDATE ff50 SET a = a WHERE a <= 3;
SELECT ctid, a FROM ff50 WHERE a <= 3 ORDER BY a;
DROP TABLE ff100, ff50, ff10;
