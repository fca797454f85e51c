-- ALTER TABLE ... ALTER COLUMN ... TYPE: a change that keeps the stored
-- bytes changes the catalog alone; any other rewrites the table into a new
-- relation file, every row converted, the indexes built again.
SET client_min_messages = warning; -- another script may have created it
CREATE EXTENSION IF NOT EXISTS pageinspect;
RESET client_min_messages;
CREATE TABLE act_t (id int PRIMARY KEY, v varchar(5), n text DEFAULT '0', d int DEFAULT 7);
INSERT INTO act_t VALUES (1, 'abc', '10', 1), (2, 'de', '20', 2), (3, NULL, '30', 3);
DELETE FROM act_t WHERE id = 2;
INSERT INTO act_t VALUES (2, 'de', '20', 2);
CREATE INDEX act_t_v ON act_t (v);
CREATE TABLE act_node AS SELECT pg_relation_filenode('act_t') AS node;
-- Without a rewrite: a longer varchar, varchar to text.
ALTER TABLE act_t ALTER COLUMN v TYPE varchar(10);
ALTER TABLE act_t ALTER v SET DATA TYPE text;
SELECT pg_relation_filenode('act_t') = node AS same_file FROM act_node;
SELECT ctid, * FROM act_t ORDER BY id;
SET enable_seqscan = off;
SELECT id FROM act_t WHERE v = 'de';
RESET enable_seqscan;
-- With one: the rows are converted into a new file, dead versions left
-- behind, the indexes built again.
ALTER TABLE act_t ALTER COLUMN d TYPE bigint;
SELECT pg_relation_filenode('act_t') = node AS same_file FROM act_node;
SELECT ctid, * FROM act_t ORDER BY id;
SELECT lp, t_ctid, t_attrs FROM heap_page_item_attrs(get_raw_page('act_t', 0), 'act_t'::regclass) ORDER BY lp;
ALTER TABLE act_t ALTER COLUMN n TYPE int USING n::int;
ALTER TABLE act_t ALTER COLUMN n DROP DEFAULT;
-- Each USING reads the row as it was.
ALTER TABLE act_t ALTER COLUMN n TYPE int USING n::int, ALTER COLUMN d TYPE numeric(6,1) USING d * 1.5 + n::int;
SELECT * FROM act_t ORDER BY id;
\d act_t
SET enable_seqscan = off;
SELECT id, v FROM act_t WHERE id = 3;
SELECT id FROM act_t WHERE v = 'abc';
RESET enable_seqscan;
INSERT INTO act_t (id, v) VALUES (4, 'new') RETURNING *;
-- Errors. Nothing is changed by a statement that fails.
ALTER TABLE act_t ALTER COLUMN v TYPE int;
ALTER TABLE act_t ALTER COLUMN v TYPE int USING v::int;
ALTER TABLE act_t ALTER COLUMN v TYPE varchar(2);
ALTER TABLE act_t ALTER COLUMN v TYPE bool;
ALTER TABLE act_t ALTER COLUMN v TYPE character(2);
ALTER TABLE act_t ALTER COLUMN d TYPE int USING d::text;
ALTER TABLE act_t ALTER COLUMN nosuch TYPE int;
ALTER TABLE act_t ALTER COLUMN xmin TYPE int;
ALTER TABLE act_t ALTER COLUMN d TYPE nosuchtype;
ALTER TABLE act_t ALTER COLUMN d TYPE int USING nosuch;
ALTER TABLE act_t ALTER COLUMN d TYPE int USING (SELECT 1);
ALTER TABLE act_t ALTER COLUMN d TYPE int USING sum(d);
ALTER TABLE act_t ALTER COLUMN d TYPE int USING row_number() OVER ();
ALTER TABLE act_t ALTER COLUMN d TYPE int USING generate_series(1, 2);
ALTER TABLE act_t ALTER COLUMN d TYPE int USING d / 0;
ALTER TABLE act_t ALTER COLUMN d TYPE int, ALTER COLUMN d TYPE bigint;
ALTER TABLE act_t ALTER COLUMN d TYPE int COLLATE "C";
ALTER TABLE act_t ALTER COLUMN id TYPE int USING CASE WHEN id = 3 THEN 1 ELSE id END;
ALTER TABLE act_t ALTER COLUMN id TYPE int USING NULL;
ALTER TABLE act_nosuch ALTER COLUMN x TYPE int;
ALTER TABLE IF EXISTS act_nosuch ALTER COLUMN x TYPE int;
SELECT pg_relation_filenode('act_t') = node AS same_file FROM act_node;
SELECT * FROM act_t ORDER BY id;
DROP TABLE act_t, act_node;

-- A DEFAULT is kept, cast to the new type; one that cannot be is an error.
CREATE TABLE act_d (x int DEFAULT 5, y timestamp DEFAULT '2026-01-02 03:04:05', z text DEFAULT 'z');
INSERT INTO act_d DEFAULT VALUES;
ALTER TABLE act_d ALTER COLUMN x TYPE text;
ALTER TABLE act_d ALTER COLUMN y TYPE date;
ALTER TABLE act_d ALTER COLUMN z TYPE int USING 1;
\d act_d
INSERT INTO act_d DEFAULT VALUES;
SELECT * FROM act_d;
DROP TABLE act_d;

