-- Views: CREATE [OR REPLACE] VIEW, reading through views, dependencies,
-- DROP VIEW, and views in the system catalogs.
CREATE TABLE vw_orders (id int PRIMARY KEY, customer text NOT NULL, amount numeric(10,2), placed date);
INSERT INTO vw_orders VALUES
  (1, 'ann', 10.50, '2026-01-03'), (2, 'bob', 99.00, '2026-01-04'),
  (3, 'ann', 5.25, '2026-02-01'), (4, 'cid', NULL, '2026-02-02'),
  (5, 'bob', 40.00, '2026-03-15');
CREATE VIEW vw_big AS SELECT id, customer, amount FROM vw_orders WHERE amount > 20;
SELECT * FROM vw_big ORDER BY id;
CREATE VIEW vw_totals (who, total, n) AS
  SELECT customer, sum(amount), count(*) FROM vw_orders GROUP BY customer;
SELECT * FROM vw_totals ORDER BY who;
SELECT who, total FROM vw_totals WHERE n > 1 ORDER BY total DESC;
-- A view of a view, joined back to its table, under aliases.
CREATE VIEW vw_big_names AS SELECT DISTINCT customer FROM vw_big;
SELECT o.id, b.customer FROM vw_orders o JOIN vw_big_names b USING (customer) ORDER BY o.id;
SELECT x.c FROM vw_big_names AS x(c) ORDER BY 1;
SELECT vw_big.* FROM vw_big WHERE vw_big.id = 2;
-- The same view twice, in a subquery, and with a correlated subquery.
SELECT a.id, b.id FROM vw_big a, vw_big b WHERE a.id < b.id;
SELECT id FROM vw_orders WHERE customer IN (SELECT customer FROM vw_big) ORDER BY id;
SELECT who, (SELECT max(id) FROM vw_orders o WHERE o.customer = t.who) FROM vw_totals t ORDER BY who;
-- Rows changed in the table show through the view.
UPDATE vw_orders SET amount = 25 WHERE id = 1;
SELECT * FROM vw_big ORDER BY id;
BEGIN;
DELETE FROM vw_orders WHERE id = 2;
SELECT count(*) FROM vw_big;
ROLLBACK;
SELECT count(*) FROM vw_big;
-- WITH, ORDER BY, LIMIT, set-returning functions and literals in a view.
CREATE VIEW vw_top2 AS
  WITH ranked AS (SELECT id, amount FROM vw_orders WHERE amount IS NOT NULL)
  SELECT id FROM ranked ORDER BY amount DESC LIMIT 2;
SELECT * FROM vw_top2;
-- A WITH query read twice in a view is evaluated once, as in PostgreSQL.
CREATE VIEW vw_once AS WITH r AS (SELECT random() AS x) SELECT r1.x = r2.x AS same FROM r r1, r r2;
SELECT same FROM vw_once, (WITH r AS (SELECT 1 AS y) SELECT * FROM r, r r2) q;
DROP VIEW vw_once;
CREATE VIEW vw_series AS SELECT g AS n, g * g AS sq FROM generate_series(1, 5) g;
SELECT sum(sq) FROM vw_series WHERE n > 2;
CREATE VIEW vw_lits AS SELECT 'foo' AS t, NULL AS n, 1.5 AS x, now() > '2000-01-01' AS later;
SELECT * FROM vw_lits;
\d vw_lits
\d vw_totals
\dv vw_*
SELECT relname, relkind, relnatts, relpages, reltuples, relhasindex FROM pg_class
  WHERE relname LIKE 'vw%' AND relkind <> 'i' ORDER BY relname;
SELECT attname, format_type(atttypid, atttypmod), attnotnull FROM pg_attribute
  WHERE attrelid = 'vw_totals'::regclass ORDER BY attnum;
SELECT table_name, table_type FROM information_schema.tables
  WHERE table_name LIKE 'vw%' ORDER BY 1;
SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
  WHERE table_name = 'vw_big' ORDER BY ordinal_position;
SELECT viewname, viewowner FROM pg_views WHERE viewname LIKE 'vw%' ORDER BY 1;
SELECT table_name, check_option FROM information_schema.views WHERE table_name LIKE 'vw%' ORDER BY 1;
SELECT 'vw_big'::regclass, pg_get_viewdef('vw_orders') IS NULL AS not_a_view;
-- CREATE OR REPLACE VIEW keeps the columns and may add some at the end.
CREATE OR REPLACE VIEW vw_big AS SELECT id, customer, amount, placed FROM vw_orders WHERE amount >= 40;
SELECT * FROM vw_big ORDER BY id;
CREATE OR REPLACE VIEW vw_big AS SELECT id, customer FROM vw_orders;
CREATE OR REPLACE VIEW vw_big AS SELECT customer, id, amount, placed FROM vw_orders;
CREATE OR REPLACE VIEW vw_big AS SELECT id::text AS id, customer, amount, placed FROM vw_orders;
CREATE OR REPLACE VIEW vw_orders AS SELECT 1;
CREATE VIEW vw_big AS SELECT 1;
CREATE VIEW vw_bad (a, b, c) AS SELECT 1, 2;
CREATE VIEW vw_bad (a, a) AS SELECT 1, 2;
CREATE VIEW vw_bad AS SELECT 1 AS a, 2 AS a;
CREATE VIEW vw_bad AS SELECT nosuch FROM vw_orders;
CREATE VIEW vw_bad AS SELECT * FROM vw_nosuch;
SELECT * FROM vw_bad;
-- Statements that need a table.
COPY vw_big TO STDOUT;
TRUNCATE vw_big;
CREATE INDEX ON vw_big (id);
VACUUM vw_big;
ANALYZE vw_big;
DROP TABLE vw_big;
DROP VIEW vw_orders;
-- What depends on a relation.
DROP TABLE vw_orders;
DROP VIEW vw_big;
BEGIN;
DROP VIEW vw_big CASCADE;
SELECT * FROM vw_big_names;
ROLLBACK;
SELECT * FROM vw_big_names ORDER BY 1;
-- DDL on views follows the transaction.
BEGIN;
CREATE VIEW vw_tmp AS SELECT 42 AS answer;
SELECT * FROM vw_tmp;
ROLLBACK;
SELECT * FROM vw_tmp;
BEGIN;
DROP VIEW vw_series;
CREATE VIEW vw_series AS SELECT 'replaced' AS what;
SELECT * FROM vw_series;
ROLLBACK;
SELECT count(*) FROM vw_series;
BEGIN;
DROP VIEW vw_series;
COMMIT;
SELECT * FROM vw_series;
DROP VIEW IF EXISTS vw_series, vw_nosuch;
DROP VIEW vw_nosuch;
DROP TABLE vw_orders CASCADE;
SELECT relname FROM pg_class WHERE relname LIKE 'vw%' ORDER BY 1;
DROP VIEW vw_lits;
