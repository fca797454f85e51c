-- ALTER TABLE ... DROP COLUMN without a rewrite: the attribute stays in
-- pg_attribute, dropped, and the stored tuples keep its bytes.
SET client_min_messages = warning; -- another script may have created it
CREATE EXTENSION IF NOT EXISTS pageinspect;
RESET client_min_messages;
CREATE TABLE dcol_t (a int PRIMARY KEY, b text, c int, d int);
INSERT INTO dcol_t VALUES (1, 'x', 10, 100), (2, 'y', 20, 200);
CREATE INDEX dcol_t_c ON dcol_t (c);
CREATE INDEX dcol_t_cd ON dcol_t (c, d);
CREATE INDEX dcol_t_d ON dcol_t (d);
ALTER TABLE dcol_t ADD CONSTRAINT dcol_t_c_chk CHECK (c > 0);
ALTER TABLE dcol_t ADD CONSTRAINT dcol_t_cd_chk CHECK (c < d);
ALTER TABLE dcol_t ADD CONSTRAINT dcol_t_d_chk CHECK (d > 0);
COMMENT ON COLUMN dcol_t.c IS 'dropped with the column';
COMMENT ON COLUMN dcol_t.d IS 'kept';
-- The indexes and the CHECK constraints over c go with it, without CASCADE.
ALTER TABLE dcol_t DROP COLUMN c;
\d dcol_t
SELECT conname FROM pg_constraint WHERE conrelid = 'dcol_t'::regclass ORDER BY conname;
SELECT attnum, attname, atttypid, attlen, attalign, attstattarget, attisdropped, attnotnull, atthasdef
  FROM pg_attribute WHERE attrelid = 'dcol_t'::regclass AND attnum > 0 ORDER BY attnum;
SELECT objsubid, description FROM pg_description WHERE objoid = 'dcol_t'::regclass ORDER BY objsubid;
SELECT relnatts FROM pg_class WHERE relname = 'dcol_t';
SELECT column_name, ordinal_position FROM information_schema.columns
  WHERE table_name = 'dcol_t' ORDER BY ordinal_position;
-- The old tuples keep c's bytes; a new row stores NULL there.
INSERT INTO dcol_t VALUES (3, 'z', 300);
SELECT lp, t_infomask2 % 2048 AS natts, t_bits, t_attrs
  FROM heap_page_item_attrs(get_raw_page('dcol_t', 0), 'dcol_t'::regclass) ORDER BY lp;
SELECT lp, tuple_data_split('dcol_t'::regclass, t_data, t_infomask, t_infomask2, t_bits)
  FROM heap_page_items(get_raw_page('dcol_t', 0)) ORDER BY lp;
SELECT * FROM dcol_t ORDER BY a;
SELECT ctid, * FROM dcol_t ORDER BY a;
SELECT * FROM dcol_t x(p, q) ORDER BY p;
SELECT * FROM dcol_t x(p, q, r, s);
-- An UPDATE writes NULL in the dropped attribute too.
UPDATE dcol_t SET b = 'u' WHERE a = 1 RETURNING *;
SELECT lp, t_ctid, t_bits, t_attrs
  FROM heap_page_item_attrs(get_raw_page('dcol_t', 0), 'dcol_t'::regclass) ORDER BY lp;
