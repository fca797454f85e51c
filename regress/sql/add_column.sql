-- ALTER TABLE ... ADD COLUMN without a rewrite: the rows already stored
-- keep their attributes and read the default computed by the ALTER.
SET client_min_messages = warning; -- another script may have created it
CREATE EXTENSION IF NOT EXISTS pageinspect;
RESET client_min_messages;
CREATE TABLE addcol (id int PRIMARY KEY, v text);
INSERT INTO addcol SELECT g, 'r' || g FROM generate_series(1, 5) g;
SELECT ctid, * FROM addcol ORDER BY id;
ALTER TABLE addcol ADD COLUMN n int;
ALTER TABLE addcol ADD COLUMN d numeric(6,2) DEFAULT 1.5, ADD COLUMN day date DEFAULT '2026-01-02';
ALTER TABLE addcol ADD COLUMN IF NOT EXISTS n int;
ALTER TABLE addcol ADD COLUMN n int;
ALTER TABLE addcol ADD COLUMN v2 text, ADD COLUMN v2 text;
ALTER TABLE addcol ADD COLUMN nn int NOT NULL;
ALTER TABLE addcol ADD COLUMN nn int NOT NULL DEFAULT 7;
ALTER TABLE addcol ADD COLUMN ctid int;
ALTER TABLE addcol ADD COLUMN bad nosuchtype;
ALTER TABLE addcol ADD COLUMN bad varchar(2) DEFAULT 'toolong';
ALTER TABLE addcol ADD COLUMN d2 numeric(6,2) DEFAULT 2.005;
ALTER TABLE nosuch ADD COLUMN x int;
ALTER TABLE IF EXISTS nosuch ADD COLUMN x int;
-- Nothing moved: the same ctids, and the old tuples still have 2 attributes.
SELECT ctid, * FROM addcol ORDER BY id;
INSERT INTO addcol (id, v) VALUES (6, 'new');
UPDATE addcol SET v = 'upd', n = 10 WHERE id = 2;
SELECT ctid, * FROM addcol ORDER BY id;
SELECT lp, t_ctid, t_infomask2 % 2048 AS natts FROM heap_page_items(get_raw_page('addcol', 0)) ORDER BY lp;
SELECT attname, atthasdef, atthasmissing, attnotnull FROM pg_attribute
  WHERE attrelid = 'addcol'::regclass AND attnum > 0 ORDER BY attnum;
-- The missing value is the default as of the ALTER, not as changed later.
ALTER TABLE addcol ALTER COLUMN nn SET DEFAULT 8;
INSERT INTO addcol (id, v) VALUES (7, 'later');
SELECT id, nn, d, day FROM addcol ORDER BY id;
-- Filters, sorts, indexes and COPY read it too.
SELECT id FROM addcol WHERE nn = 7 AND d = 1.5 ORDER BY id;
CREATE INDEX addcol_nn ON addcol (nn);
SET enable_seqscan = off;
SELECT id FROM addcol WHERE nn = 7 ORDER BY id;
RESET enable_seqscan;
SELECT nn, count(*) FROM addcol GROUP BY nn ORDER BY nn;
COPY (SELECT * FROM addcol WHERE id <= 2 ORDER BY id) TO STDOUT;
COPY addcol TO STDOUT;
VACUUM addcol;
SELECT id, nn, d2 FROM addcol ORDER BY id;
\d addcol
BEGIN;
ALTER TABLE addcol ADD COLUMN flag boolean DEFAULT true;
SELECT id, flag FROM addcol WHERE id < 3 ORDER BY id;
COMMIT;
DROP TABLE addcol;
-- An update that leaves an added column as it was is HOT, as in PostgreSQL:
-- the old tuple's missing value equals the new version's value.
CREATE TABLE hotac (id int PRIMARY KEY, v text);
INSERT INTO hotac SELECT g, 'r' || g FROM generate_series(1, 3) g;
ALTER TABLE hotac ADD COLUMN nn int NOT NULL DEFAULT 7;
CREATE INDEX hotac_nn ON hotac (nn);
UPDATE hotac SET v = 'hot' WHERE id = 2;
UPDATE hotac SET nn = 8 WHERE id = 3;
SELECT lp, t_ctid, t_infomask2 % 2048 AS natts, (t_infomask2 & 16384) <> 0 AS hot_updated,
  (t_infomask2 & 32768) <> 0 AS heap_only FROM heap_page_items(get_raw_page('hotac', 0)) ORDER BY lp;
SELECT id, v, nn FROM hotac ORDER BY id;
DROP TABLE hotac;
