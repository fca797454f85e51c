--
-- COPY FROM STDIN
--
\set VERBOSITY sqlstate
CREATE TABLE cp (id int, name text, amount numeric(8,2), at timestamp);
COPY cp FROM stdin;
1	one	1.50	2024-01-01 10:00:00
2	two\twith tab	\N	2024-01-02 11:00:00
3	back\\slash	-3.25	\N
\.
COPY cp (id, name) FROM stdin WITH (FORMAT csv);
4,"quoted, comma"
5,""
6,
\.
COPY cp FROM stdin WITH (FORMAT csv, HEADER true, DELIMITER ';');
id;name;amount;at
7;seven;7.77;2024-07-07 07:07:07
\.
SELECT * FROM cp ORDER BY id;
COPY cp FROM stdin;
8	eight	not-a-number	2024-01-01
\.
COPY cp FROM stdin;
9	too	few
\.
\copy nosuch from '/dev/null'
SELECT count(*) FROM cp;
DROP TABLE cp;
