--
-- Aggregates, GROUP BY, HAVING, DISTINCT
--
\set VERBOSITY sqlstate
CREATE TABLE sales (region text, item text, qty int, price numeric(6,2), big bigint);
INSERT INTO sales VALUES
    ('north', 'apple', 10, 1.25, 100),
    ('north', 'pear', 5, 2.10, 200),
    ('south', 'apple', 7, 1.30, 300),
    ('south', 'apple', 3, 1.30, NULL),
    ('east', 'plum', NULL, NULL, 400);
SELECT count(*), count(qty), sum(qty), min(qty), max(qty), avg(qty) FROM sales;
SELECT sum(price), avg(price), min(price), max(price), sum(big), avg(big) FROM sales;
SELECT region, count(*), sum(qty * price) AS revenue FROM sales GROUP BY region ORDER BY region;
SELECT region, sum(qty) FROM sales GROUP BY region HAVING sum(qty) > 9 ORDER BY 1;
SELECT item, count(DISTINCT region) FROM sales GROUP BY item ORDER BY item;
SELECT DISTINCT region, item FROM sales ORDER BY region, item;
SELECT count(*) FROM sales WHERE qty > 100;
SELECT sum(qty), max(region) FROM sales WHERE qty > 100;
SELECT region, item, qty FROM sales GROUP BY region;
SELECT max(qty) + 1 AS m, min(region) || '!' AS r FROM sales;
DROP TABLE sales;
