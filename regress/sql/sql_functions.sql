-- Functions written in SQL: CREATE [OR REPLACE] FUNCTION ... LANGUAGE sql,
-- calls with positional, named and default arguments, SETOF and RETURNS
-- TABLE in FROM, pg_proc and psql's \df, DROP FUNCTION, transactions.
CREATE FUNCTION add1(int) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT $1 + 1';
SELECT add1(41), add1(NULL);
CREATE FUNCTION add2(a int, b int DEFAULT 10) RETURNS int AS $$ SELECT a + b $$ LANGUAGE sql;
SELECT add2(1, 2), add2(5), add2(b => 1, a => 2), add2(a => 7);
SELECT add2(c => 1);
CREATE FUNCTION strict_add(a int, b int) RETURNS int STRICT RETURN a + b;
SELECT strict_add(1, NULL) IS NULL AS is_null, strict_add(2, 3);
CREATE TABLE fnt (id int PRIMARY KEY, v text);
INSERT INTO fnt VALUES (1, 'one'), (2, 'two'), (3, 'three');
CREATE FUNCTION name_of(int) RETURNS text LANGUAGE sql STABLE AS 'SELECT v FROM fnt WHERE id = $1';
SELECT id, name_of(id), name_of(id + 10) FROM fnt ORDER BY id;
SELECT id FROM fnt WHERE name_of(id) LIKE 't%' ORDER BY id;
-- a column wins over a parameter of the same name
CREATE FUNCTION shadow(id int) RETURNS bigint LANGUAGE sql AS 'SELECT count(*) FROM fnt WHERE id = id';
SELECT shadow(1);
CREATE FUNCTION ids_above(n int) RETURNS SETOF int LANGUAGE sql AS 'SELECT id FROM fnt WHERE id > n ORDER BY id';
SELECT * FROM ids_above(1);
SELECT ids_above(0);
SELECT * FROM ids_above(NULL);
CREATE FUNCTION rows_above(n int) RETURNS TABLE (id int, v text) LANGUAGE sql AS 'SELECT id, v FROM fnt WHERE id > n ORDER BY id';
SELECT * FROM rows_above(1);
SELECT r.v FROM rows_above(2) r;
SELECT f.id, r.v FROM fnt f, rows_above(f.id) r WHERE f.id = 1 ORDER BY r.id;
CREATE FUNCTION two_stmts() RETURNS int LANGUAGE sql AS 'SELECT 1; SELECT 2';
SELECT two_stmts();
CREATE FUNCTION empty_result() RETURNS int LANGUAGE sql AS 'SELECT id FROM fnt WHERE false';
SELECT empty_result() IS NULL;
CREATE FUNCTION widen(int) RETURNS bigint LANGUAGE sql AS 'SELECT $1 * 2';
SELECT widen(21), pg_typeof(widen(1));
CREATE FUNCTION lit() RETURNS text LANGUAGE sql AS $$SELECT 'literal'$$;
SELECT lit();
-- recursion
CREATE FUNCTION fact(n int) RETURNS numeric LANGUAGE sql AS
  'SELECT CASE WHEN n <= 1 THEN 1 ELSE n * fact(n - 1) END';
