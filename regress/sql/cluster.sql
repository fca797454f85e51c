-- CLUSTER writes a table anew in the order of an index's key, as VACUUM
-- FULL writes it, and marks the index; CLUSTER alone reclusters the
-- tables so marked.
CREATE TABLE cl (id int, v text);
CREATE INDEX cl_v ON cl (v);
CREATE INDEX cl_id ON cl (id);
INSERT INTO cl VALUES (3, 'c'), (1, 'a'), (2, 'b'), (NULL, 'z'), (0, NULL), (2, 'b2');
CLUSTER cl;
CLUSTER cl USING cl_v;
SELECT ctid, * FROM cl;
\d cl
SELECT indexrelid::regclass, indisclustered FROM pg_index WHERE indrelid = 'cl'::regclass ORDER BY 1;
CLUSTER cl USING cl_id;
SELECT ctid, * FROM cl;
SELECT indexrelid::regclass, indisclustered FROM pg_index WHERE indrelid = 'cl'::regclass ORDER BY 1;
DELETE FROM cl WHERE id = 1;
UPDATE cl SET v = 'zz' WHERE id = 0;
CLUSTER;
SELECT ctid, * FROM cl;
CLUSTER cl USING nosuch;
CLUSTER nosuch;
CREATE TABLE cl2 (a int);
CLUSTER cl USING cl2;
CLUSTER cl2;
BEGIN;
CLUSTER;
ROLLBACK;
SELECT id FROM cl WHERE id = 3;
CREATE TABLE cl_big (id int PRIMARY KEY, grp int, pad text);
INSERT INTO cl_big SELECT g, g % 10, repeat('p', 100) FROM generate_series(1, 500) g;
CREATE INDEX cl_big_grp ON cl_big (grp);
CLUSTER cl_big USING cl_big_grp;
SELECT grp, min(ctid), max(ctid), count(*) FROM cl_big GROUP BY grp ORDER BY grp LIMIT 3;
SELECT count(*) FROM cl_big WHERE id BETWEEN 100 AND 199;
DROP TABLE cl, cl2, cl_big;
