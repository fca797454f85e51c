-- MERGE (PostgreSQL 15): the target joined to the source, then per source
-- row the first WHEN clause that applies.
CREATE TABLE mtarget (tid int PRIMARY KEY, balance int NOT NULL DEFAULT 0, note text);
CREATE TABLE msource (sid int, delta int, note text);
INSERT INTO mtarget VALUES (1, 10, 'one'), (2, 20, 'two'), (3, 30, 'three');
INSERT INTO msource VALUES (2, 5, 'src two'), (3, -30, 'src three'), (4, 40, 'src four'), (5, NULL, 'src five');
MERGE INTO mtarget t
USING msource s ON t.tid = s.sid
WHEN MATCHED AND t.balance + s.delta <= 0 THEN
  DELETE
WHEN MATCHED THEN
  UPDATE SET balance = t.balance + s.delta, note = s.note
WHEN NOT MATCHED AND s.delta IS NOT NULL THEN
  INSERT (tid, balance, note) VALUES (s.sid, s.delta, s.note)
WHEN NOT MATCHED THEN
  INSERT (tid, note) VALUES (s.sid, 'default balance');
SELECT * FROM mtarget ORDER BY tid;
-- a subquery as the source, DO NOTHING, DEFAULT VALUES and DEFAULT
MERGE INTO mtarget AS t
USING (SELECT g AS id FROM generate_series(1, 7) g) AS s ON t.tid = s.id
WHEN MATCHED AND t.tid = 1 THEN DO NOTHING
WHEN MATCHED THEN UPDATE SET note = DEFAULT
WHEN NOT MATCHED AND s.id = 6 THEN INSERT VALUES (s.id, DEFAULT, 'six')
WHEN NOT MATCHED THEN DO NOTHING;
SELECT * FROM mtarget ORDER BY tid;
-- no action applies: nothing changes, MERGE 0
MERGE INTO mtarget t USING msource s ON t.tid = s.sid
WHEN MATCHED AND false THEN DELETE;
-- a target row matched twice is an error
INSERT INTO msource VALUES (2, 1, 'again');
MERGE INTO mtarget t USING msource s ON t.tid = s.sid
WHEN MATCHED THEN UPDATE SET balance = t.balance + 1;
-- ... but not when the second match does nothing
MERGE INTO mtarget t USING msource s ON t.tid = s.sid
WHEN MATCHED AND s.note = 'again' THEN DO NOTHING
WHEN MATCHED THEN UPDATE SET balance = t.balance + 1;
SELECT * FROM mtarget ORDER BY tid;
-- the same table as source
MERGE INTO mtarget t USING mtarget s ON t.tid = s.tid + 1
WHEN MATCHED THEN UPDATE SET note = 'after ' || s.tid;
SELECT * FROM mtarget ORDER BY tid;
-- inside a transaction, rolled back
BEGIN;
MERGE INTO mtarget t USING msource s ON t.tid = s.sid AND s.note <> 'again'
WHEN MATCHED THEN DELETE;
SELECT count(*) FROM mtarget;
ROLLBACK;
SELECT count(*) FROM mtarget;
-- constraint errors in actions
MERGE INTO mtarget t USING msource s ON t.tid = s.sid
WHEN NOT MATCHED THEN INSERT VALUES (1, 0, 'dup');
MERGE INTO mtarget t USING msource s ON t.tid = s.sid AND s.note <> 'again'
WHEN MATCHED THEN UPDATE SET balance = NULL;
-- errors of binding
MERGE INTO mtarget t USING msource s ON t.tid = s.sid
WHEN NOT MATCHED THEN INSERT VALUES (t.tid, 0, 'x');
MERGE INTO mtarget t USING msource s ON t.tid = s.sid
WHEN NOT MATCHED AND t.balance > 0 THEN INSERT VALUES (s.sid, 0, 'x');
MERGE INTO mtarget t USING msource s ON t.tid = s.sid
WHEN MATCHED THEN UPDATE SET nosuch = 1;
MERGE INTO mtarget t USING msource s ON t.tid = s.sid
WHEN MATCHED THEN UPDATE SET t.balance = 1;
MERGE INTO mtarget t USING msource s ON t.tid = s.sid
WHEN MATCHED THEN INSERT VALUES (1);
MERGE INTO mtarget t USING msource s ON t.nosuch = s.sid
WHEN MATCHED THEN DELETE;
MERGE INTO mtarget t USING msource s ON t.tid = s.sid
WHEN MATCHED THEN DELETE
WHEN MATCHED AND s.delta > 0 THEN DELETE;
MERGE INTO mtarget t USING msource s ON t.tid = s.sid
WHEN MATCHED AND count(*) > 1 THEN DELETE;
MERGE INTO mtarget t USING msource s ON t.tid = s.sid
WHEN MATCHED AND s.delta THEN DELETE;
MERGE INTO nosuch t USING msource s ON t.tid = s.sid
WHEN MATCHED THEN DELETE;
MERGE INTO mtarget t USING msource t ON t.tid = t.sid
WHEN MATCHED THEN DELETE;
MERGE INTO mtarget t USING msource s ON t.tid = s.sid
WHEN MATCHED THEN UPDATE SET balance = 'abc';
MERGE INTO mtarget t USING msource s ON t.tid = s.sid
WHEN NOT MATCHED THEN INSERT (tid, tid) VALUES (1, 2);
MERGE INTO mtarget t USING msource s ON t.tid = s.sid
WHEN NOT MATCHED THEN INSERT (tid) VALUES (1, 2);
CREATE VIEW mview AS SELECT * FROM mtarget;
MERGE INTO mview t USING msource s ON t.tid = s.sid
WHEN MATCHED THEN DELETE;
DROP VIEW mview;
-- identity columns
CREATE TABLE mident (id int GENERATED ALWAYS AS IDENTITY, v text);
MERGE INTO mident t USING msource s ON t.v = s.note
WHEN NOT MATCHED THEN INSERT (v) VALUES (s.note);
SELECT count(*), count(DISTINCT id), min(id), max(id) FROM mident;
MERGE INTO mident t USING msource s ON t.v = s.note
WHEN NOT MATCHED THEN INSERT (id, v) VALUES (100, s.note);
MERGE INTO mident t USING (VALUES (100, 'x')) s(a, b) ON t.v = s.b
WHEN NOT MATCHED THEN INSERT (id, v) OVERRIDING SYSTEM VALUE VALUES (s.a, s.b);
MERGE INTO mident t USING msource s ON t.v = s.note
WHEN MATCHED AND t.id = 1 THEN UPDATE SET id = 7;
SELECT * FROM mident WHERE id > 5 ORDER BY id;
-- a parameter, and the prepared statement run twice
PREPARE mp(int, text) AS
MERGE INTO mtarget t USING (SELECT $1 AS id, $2 AS note) s ON t.tid = s.id
WHEN MATCHED THEN UPDATE SET note = s.note
WHEN NOT MATCHED THEN INSERT (tid, note) VALUES (s.id, s.note);
EXECUTE mp(1, 'prepared one');
EXECUTE mp(10, 'prepared ten');
SELECT * FROM mtarget WHERE tid IN (1, 10) ORDER BY tid;
DEALLOCATE mp;
-- WITH queries
WITH src AS (SELECT g AS id, g * 100 AS b FROM generate_series(1, 3) g)
MERGE INTO mtarget t USING src s ON t.tid = s.id
WHEN MATCHED THEN UPDATE SET balance = s.b
WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.b);
SELECT * FROM mtarget WHERE tid <= 3 ORDER BY tid;
WITH d AS (DELETE FROM mtarget WHERE tid = 3 RETURNING *)
MERGE INTO mtarget t USING d ON t.tid = d.tid WHEN MATCHED THEN DELETE;
WITH d AS (DELETE FROM mtarget WHERE tid = 3 RETURNING *)
MERGE INTO mtarget t USING d ON t.tid = d.tid - 1 WHEN MATCHED THEN UPDATE SET note = 'before ' || d.tid;
SELECT * FROM mtarget WHERE tid <= 3 ORDER BY tid;
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5)
MERGE INTO mtarget t USING r ON t.tid = r.n WHEN NOT MATCHED THEN INSERT VALUES (r.n, 0);
-- HOT updates and ctids: MERGE's UPDATE is UPDATE
CREATE TABLE mhot (id int PRIMARY KEY, v int) WITH (fillfactor = 50);
INSERT INTO mhot SELECT g, 0 FROM generate_series(1, 5) g;
MERGE INTO mhot t USING (VALUES (2), (4)) s(id) ON t.id = s.id
WHEN MATCHED THEN UPDATE SET v = v + 1;
SELECT ctid, * FROM mhot ORDER BY id;
SET client_min_messages = warning; -- another script may have created it
CREATE EXTENSION IF NOT EXISTS pageinspect;
RESET client_min_messages;
SELECT lp, t_ctid, (t_infomask2 & 16384) <> 0 AS hot_updated, (t_infomask2 & 32768) <> 0 AS heap_only
FROM heap_page_items(get_raw_page('mhot', 0)) ORDER BY lp;
-- foreign keys
CREATE TABLE mparent (id int PRIMARY KEY);
CREATE TABLE mchild (id int PRIMARY KEY, pid int REFERENCES mparent);
INSERT INTO mparent VALUES (1);
MERGE INTO mchild c USING (VALUES (1, 1), (2, 9)) s(id, pid) ON c.id = s.id
WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.pid);
MERGE INTO mchild c USING (VALUES (1, 1)) s(id, pid) ON c.id = s.id
WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.pid);
MERGE INTO mparent p USING (VALUES (1)) s(id) ON p.id = s.id
WHEN MATCHED THEN DELETE;
SELECT * FROM mchild;
DROP TABLE mchild, mparent, mhot, mident, mtarget, msource;
