--
-- SAVEPOINT, RELEASE SAVEPOINT and ROLLBACK TO SAVEPOINT: subtransactions.
--
CREATE TABLE sp_t (id int PRIMARY KEY, v text);

-- Rows written after a savepoint go with it; those before stay.
BEGIN;
INSERT INTO sp_t VALUES (1, 'before');
SAVEPOINT a;
INSERT INTO sp_t VALUES (2, 'rolled back');
SELECT * FROM sp_t ORDER BY id;
ROLLBACK TO SAVEPOINT a;
SELECT * FROM sp_t ORDER BY id;
INSERT INTO sp_t VALUES (3, 'after');
COMMIT;
SELECT * FROM sp_t ORDER BY id;

-- An error inside a savepoint: ROLLBACK TO ends the failure.
BEGIN;
SAVEPOINT s1;
INSERT INTO sp_t VALUES (1, 'duplicate');
SELECT 1;
RELEASE SAVEPOINT s1;
ROLLBACK TO s1;
SELECT count(*) FROM sp_t;
INSERT INTO sp_t VALUES (4, 'after the error');
COMMIT;
SELECT * FROM sp_t ORDER BY id;

-- ROLLBACK TO keeps the savepoint; RELEASE ends it and those after it.
BEGIN;
SAVEPOINT a;
UPDATE sp_t SET v = 'first' WHERE id = 1;
ROLLBACK TO a;
UPDATE sp_t SET v = 'second' WHERE id = 1;
ROLLBACK TO a;
SELECT v FROM sp_t WHERE id = 1;
SAVEPOINT b;
SAVEPOINT c;
DELETE FROM sp_t WHERE id = 3;
RELEASE a;
SELECT id FROM sp_t ORDER BY id;
ROLLBACK TO c;
ROLLBACK TO b;
ROLLBACK;
SELECT * FROM sp_t ORDER BY id;

-- Savepoints of the same name: the innermost one is meant.
BEGIN;
SAVEPOINT x;
INSERT INTO sp_t VALUES (10, 'outer x');
SAVEPOINT x;
INSERT INTO sp_t VALUES (11, 'inner x');
ROLLBACK TO x;
SELECT id FROM sp_t WHERE id >= 10 ORDER BY id;
RELEASE x;
SELECT id FROM sp_t WHERE id >= 10 ORDER BY id;
ROLLBACK TO x;
SELECT id FROM sp_t WHERE id >= 10 ORDER BY id;
RELEASE x;
RELEASE x;
ROLLBACK;

-- Names are identifiers.
BEGIN;
SAVEPOINT "Mixed";
ROLLBACK TO mixed;
ROLLBACK TO "Mixed";
COMMIT;

-- Nested subtransactions, released into their parent, go with it.
BEGIN;
SAVEPOINT outer_sp;
INSERT INTO sp_t VALUES (20, 'outer');
SAVEPOINT inner_sp;
INSERT INTO sp_t VALUES (21, 'inner');
RELEASE inner_sp;
SELECT id FROM sp_t WHERE id >= 20 ORDER BY id;
ROLLBACK TO outer_sp;
SELECT id FROM sp_t WHERE id >= 20 ORDER BY id;
SAVEPOINT kept;
INSERT INTO sp_t VALUES (22, 'kept');
RELEASE kept;
COMMIT;
SELECT * FROM sp_t WHERE id >= 20 ORDER BY id;

-- A row the transaction inserted, deleted and updated in subtransactions.
BEGIN;
INSERT INTO sp_t VALUES (30, 'mine');
SAVEPOINT d;
DELETE FROM sp_t WHERE id = 30;
SELECT * FROM sp_t WHERE id = 30;
ROLLBACK TO d;
SELECT * FROM sp_t WHERE id = 30;
UPDATE sp_t SET v = 'updated in a savepoint' WHERE id = 30;
RELEASE d;
COMMIT;
SELECT * FROM sp_t WHERE id = 30;

-- A key freed by a rolled-back subtransaction, or deleted in one, can be
-- used again.
BEGIN;
SAVEPOINT k;
INSERT INTO sp_t VALUES (40, 'gone');
ROLLBACK TO k;
INSERT INTO sp_t VALUES (40, 'kept');
SAVEPOINT k2;
DELETE FROM sp_t WHERE id = 40;
INSERT INTO sp_t VALUES (40, 'replaced');
RELEASE k2;
SAVEPOINT k3;
INSERT INTO sp_t VALUES (40, 'duplicate');
ROLLBACK TO k3;
COMMIT;
SELECT * FROM sp_t WHERE id = 40;

-- Where the row versions went: a rolled-back update's version is dead.
SELECT ctid, * FROM sp_t WHERE id = 1;
BEGIN;
SAVEPOINT u;
UPDATE sp_t SET v = 'not kept' WHERE id = 1;
SELECT ctid, * FROM sp_t WHERE id = 1;
ROLLBACK TO u;
SELECT ctid, * FROM sp_t WHERE id = 1;
COMMIT;

-- A row lock taken in a subtransaction is released by its rollback.
BEGIN;
SAVEPOINT l;
SELECT id FROM sp_t WHERE id = 4 FOR UPDATE;
\! "$PSQL" -X -q -c "SET lock_timeout = '200ms'" -c "UPDATE sp_t SET v = 'other session' WHERE id = 4" 2>&1 | sed -e 's/^psql:[^ ]* //'
ROLLBACK TO l;
\! "$PSQL" -X -q -c "SET lock_timeout = '200ms'" -c "UPDATE sp_t SET v = 'other session' WHERE id = 4" 2>&1
COMMIT;
SELECT * FROM sp_t WHERE id = 4;

