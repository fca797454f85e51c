--
-- CREATE TABLE / DROP TABLE and table options
--
\set VERBOSITY sqlstate
CREATE TABLE ct_all (
    a integer,
    b smallint,
    c bigint,
    d numeric(12,2),
    e real,
    f double precision,
    g boolean,
    h text,
    i varchar(10),
    j char(4),
    k timestamp,
    l date
);
INSERT INTO ct_all VALUES (1, 2, 3, 4.5, 6.5, 7.25, true, 'eight', 'nine', 'ten', '2024-01-02 03:04:05', '2024-01-02');
SELECT * FROM ct_all;
CREATE TABLE ct_all (a int);
CREATE TABLE IF NOT EXISTS ct_all (a int);
DROP TABLE ct_all;
DROP TABLE ct_all;
DROP TABLE IF EXISTS ct_all;
CREATE TABLE ct_ff (a int) WITH (fillfactor=70);
CREATE TABLE ct_bad1 (a int) WITH (fillfactor=5);
CREATE TABLE ct_bad2 (a int) WITH (fillfactor=101);
CREATE TABLE ct_bad3 (a int) WITH (nosuchoption=1);
CREATE TABLE ct_bad4 (a int) WITH (fillfactor='abc');
CREATE TABLE ct_bad5 (a nosuchtype);
CREATE TABLE ct_bad6 (a int, a int);
CREATE TABLE ct_def (id int PRIMARY KEY, n int NOT NULL DEFAULT 7, s text DEFAULT 'x');
INSERT INTO ct_def (id) VALUES (1);
INSERT INTO ct_def VALUES (2, DEFAULT, DEFAULT);
INSERT INTO ct_def (id, n) VALUES (3, NULL);
SELECT * FROM ct_def ORDER BY id;
DROP TABLE ct_def, ct_ff;
