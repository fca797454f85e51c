--
-- DDL on a table one of the session's own cursors reads: refused, as
-- PostgreSQL's CheckTableNotInUse refuses it, instead of waiting for itself.
--
CREATE TABLE cd_t (a int);
INSERT INTO cd_t VALUES (1), (2);
BEGIN;
DECLARE c CURSOR FOR SELECT * FROM cd_t;
FETCH c;
DROP TABLE cd_t;
ROLLBACK;
BEGIN;
DECLARE c CURSOR FOR SELECT * FROM cd_t;
FETCH c;
TRUNCATE cd_t;
ROLLBACK;
BEGIN;
DECLARE c CURSOR FOR SELECT * FROM cd_t;
FETCH c;
ALTER TABLE cd_t ADD COLUMN b int;
ROLLBACK;
BEGIN;
DECLARE c CURSOR FOR SELECT * FROM cd_t;
FETCH c;
CREATE INDEX ON cd_t (a);
ROLLBACK;
-- Other statements of the session read and write the table meanwhile,
-- and once the cursor is closed the DDL goes through.
BEGIN;
DECLARE c CURSOR FOR SELECT * FROM cd_t;
FETCH c;
INSERT INTO cd_t VALUES (3);
SELECT count(*) FROM cd_t;
FETCH c;
CLOSE c;
TRUNCATE cd_t;
SELECT count(*) FROM cd_t;
COMMIT;
DROP TABLE cd_t;
