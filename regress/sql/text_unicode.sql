--
-- Text, unicode, quoting, identifiers (long ones are truncated with a NOTICE)
--
\set VERBOSITY sqlstate
CREATE TABLE u (id int, s text, v varchar(3), c char(3));
INSERT INTO u VALUES (1, 'apple', 'abc', 'a'), (2, 'Banana', 'ABC', 'ab'), (3, 'éclair', 'é', 'é'), (4, '', '', ''), (5, ' space', ' ', ' '), (6, 'Zebra', 'z', 'z'), (7, '日本', '日本語', '日本');
INSERT INTO u VALUES (8, 'x', '日本語x', 'a');
INSERT INTO u VALUES (8, 'x', 'abcd', 'a');
INSERT INTO u VALUES (8, 'x', 'abc ', 'abc   ');
INSERT INTO u VALUES (9, 'x', 'ab', 'abcd');
SELECT * FROM u ORDER BY s;
SELECT * FROM u ORDER BY v, id;
SELECT * FROM u ORDER BY c, id;
SELECT id, length(s), length(v), length(c), octet_length(c), c || '|' FROM u ORDER BY id;
SELECT 'a' < 'B', 'a' < 'b', 'Z' < 'a', 'é' > 'z';
SELECT c = 'a', c = 'a  ' FROM u WHERE id = 1;
SELECT upper('éa'), lower('ÉA'), substr('日本語', 2, 1);
SELECT 'it''s', E'tab\there', $$dollar$$, U&'\00e9';
SELECT "id" FROM u WHERE id = 1;
SELECT "ID" FROM u;
CREATE TABLE "Mixed Case" ("Col" int);
INSERT INTO "Mixed Case" VALUES (1);
SELECT "Col" FROM "Mixed Case";
SELECT col FROM "Mixed Case";
SELECT * FROM mixed case;
DROP TABLE "Mixed Case";
CREATE TABLE abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij (abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij int);
INSERT INTO abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabc VALUES (1);
SELECT * FROM abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij;
DROP TABLE abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabc;
SELECT 1 AS abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij;
SELECT 'a' || 'b' AS "x y", 1 AS "", 2 AS select;
SELECT E'\xff';
SELECT E'\u0000';
SELECT 'a' LIKE 'A', 'abc' LIKE 'a_c', 'a%' LIKE 'a\%', 'x' NOT LIKE '%';
SELECT 'A' ILIKE 'a';
DROP TABLE u;
