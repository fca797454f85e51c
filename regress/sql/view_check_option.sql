--
-- WITH [LOCAL | CASCADED] CHECK OPTION on updatable views.
--
CREATE TABLE co_base (a int PRIMARY KEY, b int);
CREATE VIEW co_v1 AS SELECT * FROM co_base WHERE a > 0;
CREATE VIEW co_v2 AS SELECT * FROM co_v1 WHERE a < 10 WITH LOCAL CHECK OPTION;
CREATE VIEW co_v3 AS SELECT * FROM co_v1 WHERE a < 10 WITH CASCADED CHECK OPTION;
CREATE VIEW co_v4 AS SELECT * FROM co_v2 WHERE b IS NOT NULL;
CREATE VIEW co_v5 AS SELECT * FROM co_v2 WHERE a <> 5 WITH CHECK OPTION;
INSERT INTO co_v2 VALUES (5, 1);
INSERT INTO co_v2 VALUES (-1, 1);
INSERT INTO co_v2 VALUES (15, 1);
INSERT INTO co_v3 VALUES (6, 1);
INSERT INTO co_v3 VALUES (-2, 1);
INSERT INTO co_v3 VALUES (16, 1);
INSERT INTO co_v4 VALUES (7, NULL);
INSERT INTO co_v4 VALUES (17, 1);
INSERT INTO co_v5 VALUES (5, 2);
INSERT INTO co_v5 VALUES (-5, 2);
UPDATE co_v2 SET a = a + 10 WHERE a = 5;
UPDATE co_v2 SET b = NULL WHERE a = 5 RETURNING *;
UPDATE co_v3 SET a = -a WHERE a = 6;
SELECT * FROM co_base ORDER BY a;
SELECT table_name, check_option, is_updatable, is_insertable_into FROM information_schema.views WHERE table_schema = 'public' AND table_name LIKE 'co\_%' ORDER BY 1;
CREATE VIEW co_bad AS SELECT count(*) FROM co_base WITH CHECK OPTION;
CREATE VIEW co_bad AS SELECT DISTINCT a FROM co_base WITH LOCAL CHECK OPTION;
CREATE OR REPLACE VIEW co_v1 AS SELECT * FROM co_base WHERE a > 0 WITH CHECK OPTION;
INSERT INTO co_v1 VALUES (-9, 0);
INSERT INTO co_v4 VALUES (-9, 0);
CREATE VIEW co_agg AS SELECT a, count(*) FROM co_base GROUP BY a;
SELECT table_name, is_insertable_into FROM information_schema.tables WHERE table_schema = 'public' AND table_name LIKE 'co\_%' ORDER BY 1;
DROP VIEW co_v5, co_v4, co_v3, co_v2, co_v1, co_agg;
DROP TABLE co_base;
