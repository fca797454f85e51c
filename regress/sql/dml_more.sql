--
-- INSERT/UPDATE/DELETE with RETURNING and DEFAULT, GROUP BY expressions,
-- casts of dates and timestamps, FOR UPDATE in a rolled-back transaction
--
\set VERBOSITY sqlstate
CREATE TABLE o (id int PRIMARY KEY, cust int, amt numeric(8,2), note varchar(10) DEFAULT 'none', ts timestamp DEFAULT '2024-01-01 00:00:00');
INSERT INTO o VALUES (1, 10, 5.5) RETURNING *;
INSERT INTO o (id, cust, amt) VALUES (2, 10, 1), (3, 20, NULL), (4, NULL, 2.25) RETURNING id, amt * 2 AS dbl, note;
INSERT INTO o VALUES (5, 20, DEFAULT, DEFAULT, DEFAULT) RETURNING ctid, id;
INSERT INTO o (id) SELECT 6 RETURNING id;
INSERT INTO o (id, cust) SELECT id + 100, cust FROM o WHERE cust = 10 RETURNING id;
UPDATE o SET amt = amt + 1, note = 'upd' WHERE cust = 10 RETURNING id, amt, note;
UPDATE o SET amt = amt * 1000000 WHERE id = 1;
UPDATE o SET note = 'this is too long' WHERE id = 1;
UPDATE o SET id = NULL WHERE id = 1;
UPDATE o SET id = 2 WHERE id = 1;
UPDATE o SET id = id + 1000 RETURNING id;
UPDATE o SET id = id - 1000;
DELETE FROM o WHERE amt IS NULL RETURNING id;
DELETE FROM o WHERE id = 999;
SELECT cust, count(*), sum(amt), avg(amt), min(note), max(ts) FROM o GROUP BY cust ORDER BY cust NULLS FIRST;
SELECT cust, count(*) AS n FROM o GROUP BY cust ORDER BY n DESC, cust;
SELECT cust % 3 AS k, count(*) FROM o GROUP BY cust % 3 ORDER BY 1;
SELECT cust FROM o GROUP BY 1 ORDER BY 1;
SELECT count(*) FROM o HAVING count(*) > 0;
SELECT id, amt FROM o ORDER BY amt DESC NULLS LAST, id LIMIT 3;
SELECT id FROM o ORDER BY -id LIMIT 2;
SELECT id, id * 2 AS d FROM o ORDER BY d DESC LIMIT 1;
SELECT * FROM o WHERE note IN ('upd', 'none') AND amt BETWEEN 1 AND 10 ORDER BY id;
SELECT min(amt), max(amt), sum(amt), avg(amt), count(amt) FROM o WHERE amt IS NULL;
SELECT count(DISTINCT cust), count(DISTINCT note), sum(DISTINCT cust) FROM o;
SELECT id FROM o ORDER BY id OFFSET 2 LIMIT 2;
SELECT id FROM o ORDER BY id LIMIT 2 + 1;
SELECT id::text || '-' || coalesce(note, '?') FROM o ORDER BY id;
SELECT CAST(amt AS int), amt::text, amt::float8, id::numeric(5,1), id::bigint::smallint FROM o WHERE id = 2;
SELECT ts, ts::date, '2024-01-01 10:11:12.5'::timestamp, '2024-01-01'::date::timestamp FROM o WHERE id = 2;
SELECT '2024-01-01 10:11:12.123456789'::timestamp, 'epoch'::timestamp, 'infinity'::timestamp, '1999-01-08 04:05:06 BC'::timestamp;
SELECT '5874897-12-31'::date;
SELECT '0001-01-01'::date, '4713-01-01 BC'::date;
SELECT 'tomorrow'::date > 'yesterday'::date;
SELECT true AND NULL, false AND NULL, true OR NULL, NOT true;
SELECT 'yes'::bool, 'off'::bool, ' t '::bool;
SELECT 1 IS DISTINCT FROM NULL, NULL IS NOT DISTINCT FROM NULL;
SELECT id FROM o WHERE note LIKE 'n%' ORDER BY id;
SELECT CASE WHEN amt > 3 THEN 'big' WHEN amt > 1 THEN 'mid' ELSE 'small' END, id FROM o ORDER BY id;
BEGIN;
SELECT * FROM o WHERE id = 2 FOR UPDATE;
UPDATE o SET amt = 0 WHERE id = 2;
SELECT amt FROM o WHERE id = 2;
ROLLBACK;
SELECT amt FROM o WHERE id = 2;
SELECT count(*) FROM o;
DROP TABLE o;
DROP TABLE o;
