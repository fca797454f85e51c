--
-- psql features that need no system catalogs: \x, \pset, \gset, \g, \copy
-- from stdin, \; (several statements in one Query message)
--
\set VERBOSITY sqlstate
CREATE TABLE pm (id int PRIMARY KEY, t text);
\copy pm from stdin
1	one
2	\N
3	three
\.
\copy pm (id) from stdin with (format csv)
4
\.
\x on
SELECT * FROM pm WHERE id = 1;
\x off
\pset null '(null)'
SELECT * FROM pm ORDER BY id;
\pset null ''
\pset format unaligned
SELECT id, t FROM pm ORDER BY id;
\pset format aligned
\pset border 2
SELECT count(*) FROM pm;
\pset border 1
SELECT id AS x, t AS y FROM pm WHERE id = 3 \gset
\echo :x :y
SELECT count(*) FROM pm \g
SELECT 1 \; SELECT 2 \; SELECT count(*) FROM pm;
SELECT :SERVER_VERSION_NUM / 100 AS server_major;
SELECT current_user, current_database();
DROP TABLE pm;