COPY dcol_t TO STDOUT;
COPY dcol_t (d, b) TO STDOUT;
INSERT INTO dcol_t VALUES (4, 'w', 400, 1);
INSERT INTO dcol_t VALUES (5, 'v', -1);
INSERT INTO dcol_t (a, d) VALUES (6, NULL) RETURNING *;
DELETE FROM dcol_t WHERE a = 6 RETURNING *;
-- Errors: a column that does not exist (any more), a system column.
ALTER TABLE dcol_t DROP COLUMN c;
ALTER TABLE dcol_t DROP COLUMN IF EXISTS c;
ALTER TABLE dcol_t DROP COLUMN xmin;
ALTER TABLE dcol_t DROP COLUMN ctid;
ALTER TABLE dcol_t DROP "........pg.dropped.3........";
SELECT "........pg.dropped.3........" FROM dcol_t;
ALTER TABLE dcol_t ADD COLUMN "........pg.dropped.3........" int;
ALTER TABLE dcol_t RENAME COLUMN c TO e;
ALTER TABLE dcol_t ALTER COLUMN c SET DEFAULT 1;
CREATE INDEX dcol_t_bad ON dcol_t (c);
ALTER TABLE dcol_nosuch DROP COLUMN x;
ALTER TABLE IF EXISTS dcol_nosuch DROP COLUMN x;
-- The subcommands run in order; one that fails drops nothing.
ALTER TABLE dcol_t DROP COLUMN b, DROP COLUMN nosuch;
ALTER TABLE dcol_t DROP COLUMN b, DROP COLUMN b;
ALTER TABLE dcol_t DROP COLUMN b, DROP COLUMN IF EXISTS b;
\d dcol_t
-- A column added later takes the next attribute number.
ALTER TABLE dcol_t ADD COLUMN e int DEFAULT 5;
SELECT * FROM dcol_t ORDER BY a;
SELECT attnum, attname, attisdropped, atthasmissing FROM pg_attribute
  WHERE attrelid = 'dcol_t'::regclass AND attnum > 0 ORDER BY attnum;
CREATE TABLE dcol_like (LIKE dcol_t INCLUDING ALL);
\d dcol_like
-- Every column may go: a table of zero columns still has its rows.
ALTER TABLE dcol_t DROP a, DROP d, DROP e;
SELECT * FROM dcol_t;
INSERT INTO dcol_t DEFAULT VALUES;
SELECT count(*) FROM dcol_t;
\d dcol_t
ALTER TABLE dcol_t ADD COLUMN f int;
SELECT f, count(*) FROM dcol_t GROUP BY f;
DROP TABLE dcol_t, dcol_like;

-- An update after a drop is HOT when no indexed column changed.
CREATE TABLE dcol_hot (id int PRIMARY KEY, a text, b int, c int);
INSERT INTO dcol_hot SELECT g, 'r' || g, g * 10, g * 100 FROM generate_series(1, 3) g;
CREATE INDEX dcol_hot_c ON dcol_hot (c);
ALTER TABLE dcol_hot DROP COLUMN b;
UPDATE dcol_hot SET a = 'hot' WHERE id = 2;
UPDATE dcol_hot SET c = 999 WHERE id = 3;
SELECT lp, t_ctid, t_infomask2 % 2048 AS natts, (t_infomask2 & 16384) <> 0 AS hot_updated,
  (t_infomask2 & 32768) <> 0 AS heap_only, t_bits, t_attrs
  FROM heap_page_item_attrs(get_raw_page('dcol_hot', 0), 'dcol_hot'::regclass) ORDER BY lp;
SET enable_seqscan = off;
SELECT * FROM dcol_hot WHERE c = 999;
SELECT * FROM dcol_hot WHERE id = 2;
RESET enable_seqscan;
DROP TABLE dcol_hot;

