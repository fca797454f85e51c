--
-- INSERT, UPDATE and DELETE on automatically updatable views.
--
CREATE TABLE uv_base (a int PRIMARY KEY, b text DEFAULT 'def', c int);
INSERT INTO uv_base SELECT g, 'row ' || g, g * 10 FROM generate_series(1, 5) g;
CREATE VIEW uv_v AS SELECT a, b, c + 1 AS c1 FROM uv_base WHERE a < 10;
CREATE VIEW uv_r (x, y) AS SELECT b, a FROM uv_base;
CREATE VIEW uv_vv AS SELECT a, b FROM uv_v WHERE a > 1;
INSERT INTO uv_v VALUES (6, 'six');
INSERT INTO uv_v (a) VALUES (7) RETURNING *;
INSERT INTO uv_v VALUES (8, 'eight', 1);
INSERT INTO uv_v (a, c1) VALUES (8, 1);
INSERT INTO uv_r VALUES ('by y', 9) RETURNING x, y;
UPDATE uv_v SET b = 'upd' WHERE a = 2 RETURNING a, b, c1;
UPDATE uv_v SET c1 = 5 WHERE a = 2;
UPDATE uv_v SET nosuch = 5;
UPDATE uv_r SET x = x || '!' WHERE y > 7 RETURNING *;
DELETE FROM uv_v WHERE a = 3 RETURNING *;
INSERT INTO uv_base VALUES (20, 'outside', 0);
UPDATE uv_v SET b = 'never' WHERE a = 20;
DELETE FROM uv_v WHERE a = 20;
UPDATE uv_vv SET b = b || ' via vv' WHERE a <= 4 RETURNING *;
DELETE FROM uv_vv WHERE a = 1;
INSERT INTO uv_vv VALUES (11, 'eleven');
SELECT * FROM uv_base ORDER BY a;
UPDATE uv_v AS v SET b = v.b || '?' WHERE v.a = 4;
SELECT * FROM uv_v ORDER BY a;
CREATE VIEW uv_agg AS SELECT count(*) FROM uv_base;
CREATE VIEW uv_dist AS SELECT DISTINCT b FROM uv_base;
CREATE VIEW uv_join AS SELECT x.a FROM uv_base x, uv_base y WHERE x.a = y.a;
CREATE VIEW uv_lim AS SELECT a FROM uv_base LIMIT 3;
CREATE VIEW uv_union AS SELECT a FROM uv_base UNION SELECT 1;
CREATE VIEW uv_const AS SELECT 1 AS one, a + 0 AS a0 FROM uv_base;
CREATE VIEW uv_ctid AS SELECT ctid AS t, a FROM uv_base;
CREATE VIEW uv_grp AS SELECT a FROM uv_base GROUP BY a;
INSERT INTO uv_agg VALUES (1);
UPDATE uv_dist SET b = 'x';
DELETE FROM uv_join;
DELETE FROM uv_lim;
INSERT INTO uv_union VALUES (1);
UPDATE uv_grp SET a = 1;
INSERT INTO uv_const VALUES (1);
DELETE FROM uv_const WHERE a0 = 5;
UPDATE uv_ctid SET t = '(0,1)';
UPDATE uv_ctid SET a = a WHERE a = 4;
SELECT * FROM uv_base ORDER BY a;
-- INSERT ... SELECT, DEFAULT, subqueries reading the view's columns.
INSERT INTO uv_v (a, b) SELECT a + 100, 'copied ' || b FROM uv_base WHERE a < 3 RETURNING a, b, c1;
INSERT INTO uv_v VALUES (30, DEFAULT);
UPDATE uv_v SET b = (SELECT max(b) FROM uv_base) WHERE a IN (SELECT a FROM uv_v WHERE c1 IS NULL) RETURNING *;
DELETE FROM uv_v WHERE c1 = (SELECT min(c1) FROM uv_v) RETURNING a;
SELECT * FROM uv_base ORDER BY a;
DROP VIEW uv_vv, uv_v, uv_r, uv_agg, uv_dist, uv_join, uv_lim, uv_union, uv_const, uv_ctid, uv_grp;
DROP TABLE uv_base;

-- Two columns of a view that are one column of its table.
create table uvd_t (a int primary key, b text);
create view uvd_v as select a, b, a as aa from uvd_t;
insert into uvd_v values (3, 'x', 3);
insert into uvd_v (a, b) values (3, 'x');
update uvd_v set a = 3, aa = -3 where a = 3;
update uvd_v set aa = -3 where a = 3;
insert into uvd_v (a, aa) values (1, 1);
insert into uvd_t (a, a) values (1, 2);
update uvd_t set a = 1, a = 2;
select * from uvd_t;
DROP VIEW uvd_v; DROP TABLE uvd_t;
