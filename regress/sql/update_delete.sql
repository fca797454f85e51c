--
-- UPDATE and DELETE
--
\set VERBOSITY sqlstate
CREATE TABLE acct (id int PRIMARY KEY, owner text, balance numeric(12,2), n int);
INSERT INTO acct VALUES (1, 'a', 100.00, 0), (2, 'b', 200.00, 0), (3, 'c', 300.00, 0), (4, 'd', 400.00, 0);
UPDATE acct SET balance = balance + 10.005 WHERE id = 1;
UPDATE acct SET n = n + 1, owner = upper(owner) WHERE id >= 3 RETURNING id, owner, n;
UPDATE acct SET n = n + 1 WHERE id = 99;
UPDATE acct SET balance = balance * 2;
SELECT * FROM acct ORDER BY id;
DELETE FROM acct WHERE id = 2 RETURNING *;
DELETE FROM acct WHERE owner = 'zzz';
SELECT * FROM acct ORDER BY id;
UPDATE acct SET id = 1 WHERE id = 3;
UPDATE acct SET owner = NULL WHERE id = 1;
UPDATE acct SET nosuch = 1;
DELETE FROM acct;
SELECT count(*) FROM acct;
DROP TABLE acct;