-- Foreign keys and views that need the column: CASCADE, or 2BP01.
CREATE TABLE dcol_p (id int PRIMARY KEY, u int UNIQUE, w int);
CREATE TABLE dcol_c (id int, pid int REFERENCES dcol_p (id));
INSERT INTO dcol_p VALUES (1, 1, 1);
INSERT INTO dcol_c VALUES (1, 1);
ALTER TABLE dcol_p DROP COLUMN u;
ALTER TABLE dcol_p DROP COLUMN id;
CREATE VIEW dcol_pv AS SELECT id FROM dcol_p;
CREATE VIEW dcol_pv2 AS SELECT id + 1 AS next FROM dcol_pv;
CREATE VIEW dcol_pw AS SELECT w FROM dcol_p;
CREATE VIEW dcol_pstar AS SELECT * FROM dcol_p;
ALTER TABLE dcol_p DROP COLUMN id;
ALTER TABLE dcol_p DROP COLUMN id RESTRICT;
ALTER TABLE dcol_p DROP COLUMN w;
ALTER TABLE dcol_p DROP COLUMN id CASCADE;
\d dcol_p
\d dcol_c
\dv dcol_*
SELECT * FROM dcol_pw;
INSERT INTO dcol_c VALUES (2, 99);
SELECT * FROM dcol_c ORDER BY id;
-- The referencing column: its foreign key goes without a word.
CREATE TABLE dcol_q (a int PRIMARY KEY);
CREATE TABLE dcol_r (x int, qa int REFERENCES dcol_q (a));
ALTER TABLE dcol_r DROP COLUMN qa;
\d dcol_r
-- A foreign key of a table to itself needs CASCADE from the referenced side.
CREATE TABLE dcol_tree (id int PRIMARY KEY, parent int REFERENCES dcol_tree (id), v int);
ALTER TABLE dcol_tree DROP COLUMN id;
ALTER TABLE dcol_tree DROP COLUMN parent;
\d dcol_tree
CREATE TABLE dcol_tree2 (id int PRIMARY KEY, parent int REFERENCES dcol_tree2 (id), v int);
ALTER TABLE dcol_tree2 DROP COLUMN id CASCADE;
\d dcol_tree2
-- A key over several columns goes with any of them.
CREATE TABLE dcol_m (a int, b int, c int, CONSTRAINT dcol_m_ab UNIQUE (a, b));
CREATE TABLE dcol_mc (x int, y int, FOREIGN KEY (x, y) REFERENCES dcol_m (a, b));
ALTER TABLE dcol_m DROP COLUMN b;
ALTER TABLE dcol_m DROP COLUMN b CASCADE;
\d dcol_m
\d dcol_mc
-- Views through * and JOIN ... USING, and views of views.
CREATE TABLE dcol_v (a int, b int, c int);
CREATE VIEW dcol_v1 AS SELECT dcol_v.* FROM dcol_v;
CREATE VIEW dcol_v2 AS SELECT 1 AS one FROM dcol_v WHERE c > 0;
CREATE VIEW dcol_v3 AS SELECT dcol_v1.a FROM dcol_v1;
CREATE VIEW dcol_v4 AS SELECT count(*) AS n FROM dcol_v JOIN dcol_v w USING (b);
ALTER TABLE dcol_v DROP COLUMN a;
ALTER TABLE dcol_v DROP COLUMN c;
ALTER TABLE dcol_v DROP COLUMN b;
ALTER TABLE dcol_v DROP COLUMN c CASCADE, DROP COLUMN b CASCADE;
\dv dcol_v*
\d dcol_v
-- The sequence of a serial column goes with it; a default elsewhere that
-- uses it needs CASCADE.
CREATE TABLE dcol_s (id serial, v int);
CREATE TABLE dcol_s2 (x int DEFAULT nextval('dcol_s_id_seq'));
ALTER TABLE dcol_s DROP COLUMN id;
ALTER TABLE dcol_s DROP COLUMN id CASCADE;
\d dcol_s2
SELECT relname FROM pg_class WHERE relname LIKE 'dcol_s%' ORDER BY relname;
CREATE TABLE dcol_s3 (id serial, id2 int, v int);
ALTER TABLE dcol_s3 ALTER COLUMN id2 SET DEFAULT nextval('dcol_s3_id_seq');
ALTER TABLE dcol_s3 DROP COLUMN id;
ALTER TABLE dcol_s3 DROP COLUMN id CASCADE;
\d dcol_s3
CREATE TABLE dcol_id (id int GENERATED ALWAYS AS IDENTITY, v int);
ALTER TABLE dcol_id DROP COLUMN id;
INSERT INTO dcol_id VALUES (1);
SELECT relname FROM pg_class WHERE relname LIKE 'dcol_id%' ORDER BY relname;
SELECT attname, attisdropped, attidentity FROM pg_attribute
  WHERE attrelid = 'dcol_id'::regclass AND attnum > 0 ORDER BY attnum;
-- In a transaction block that commits.
BEGIN;
ALTER TABLE dcol_id DROP COLUMN v;
ALTER TABLE dcol_id ADD COLUMN w text DEFAULT 'w';
COMMIT;
SELECT * FROM dcol_id;
DROP VIEW dcol_pw;
DROP TABLE dcol_p, dcol_c, dcol_q, dcol_r, dcol_tree, dcol_tree2, dcol_m, dcol_mc, dcol_v, dcol_s, dcol_s2, dcol_s3, dcol_id;
