-- System columns: xmin, xmax, cmin, cmax and tableoid beside ctid, read
-- from the header of each row version, with txid_current() and age(xid).
CREATE TABLE sysc (id int PRIMARY KEY, v text);
INSERT INTO sysc VALUES (1, 'a'), (2, 'b');
SELECT id, xmax, cmin, cmax, tableoid = 'sysc'::regclass AS own_oid, tableoid::regclass, ctid FROM sysc ORDER BY id;
SELECT count(DISTINCT xmin::text) AS inserters FROM sysc;
SELECT pg_typeof(xmin), pg_typeof(xmax), pg_typeof(cmin), pg_typeof(cmax), pg_typeof(tableoid) FROM sysc LIMIT 1;
SELECT sysc.xmin = s.xmin AS qualified FROM sysc, sysc AS s WHERE sysc.id = 1 AND s.id = 2;
-- in a transaction: its own xid, and the command that made each version
BEGIN;
SELECT txid_current() = txid_current() AS stable;
SELECT txid_current_if_assigned() = txid_current() AS assigned;
INSERT INTO sysc VALUES (3, 'c');
UPDATE sysc SET v = 'bb' WHERE id = 2;
UPDATE sysc SET v = 'cc' WHERE id = 3;
SELECT id, v, xmin::text::bigint = txid_current() AS mine, cmin, cmax, xmax, ctid FROM sysc ORDER BY id;
SELECT age(xmin) FROM sysc WHERE id = 3;
COMMIT;
SELECT age(xmin) > 0 AS older FROM sysc WHERE id = 3;
SELECT age('1'::xid) AS frozen, age('2'::xid) AS bootstrap;
-- a row lock sets xmax; the aborted locker's xid stays in the header
BEGIN;
SELECT id FROM sysc WHERE id = 1 FOR UPDATE;
SELECT id, xmax::text::bigint = txid_current() AS locked_by_me FROM sysc WHERE id = 1;
ROLLBACK;
SELECT id, xmax <> 0 AS has_xmax FROM sysc ORDER BY id;
SELECT count(*) FROM sysc WHERE xmax = 0;
SELECT count(*) FROM sysc WHERE 0 <> xmax;
-- RETURNING, joins, and where a row has no header
INSERT INTO sysc VALUES (4, 'd') RETURNING id, xmin::text::bigint = txid_current() AS mine, xmax, cmin;
SELECT s.id, t.xmin IS NULL AS no_row, t.tableoid IS NULL AS no_oid FROM sysc s LEFT JOIN sysc t ON t.id = s.id + 2 ORDER BY s.id;
SELECT xmin FROM (SELECT * FROM sysc) s;
SELECT s.xmin FROM (SELECT * FROM sysc) s;
SELECT xmin FROM generate_series(1, 2) g;
EXPLAIN (COSTS OFF) SELECT id FROM sysc WHERE xmax = 0 AND cmin = '0';
-- system columns in DDL
CREATE TABLE sysc_bad (xmin int);
CREATE TABLE sysc_bad (a int CHECK (xmax = 0));
CREATE TABLE sysc_bad (a int CHECK (cmin IS NOT NULL));
CREATE TABLE sysc_ok (a int CHECK (tableoid IS NOT NULL));
INSERT INTO sysc_ok VALUES (1);
DROP TABLE sysc_ok;
DELETE FROM sysc WHERE xmax = 0 AND id = 4;
SELECT count(*) FROM sysc;
DROP TABLE sysc;
