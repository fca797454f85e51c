-- VACUUM cuts off the empty pages at the end of a table when there are enough
-- of them (1/16 of the table, or 1000), as PostgreSQL does; the space before
-- the cut is reused through the free space map.
CREATE TABLE vt (id int, pad text);
INSERT INTO vt VALUES (1, 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'), (2, 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'), (3, 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'), (4, 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx');
INSERT INTO vt SELECT id + 4, pad FROM vt;
INSERT INTO vt SELECT id + 8, pad FROM vt;
INSERT INTO vt SELECT id + 16, pad FROM vt;
INSERT INTO vt SELECT id + 32, pad FROM vt;
INSERT INTO vt SELECT id + 64, pad FROM vt;
INSERT INTO vt SELECT id + 128, pad FROM vt;
INSERT INTO vt SELECT id + 256, pad FROM vt;
INSERT INTO vt SELECT id + 512, pad FROM vt;
SELECT count(*), pg_relation_size('vt') FROM vt;
DELETE FROM vt WHERE id > 900;
VACUUM vt;
SELECT count(*), pg_relation_size('vt') FROM vt;
DELETE FROM vt WHERE id > 880;
VACUUM vt;
SELECT count(*), pg_relation_size('vt') FROM vt;
DELETE FROM vt WHERE id > 100;
VACUUM vt;
SELECT count(*), pg_relation_size('vt') FROM vt;
SELECT max(ctid) FROM vt;
INSERT INTO vt VALUES (5000, 'new');
SELECT ctid, id FROM vt WHERE id = 5000;
DELETE FROM vt;
VACUUM vt;
SELECT count(*), pg_relation_size('vt') FROM vt;
INSERT INTO vt VALUES (1, 'again');
SELECT ctid, * FROM vt;
DROP TABLE vt;