-- DDL after a savepoint is undone by a rollback to it.
BEGIN;
SAVEPOINT ddl;
CREATE TABLE sp_new (a int);
INSERT INTO sp_new VALUES (1);
DROP TABLE sp_t;
ROLLBACK TO ddl;
SELECT relname FROM pg_class WHERE relname IN ('sp_new', 'sp_t');
SELECT count(*) FROM sp_t;
CREATE TABLE sp_new (a int);
SAVEPOINT ddl2;
DROP TABLE sp_new;
RELEASE ddl2;
COMMIT;
SELECT * FROM sp_new;

-- Settings set after a savepoint get their values back.
SET extra_float_digits = 1;
BEGIN;
SET extra_float_digits = 2;
SAVEPOINT g;
SET extra_float_digits = 3;
SET LOCAL work_mem = '1MB';
SHOW extra_float_digits;
SHOW work_mem;
ROLLBACK TO g;
SHOW extra_float_digits;
SHOW work_mem;
COMMIT;
SHOW extra_float_digits;
BEGIN;
SAVEPOINT g1;
SAVEPOINT g2;
SET extra_float_digits = 3;
RELEASE g2;
SHOW extra_float_digits;
ROLLBACK TO g1;
SHOW extra_float_digits;
COMMIT;
RESET extra_float_digits;

-- Cursors declared after a savepoint are closed by a rollback to it.
BEGIN;
DECLARE c_before CURSOR FOR SELECT id FROM sp_t ORDER BY id;
SAVEPOINT cur;
DECLARE c_after CURSOR FOR SELECT id FROM sp_t ORDER BY id;
FETCH c_before;
ROLLBACK TO cur;
FETCH c_before;
FETCH c_after;
ROLLBACK;

-- A cursor over a table created after the savepoint goes with the table;
-- what a FETCH read in a rolled-back subtransaction stays read.
BEGIN;
SAVEPOINT x;
CREATE TABLE sp_abc (a int);
INSERT INTO sp_abc VALUES (5), (10), (15);
DECLARE foo CURSOR FOR SELECT * FROM sp_abc;
FETCH FROM foo;
ROLLBACK TO x;
FETCH FROM foo;
COMMIT;
BEGIN;
CREATE TABLE sp_abc (a int);
INSERT INTO sp_abc VALUES (5), (10), (15);
DECLARE foo CURSOR FOR SELECT * FROM sp_abc;
FETCH FROM foo;
SAVEPOINT x;
FETCH FROM foo;
ROLLBACK TO x;
FETCH FROM foo;
ABORT;

-- Sequences do not go back.
CREATE SEQUENCE sp_seq;
BEGIN;
SAVEPOINT q;
SELECT nextval('sp_seq');
ROLLBACK TO q;
SELECT nextval('sp_seq');
COMMIT;

-- COPY FREEZE wants the table new in the current subtransaction.
BEGIN;
CREATE TABLE sp_frozen (a int);
SAVEPOINT f;
COPY sp_frozen FROM stdin (FREEZE);
1
\.
ROLLBACK;

-- Outside a transaction block, and in a failed one.
SAVEPOINT nowhere;
RELEASE nowhere;
ROLLBACK TO nowhere;
SELECT 1 \; SAVEPOINT implicit_block \; SELECT 2;
BEGIN;
RELEASE SAVEPOINT nosuch;
ROLLBACK TO nosuch;
SELECT 1;
ROLLBACK;
BEGIN;
SAVEPOINT f1;
SELECT 1/0;
SAVEPOINT f2;
RELEASE f1;
ROLLBACK TO f1;
SELECT 'recovered';
COMMIT;

-- COMMIT with savepoints open commits them; ROLLBACK rolls them back.
BEGIN;
SAVEPOINT o1;
INSERT INTO sp_t VALUES (50, 'open savepoint');
SAVEPOINT o2;
INSERT INTO sp_t VALUES (51, 'open savepoint');
COMMIT;
BEGIN;
SAVEPOINT o3;
INSERT INTO sp_t VALUES (52, 'rolled back');
ROLLBACK;
SELECT * FROM sp_t WHERE id >= 50 ORDER BY id;

-- Upserts in a subtransaction go with it.
BEGIN;
SAVEPOINT u1;
INSERT INTO sp_t VALUES (70, 'a') ON CONFLICT (id) DO UPDATE SET v = 'x';
INSERT INTO sp_t VALUES (70, 'b') ON CONFLICT (id) DO UPDATE SET v = excluded.v || ' updated';
SELECT * FROM sp_t WHERE id = 70;
ROLLBACK TO u1;
INSERT INTO sp_t VALUES (70, 'c') ON CONFLICT (id) DO UPDATE SET v = 'x';
SAVEPOINT u2;
INSERT INTO sp_t VALUES (70, 'd') ON CONFLICT (id) DO UPDATE SET v = excluded.v;
ROLLBACK TO u2;
INSERT INTO sp_t VALUES (70, 'e') ON CONFLICT (id) DO NOTHING;
COMMIT;
SELECT * FROM sp_t WHERE id = 70;

-- psql's ON_ERROR_ROLLBACK sets a savepoint before each statement.
\set ON_ERROR_ROLLBACK on
BEGIN;
INSERT INTO sp_t VALUES (60, 'kept');
INSERT INTO sp_t VALUES (60, 'duplicate');
INSERT INTO sp_t VALUES (61, 'kept too');
COMMIT;
\set ON_ERROR_ROLLBACK off
SELECT * FROM sp_t WHERE id >= 60 ORDER BY id;

DROP TABLE sp_t;
DROP SEQUENCE sp_seq;
