-- pgstattuple: the tuple-level statistics of a table, live and dead
-- tuples and free space, and pg_relpages.
SELECT pgstattuple('x');
CREATE EXTENSION pgstattuple;
SELECT extname, extversion FROM pg_extension WHERE extname = 'pgstattuple';
CREATE TABLE pst (id int PRIMARY KEY, v text) WITH (fillfactor = 80);
SELECT * FROM pgstattuple('pst');
INSERT INTO pst SELECT g, repeat('x', 50) FROM generate_series(1, 1000) g;
SELECT * FROM pgstattuple('pst');
DELETE FROM pst WHERE id % 3 = 0;
SELECT * FROM pgstattuple('pst'::regclass);
SELECT pg_relpages('pst'), pg_relpages('pst'::regclass);
SELECT table_len, tuple_count FROM pgstattuple('pst');
-- the transaction's own changes: its inserts live, its deletions dead
BEGIN;
INSERT INTO pst VALUES (5000, 'new');
DELETE FROM pst WHERE id = 1;
SELECT tuple_count, dead_tuple_count FROM pgstattuple('pst');
ROLLBACK;
SELECT tuple_count, dead_tuple_count FROM pgstattuple('pst');
-- VACUUM turns dead tuples into free space
VACUUM pst;
SELECT tuple_count, tuple_len, dead_tuple_count, dead_tuple_len FROM pgstattuple('pst');
SELECT * FROM pgstattuple('nosuch');
SELECT pg_relpages('nosuch');
SELECT * FROM pgstattuple(NULL::text);
DROP TABLE pst;
DROP EXTENSION pgstattuple;
