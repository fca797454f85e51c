-- VACUUM FULL writes the table anew: live rows only, packed onto new
-- pages to the fill factor, with their xmin and xmax, in new files; the
-- indexes are rebuilt.
SET client_min_messages = warning; -- another script may have created it
CREATE EXTENSION IF NOT EXISTS pageinspect;
RESET client_min_messages;
CREATE TABLE vf (id int PRIMARY KEY, v text) WITH (fillfactor = 70);
INSERT INTO vf SELECT g, repeat('x', 100) FROM generate_series(1, 300) g;
DELETE FROM vf WHERE id % 3 <> 0;
UPDATE vf SET v = 'updated' WHERE id = 300;
SELECT pg_relation_size('vf') / 8192 AS pages_before;
CREATE TABLE vf_before AS SELECT id, xmin::text AS old_xmin FROM vf;
SELECT pg_relation_filenode('vf') AS filenode_before \gset
BEGIN;
SELECT id FROM vf WHERE id = 3 FOR UPDATE;
ROLLBACK;
SELECT xmax <> 0 AS locked_once FROM vf WHERE id = 3;
VACUUM FULL vf;
SELECT pg_relation_filenode('vf') <> :filenode_before AS new_files;
SELECT count(*) AS same_xmin FROM vf JOIN vf_before USING (id) WHERE vf.xmin::text = vf_before.old_xmin;
SELECT xmax FROM vf WHERE id = 3;
DROP TABLE vf_before;
SELECT pg_relation_size('vf') / 8192 AS pages_after;
SELECT count(*) AS rows, min(id), max(id) FROM vf;
SELECT ctid, id FROM vf WHERE id IN (3, 6, 99, 297, 300) ORDER BY id;
SELECT lp, t_ctid, lp_len, t_infomask2, t_infomask & ~256 AS infomask_sans_hint FROM heap_page_items(get_raw_page('vf', 0)) WHERE lp <= 3;
SELECT count(*) FROM heap_page_items(get_raw_page('vf', 0));
SELECT id FROM vf WHERE id = 150;
SELECT count(*) FROM vf WHERE id BETWEEN 100 AND 200;
INSERT INTO vf VALUES (1000, 'after');
SELECT ctid, id FROM vf WHERE id = 1000;
VACUUM FULL vf;
VACUUM (FULL, ANALYZE) vf;
VACUUM (FULL false) vf;
BEGIN;
VACUUM FULL vf;
ROLLBACK;
VACUUM FULL nosuch;
DROP TABLE vf;