SELECT fact(20);
-- errors at CREATE and at calls
CREATE FUNCTION bad_type() RETURNS int LANGUAGE sql AS 'SELECT ''x''::text';
CREATE FUNCTION bad_cols() RETURNS int LANGUAGE sql AS 'SELECT 1, 2';
CREATE FUNCTION bad_body() RETURNS int LANGUAGE sql AS 'SELECT nosuch FROM fnt';
CREATE FUNCTION no_lang() RETURNS int AS 'SELECT 1';
CREATE FUNCTION extra_param(int) RETURNS int LANGUAGE sql AS 'SELECT $2';
CREATE FUNCTION two_bodies(x int) RETURNS int LANGUAGE sql AS $$ SELECT x * 2 $$ RETURN x * 3;
CREATE FUNCTION bad_lang() RETURNS int LANGUAGE nosuch AS 'SELECT 1';
CREATE FUNCTION divzero(int) RETURNS int LANGUAGE sql AS 'SELECT 1 / $1 FROM fnt LIMIT 1';
SELECT divzero(0);
CREATE FUNCTION divlast(int) RETURNS int LANGUAGE sql AS 'SELECT 1; SELECT 1 / $1';
SELECT divlast(id - 1) FROM fnt WHERE id = 1;
-- a function of one expression is inlined: EXPLAIN shows the expression,
-- and its errors are the expression's
CREATE FUNCTION inl(int) RETURNS int LANGUAGE sql AS 'SELECT 10 / $1';
EXPLAIN (COSTS OFF) SELECT inl(id) FROM fnt;
SELECT inl(id - 1) FROM fnt WHERE id = 1;
EXPLAIN (COSTS OFF) SELECT id FROM fnt WHERE add2(id) > 12;
CREATE FUNCTION add1(int) RETURNS int LANGUAGE sql AS 'SELECT $1 + 2';
CREATE OR REPLACE FUNCTION add1(int) RETURNS int LANGUAGE sql AS 'SELECT $1 + 2';
SELECT add1(1);
CREATE OR REPLACE FUNCTION add1(int) RETURNS bigint LANGUAGE sql AS 'SELECT $1::bigint';
CREATE OR REPLACE FUNCTION add2(x int, b int) RETURNS int LANGUAGE sql AS 'SELECT x';
CREATE FUNCTION add1(text) RETURNS text LANGUAGE sql AS 'SELECT $1 || ''+1''';
SELECT add1('a'), add1(1);
SELECT add1(1.5);
SELECT nosuchfn(1);
-- overloads that defaults make alike are ambiguous
CREATE FUNCTION dfunc(a int = 1, b int = 2) RETURNS int AS $$ SELECT $1 + $2 $$ LANGUAGE sql;
CREATE FUNCTION dfunc(a int = 1, b int = 2, c int = 3, d int = 4) RETURNS int AS $$ SELECT $1 + $2 + $3 + $4 $$ LANGUAGE sql;
SELECT dfunc();
SELECT dfunc(1, 2);
SELECT dfunc(1, 2, 3);
SELECT dfunc(10, b := 20, 30);
DROP FUNCTION dfunc(int, int);
DROP FUNCTION dfunc(int, int, int, int);
-- a volatile function's statements take a snapshot of their own; a
-- stable one reads its caller's
CREATE TABLE fncount (f1 int);
CREATE FUNCTION count_v() RETURNS int8 AS 'SELECT count(*) FROM fncount' LANGUAGE sql VOLATILE;
CREATE FUNCTION count_s() RETURNS int8 AS 'SELECT count(*) FROM fncount' LANGUAGE sql STABLE;
BEGIN;
INSERT INTO fncount VALUES (1);
DECLARE fnc CURSOR FOR SELECT count_v(), count_s();
INSERT INTO fncount VALUES (2);
FETCH ALL FROM fnc;
ROLLBACK;
DROP FUNCTION count_v(), count_s();
DROP TABLE fncount;
-- the catalogs
SELECT proname, pronargs, pronargdefaults, prorettype::regtype, proretset, provolatile, proisstrict, prosrc
FROM pg_proc WHERE proname IN ('add1', 'add2', 'ids_above', 'strict_add', 'rows_above') ORDER BY proname, pronargs, prorettype;
SELECT pg_get_function_arguments(oid), pg_get_function_result(oid), pg_get_function_identity_arguments(oid)
FROM pg_proc WHERE proname IN ('add2', 'rows_above', 'ids_above') ORDER BY proname;
\df add*
\df rows_above
-- transactions
BEGIN;
CREATE FUNCTION txfn() RETURNS int LANGUAGE sql AS 'SELECT 7';
SELECT txfn();
ROLLBACK;
SELECT txfn();
BEGIN;
DROP FUNCTION add2(int, int);
SELECT add2(1);
ROLLBACK;
SELECT add2(1);
BEGIN;
CREATE FUNCTION txfn() RETURNS int LANGUAGE sql AS 'SELECT 8';
SAVEPOINT s;
DROP FUNCTION txfn();
ROLLBACK TO s;
COMMIT;
SELECT txfn();
BEGIN;
CREATE OR REPLACE FUNCTION txfn() RETURNS int LANGUAGE sql AS 'SELECT 9';
CREATE OR REPLACE FUNCTION txfn() RETURNS int LANGUAGE sql AS 'SELECT 10';
SELECT txfn();
ROLLBACK;
SELECT txfn();
BEGIN;
CREATE OR REPLACE FUNCTION txfn() RETURNS int LANGUAGE sql AS 'SELECT 11';
COMMIT;
SELECT txfn();
-- DROP FUNCTION
DROP FUNCTION add1;
DROP FUNCTION add1(text);
DROP FUNCTION add1(int);
SELECT add1(1);
DROP FUNCTION IF EXISTS add1(int);
DROP FUNCTION IF EXISTS add1;
DROP FUNCTION nosuch();
DROP FUNCTION nosuch;
DROP FUNCTION add2, ids_above, rows_above, strict_add, name_of, two_stmts, empty_result, shadow, widen, lit, fact, divzero, divlast, inl, txfn;
DROP TABLE fnt;
