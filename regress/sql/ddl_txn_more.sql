--
-- DDL, ctid, FOR UPDATE, transactions, SET/SHOW, indexes, VACUUM
--
\set VERBOSITY sqlstate
DROP TABLE IF EXISTS nosuch;
DROP TABLE IF EXISTS nosuch, nosuch2;
DROP TABLE nosuch;
CREATE TABLE t (id int PRIMARY KEY, v text);
CREATE TABLE t (id int);
CREATE TABLE IF NOT EXISTS t (id int);
INSERT INTO t VALUES (1, 'one'), (2, 'two'), (3, 'three');
SELECT ctid, * FROM t ORDER BY id;
SELECT * FROM t WHERE ctid = '(0,2)';
SELECT * FROM t WHERE ctid = '(0,99)';
SELECT * FROM t WHERE ctid = '(5,1)';
SELECT * FROM t WHERE ctid IN ('(0,1)', '(0,3)') ORDER BY id;
SELECT * FROM t WHERE ctid = 'garbage';
SELECT * FROM t WHERE ctid > '(0,1)' ORDER BY id;
UPDATE t SET v = 'TWO' WHERE ctid = '(0,2)';
SELECT ctid, * FROM t ORDER BY id;
DELETE FROM t WHERE ctid = '(0,4)';
SELECT ctid, * FROM t ORDER BY id;
SELECT * FROM t WHERE id = 1 FOR UPDATE;
SELECT * FROM t ORDER BY id FOR UPDATE;
SELECT count(*) FROM t FOR UPDATE;
SELECT DISTINCT v FROM t FOR UPDATE;
SELECT * FROM t FOR SHARE;
SELECT * FROM t FOR NO KEY UPDATE;
SELECT * FROM t LIMIT 1 FOR UPDATE;
BEGIN;
BEGIN;
SELECT 1;
COMMIT;
COMMIT;
ROLLBACK;
BEGIN;
SELECT 1/0;
SELECT 1;
COMMIT;
BEGIN;
SELECT 1/0;
ROLLBACK;
BEGIN;
INSERT INTO t VALUES (10, 'ten');
ROLLBACK;
START TRANSACTION;
INSERT INTO t VALUES (11, 'eleven');
END;
BEGIN ISOLATION LEVEL READ COMMITTED;
COMMIT;
BEGIN READ ONLY;
INSERT INTO t VALUES (12, 'x');
ROLLBACK;
ABORT;
SELECT id FROM t ORDER BY id;
SET search_path = public;
SHOW search_path;
SET client_min_messages = warning;
SHOW client_min_messages;
SET client_min_messages TO DEFAULT;
SHOW client_min_messages;
SET statement_timeout = 0;
SHOW statement_timeout;
RESET client_min_messages;
-- The major version only: the point release is the server's own.
SHOW server_version_num \gset
SELECT :server_version_num / 100 AS server_major;
SHOW server_encoding;
SHOW client_encoding;
SHOW DateStyle;
SHOW TimeZone;
SHOW integer_datetimes;
SHOW standard_conforming_strings;
SHOW transaction_isolation;
SHOW max_identifier_length;
SET application_name = 'foo';
SHOW application_name;
SET extra_float_digits = 3;
SELECT 0.1::float8;
RESET extra_float_digits;
SELECT pg_relation_size('t');
SELECT pg_relation_size('nosuch');
CREATE INDEX ON t (v);
CREATE INDEX ti ON t (v);
CREATE INDEX ti ON t (v);
CREATE INDEX IF NOT EXISTS ti ON t (v);
CREATE UNIQUE INDEX tu ON t (v);
INSERT INTO t VALUES (20, 'one');
INSERT INTO t VALUES (21, NULL), (22, NULL);
CREATE UNIQUE INDEX tu2 ON t (id, v);
CREATE INDEX tbad ON t (nosuch);
CREATE INDEX tbad ON nosuch (v);
SELECT * FROM t WHERE v = 'dup';
CREATE TABLE tn (a int);
INSERT INTO tn VALUES (1), (1);
CREATE UNIQUE INDEX tnu ON tn (a);
DROP INDEX nosuch;
DROP INDEX IF EXISTS nosuch;
VACUUM;
VACUUM t;
VACUUM nosuch;
BEGIN;
VACUUM t;
ROLLBACK;
DROP TABLE t, tn;
CREATE TABLE d1 (id int, v varchar(3) DEFAULT 'toolong', n numeric(2,1) DEFAULT 100);
INSERT INTO d1 VALUES (1, 'a', 1);
INSERT INTO d1 (id, n) VALUES (2, 1);
INSERT INTO d1 (id, v) VALUES (3, 'b');
INSERT INTO d1 DEFAULT VALUES;
COPY d1 (id, v, n) FROM STDIN;
4	c	2
\.
-- Rejected before the server asks for data (the default does not fit), so
-- it is sent by \copy from an empty file: no in-line data follows it.
\copy d1 (id) from '/dev/null'
UPDATE d1 SET v = DEFAULT WHERE id = 1;
SELECT * FROM d1 ORDER BY id;
DROP TABLE d1;
