--
-- COPY text and CSV with odd data and bad input
--
\set VERBOSITY sqlstate
CREATE TABLE c (id int, t text, n numeric(6,2), b bool, d date);
COPY c FROM STDIN;
1	hello	1.5	t	2024-01-01
2	\N	\N	\N	\N
3	tab\there	-0.005	f	1999-12-31
4	back\\slash	0	true	2000-02-29
5	nl\nx\r\\N	9999.99	no	2000-01-01
6	\x41\101\u00e9	1	1	2000-01-01
7		1	0	2000-01-01
\.
SELECT * FROM c ORDER BY id;
SELECT id, length(t) FROM c ORDER BY id;
COPY c FROM STDIN;
8	x
\.
COPY c FROM STDIN;
8	x	1	t	2000-01-01	extra
\.
COPY c FROM STDIN;
x	x	1	t	2000-01-01
\.
COPY c FROM STDIN;
9	x	100000	t	2000-01-01
\.
COPY c FROM STDIN;
9	x	1	maybe	2000-01-01
\.
COPY c FROM STDIN;
9	x	1	t	2000-13-01
\.
COPY c FROM STDIN;
9	x	1	t	2000-01-01
10	y	1	t	bad
\.
SELECT count(*) FROM c;
COPY c FROM STDIN WITH (FORMAT csv);
20,"a,b",1.5,t,2024-01-01
21,,,,
22,"",1,f,2024-01-01
23,"quote""d",2,t,2024-01-01
24,"multi
line",3,t,2024-01-01
25,\N,4,t,2024-01-01
\.
SELECT id, t, t IS NULL AS isnull, n FROM c WHERE id >= 20 ORDER BY id;
COPY c FROM STDIN WITH (FORMAT csv, HEADER);
id,t,n,b,d
30,h,1,t,2024-01-01
\.
COPY c FROM STDIN WITH (FORMAT csv, NULL 'NULL', DELIMITER ';');
31;NULL;1;t;2024-01-01
\.
COPY c FROM STDIN WITH (FORMAT csv);
40,"unterminated,1,t,2024-01-01
\.
-- Statements the server rejects before it asks for data are sent by \copy
-- from an empty file, so no in-line data follows a failed COPY FROM STDIN.
\copy c from '/dev/null' with (format bogus)
\copy c from '/dev/null' with (delimiter 'ab')
\copy c from '/dev/null' with (nosuch 1)
COPY c (id, t) FROM STDIN;
50	only two
\.
\copy c (nosuch) from '/dev/null'
\copy nosuch from '/dev/null'
SELECT id, t, n FROM c WHERE id >= 30 ORDER BY id;
SELECT count(*) FROM c;
DROP TABLE c;