-- CHECK and NOT NULL are checked against the converted rows; a unique
-- index is built again and checked.
CREATE TABLE act_c (a numeric(4,1) PRIMARY KEY, b text CHECK (b <> 'x'), c int NOT NULL);
INSERT INTO act_c VALUES (1.2, 'a', 1), (1.4, 'b', 2);
ALTER TABLE act_c ALTER COLUMN a TYPE int;
ALTER TABLE act_c ALTER COLUMN b TYPE text USING CASE WHEN c = 2 THEN 'x' ELSE b END;
ALTER TABLE act_c ALTER COLUMN c TYPE int USING NULLIF(c, 2);
ALTER TABLE act_c ALTER COLUMN a TYPE numeric(5,1);
ALTER TABLE act_c ALTER COLUMN c TYPE int[] USING ARRAY[c, c * 10];
SELECT * FROM act_c ORDER BY a;
INSERT INTO act_c VALUES (1.2, 'dup', '{3}');
DROP TABLE act_c;

-- A view that reads the column forbids the change; one that does not
-- does not.
CREATE TABLE act_v (a int, b int);
CREATE VIEW act_vv AS SELECT a FROM act_v;
ALTER TABLE act_v ALTER COLUMN a TYPE bigint;
ALTER TABLE act_v ALTER COLUMN b TYPE bigint;
DROP VIEW act_vv;
CREATE VIEW act_vv AS SELECT * FROM act_v;
ALTER TABLE act_v ALTER COLUMN b TYPE int;
DROP VIEW act_vv;
DROP TABLE act_v;

-- Foreign keys: the types must still compare, the rows still match.
CREATE TABLE act_p (id int PRIMARY KEY);
CREATE TABLE act_ch (pid int REFERENCES act_p (id));
INSERT INTO act_p VALUES (1), (2);
INSERT INTO act_ch VALUES (1);
ALTER TABLE act_p ALTER COLUMN id TYPE bigint USING id * 10;
ALTER TABLE act_ch ALTER COLUMN pid TYPE bigint USING pid + 5;
ALTER TABLE act_ch ALTER COLUMN pid TYPE bigint USING pid + 1;
ALTER TABLE act_ch ALTER COLUMN pid TYPE text;
ALTER TABLE act_p ALTER COLUMN id TYPE bigint;
SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'act_ch'::regclass;
INSERT INTO act_ch VALUES (3);
SELECT * FROM act_ch;
DROP TABLE act_ch, act_p;

-- Dropped columns are NULL in the copies; the missing values of added
-- columns are written into them.
CREATE TABLE act_m (a int, gone text, b int);
INSERT INTO act_m VALUES (1, 'gone', 10);
ALTER TABLE act_m DROP COLUMN gone;
ALTER TABLE act_m ADD COLUMN c text DEFAULT 'added';
SELECT attname, atthasmissing FROM pg_attribute WHERE attrelid = 'act_m'::regclass AND attnum > 0 ORDER BY attnum;
SELECT lp, t_infomask2 % 2048 AS natts, t_attrs FROM heap_page_item_attrs(get_raw_page('act_m', 0), 'act_m'::regclass);
ALTER TABLE act_m ALTER COLUMN b TYPE bigint;
SELECT attname, atthasmissing FROM pg_attribute WHERE attrelid = 'act_m'::regclass AND attnum > 0 ORDER BY attnum;
SELECT lp, t_infomask2 % 2048 AS natts, t_attrs FROM heap_page_item_attrs(get_raw_page('act_m', 0), 'act_m'::regclass);
SELECT * FROM act_m;
DROP TABLE act_m;

-- An identity column's sequence takes the new type; a serial's keeps its.
CREATE TABLE act_i (id int GENERATED ALWAYS AS IDENTITY, s serial, v text);
INSERT INTO act_i (v) VALUES ('a');
ALTER TABLE act_i ALTER COLUMN id TYPE bigint;
ALTER TABLE act_i ALTER COLUMN s TYPE bigint;
ALTER TABLE act_i ALTER COLUMN id TYPE text;
SELECT sequencename, data_type, max_value FROM pg_sequences WHERE sequencename LIKE 'act_i%' ORDER BY 1;
\d act_i
INSERT INTO act_i (v) VALUES ('b');
SELECT * FROM act_i ORDER BY id;
DROP TABLE act_i;

-- In a transaction block that commits; several rows over several pages.
CREATE TABLE act_big (id int PRIMARY KEY, pad text);
INSERT INTO act_big SELECT g, repeat('x', 200) FROM generate_series(1, 500) g;
BEGIN;
UPDATE act_big SET pad = 'short' WHERE id % 100 = 0;
ALTER TABLE act_big ALTER COLUMN id TYPE bigint;
SELECT count(*), sum(id) FROM act_big;
COMMIT;
SELECT count(*), sum(id), count(*) FILTER (WHERE pad = 'short') FROM act_big;
SET enable_seqscan = off;
SELECT pad FROM act_big WHERE id = 300;
RESET enable_seqscan;
DROP TABLE act_big;
