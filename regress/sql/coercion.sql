--
-- Assignment coercion: every pair of supported types through INSERT ... VALUES,
-- INSERT ... SELECT and UPDATE SET (42804 with a hint where no assignment cast
-- exists), bad literals and out-of-range values, and bad COPY data (text and CSV)
--
CREATE TABLE co (c_int2 smallint, c_int4 integer, c_int8 bigint, c_num numeric(6,2), c_f4 real, c_f8 double precision, c_text text, c_vc varchar(5), c_ch char(3), c_bool boolean, c_date date, c_ts timestamp);
CREATE TABLE cu (c_int2 smallint, c_int4 integer, c_int8 bigint, c_num numeric(6,2), c_f4 real, c_f8 double precision, c_text text, c_vc varchar(5), c_ch char(3), c_bool boolean, c_date date, c_ts timestamp);
CREATE TABLE cs (s_int2 smallint, s_int4 integer, s_int8 bigint, s_num numeric(6,2), s_f4 real, s_f8 double precision, s_text text, s_vc varchar(5), s_ch char(3), s_bool boolean, s_date date, s_ts timestamp);
INSERT INTO cs VALUES ('7'::int2, 7, 7::int8, 7.5, '7.5'::real, '7.5'::float8, '7'::text, '7'::varchar, '7'::char(3), true, '2024-01-02'::date, '2024-01-02 03:04:05'::timestamp);
INSERT INTO cu VALUES ('7'::int2, 7, 7::int8, 7.5, '7.5'::real, '7.5'::float8, '7'::text, '7'::varchar, '7'::char(3), true, '2024-01-02'::date, '2024-01-02 03:04:05'::timestamp);
-- INSERT ... VALUES with a typed expression of each type into each column
INSERT INTO co (c_int2) VALUES ('7'::int2) RETURNING c_int2;
INSERT INTO co (c_int2) VALUES (7) RETURNING c_int2;
INSERT INTO co (c_int2) VALUES (7::int8) RETURNING c_int2;
INSERT INTO co (c_int2) VALUES (7.5) RETURNING c_int2;
INSERT INTO co (c_int2) VALUES ('7.5'::real) RETURNING c_int2;
INSERT INTO co (c_int2) VALUES ('7.5'::float8) RETURNING c_int2;
INSERT INTO co (c_int2) VALUES ('7'::text) RETURNING c_int2;
INSERT INTO co (c_int2) VALUES ('7'::varchar) RETURNING c_int2;
INSERT INTO co (c_int2) VALUES ('7'::char(3)) RETURNING c_int2;
INSERT INTO co (c_int2) VALUES (true) RETURNING c_int2;
INSERT INTO co (c_int2) VALUES ('2024-01-02'::date) RETURNING c_int2;
INSERT INTO co (c_int2) VALUES ('2024-01-02 03:04:05'::timestamp) RETURNING c_int2;
INSERT INTO co (c_int4) VALUES ('7'::int2) RETURNING c_int4;
INSERT INTO co (c_int4) VALUES (7) RETURNING c_int4;
INSERT INTO co (c_int4) VALUES (7::int8) RETURNING c_int4;
INSERT INTO co (c_int4) VALUES (7.5) RETURNING c_int4;
INSERT INTO co (c_int4) VALUES ('7.5'::real) RETURNING c_int4;
INSERT INTO co (c_int4) VALUES ('7.5'::float8) RETURNING c_int4;
INSERT INTO co (c_int4) VALUES ('7'::text) RETURNING c_int4;
INSERT INTO co (c_int4) VALUES ('7'::varchar) RETURNING c_int4;
INSERT INTO co (c_int4) VALUES ('7'::char(3)) RETURNING c_int4;
INSERT INTO co (c_int4) VALUES (true) RETURNING c_int4;
INSERT INTO co (c_int4) VALUES ('2024-01-02'::date) RETURNING c_int4;
INSERT INTO co (c_int4) VALUES ('2024-01-02 03:04:05'::timestamp) RETURNING c_int4;
INSERT INTO co (c_int8) VALUES ('7'::int2) RETURNING c_int8;
INSERT INTO co (c_int8) VALUES (7) RETURNING c_int8;
INSERT INTO co (c_int8) VALUES (7::int8) RETURNING c_int8;
INSERT INTO co (c_int8) VALUES (7.5) RETURNING c_int8;
INSERT INTO co (c_int8) VALUES ('7.5'::real) RETURNING c_int8;
INSERT INTO co (c_int8) VALUES ('7.5'::float8) RETURNING c_int8;
INSERT INTO co (c_int8) VALUES ('7'::text) RETURNING c_int8;
INSERT INTO co (c_int8) VALUES ('7'::varchar) RETURNING c_int8;
INSERT INTO co (c_int8) VALUES ('7'::char(3)) RETURNING c_int8;
INSERT INTO co (c_int8) VALUES (true) RETURNING c_int8;
INSERT INTO co (c_int8) VALUES ('2024-01-02'::date) RETURNING c_int8;
INSERT INTO co (c_int8) VALUES ('2024-01-02 03:04:05'::timestamp) RETURNING c_int8;
INSERT INTO co (c_num) VALUES ('7'::int2) RETURNING c_num;
INSERT INTO co (c_num) VALUES (7) RETURNING c_num;
INSERT INTO co (c_num) VALUES (7::int8) RETURNING c_num;
INSERT INTO co (c_num) VALUES (7.5) RETURNING c_num;
INSERT INTO co (c_num) VALUES ('7.5'::real) RETURNING c_num;
INSERT INTO co (c_num) VALUES ('7.5'::float8) RETURNING c_num;
INSERT INTO co (c_num) VALUES ('7'::text) RETURNING c_num;
INSERT INTO co (c_num) VALUES ('7'::varchar) RETURNING c_num;
INSERT INTO co (c_num) VALUES ('7'::char(3)) RETURNING c_num;
INSERT INTO co (c_num) VALUES (true) RETURNING c_num;
INSERT INTO co (c_num) VALUES ('2024-01-02'::date) RETURNING c_num;
INSERT INTO co (c_num) VALUES ('2024-01-02 03:04:05'::timestamp) RETURNING c_num;
INSERT INTO co (c_f4) VALUES ('7'::int2) RETURNING c_f4;
INSERT INTO co (c_f4) VALUES (7) RETURNING c_f4;
INSERT INTO co (c_f4) VALUES (7::int8) RETURNING c_f4;
INSERT INTO co (c_f4) VALUES (7.5) RETURNING c_f4;
INSERT INTO co (c_f4) VALUES ('7.5'::real) RETURNING c_f4;
INSERT INTO co (c_f4) VALUES ('7.5'::float8) RETURNING c_f4;
INSERT INTO co (c_f4) VALUES ('7'::text) RETURNING c_f4;
INSERT INTO co (c_f4) VALUES ('7'::varchar) RETURNING c_f4;
INSERT INTO co (c_f4) VALUES ('7'::char(3)) RETURNING c_f4;
INSERT INTO co (c_f4) VALUES (true) RETURNING c_f4;
INSERT INTO co (c_f4) VALUES ('2024-01-02'::date) RETURNING c_f4;
INSERT INTO co (c_f4) VALUES ('2024-01-02 03:04:05'::timestamp) RETURNING c_f4;
INSERT INTO co (c_f8) VALUES ('7'::int2) RETURNING c_f8;
INSERT INTO co (c_f8) VALUES (7) RETURNING c_f8;
INSERT INTO co (c_f8) VALUES (7::int8) RETURNING c_f8;
INSERT INTO co (c_f8) VALUES (7.5) RETURNING c_f8;
INSERT INTO co (c_f8) VALUES ('7.5'::real) RETURNING c_f8;
INSERT INTO co (c_f8) VALUES ('7.5'::float8) RETURNING c_f8;
INSERT INTO co (c_f8) VALUES ('7'::text) RETURNING c_f8;
INSERT INTO co (c_f8) VALUES ('7'::varchar) RETURNING c_f8;
INSERT INTO co (c_f8) VALUES ('7'::char(3)) RETURNING c_f8;
INSERT INTO co (c_f8) VALUES (true) RETURNING c_f8;
INSERT INTO co (c_f8) VALUES ('2024-01-02'::date) RETURNING c_f8;
INSERT INTO co (c_f8) VALUES ('2024-01-02 03:04:05'::timestamp) RETURNING c_f8;
INSERT INTO co (c_text) VALUES ('7'::int2) RETURNING c_text;
INSERT INTO co (c_text) VALUES (7) RETURNING c_text;
INSERT INTO co (c_text) VALUES (7::int8) RETURNING c_text;
INSERT INTO co (c_text) VALUES (7.5) RETURNING c_text;
INSERT INTO co (c_text) VALUES ('7.5'::real) RETURNING c_text;
INSERT INTO co (c_text) VALUES ('7.5'::float8) RETURNING c_text;
INSERT INTO co (c_text) VALUES ('7'::text) RETURNING c_text;
INSERT INTO co (c_text) VALUES ('7'::varchar) RETURNING c_text;
INSERT INTO co (c_text) VALUES ('7'::char(3)) RETURNING c_text;
INSERT INTO co (c_text) VALUES (true) RETURNING c_text;
INSERT INTO co (c_text) VALUES ('2024-01-02'::date) RETURNING c_text;
INSERT INTO co (c_text) VALUES ('2024-01-02 03:04:05'::timestamp) RETURNING c_text;
INSERT INTO co (c_vc) VALUES ('7'::int2) RETURNING c_vc;
INSERT INTO co (c_vc) VALUES (7) RETURNING c_vc;
INSERT INTO co (c_vc) VALUES (7::int8) RETURNING c_vc;
INSERT INTO co (c_vc) VALUES (7.5) RETURNING c_vc;
INSERT INTO co (c_vc) VALUES ('7.5'::real) RETURNING c_vc;
INSERT INTO co (c_vc) VALUES ('7.5'::float8) RETURNING c_vc;
INSERT INTO co (c_vc) VALUES ('7'::text) RETURNING c_vc;
INSERT INTO co (c_vc) VALUES ('7'::varchar) RETURNING c_vc;
INSERT INTO co (c_vc) VALUES ('7'::char(3)) RETURNING c_vc;
INSERT INTO co (c_vc) VALUES (true) RETURNING c_vc;
INSERT INTO co (c_vc) VALUES ('2024-01-02'::date) RETURNING c_vc;
INSERT INTO co (c_vc) VALUES ('2024-01-02 03:04:05'::timestamp) RETURNING c_vc;
INSERT INTO co (c_ch) VALUES ('7'::int2) RETURNING c_ch;
INSERT INTO co (c_ch) VALUES (7) RETURNING c_ch;
INSERT INTO co (c_ch) VALUES (7::int8) RETURNING c_ch;
INSERT INTO co (c_ch) VALUES (7.5) RETURNING c_ch;
INSERT INTO co (c_ch) VALUES ('7.5'::real) RETURNING c_ch;
INSERT INTO co (c_ch) VALUES ('7.5'::float8) RETURNING c_ch;
INSERT INTO co (c_ch) VALUES ('7'::text) RETURNING c_ch;
INSERT INTO co (c_ch) VALUES ('7'::varchar) RETURNING c_ch;
INSERT INTO co (c_ch) VALUES ('7'::char(3)) RETURNING c_ch;
INSERT INTO co (c_ch) VALUES (true) RETURNING c_ch;
INSERT INTO co (c_ch) VALUES ('2024-01-02'::date) RETURNING c_ch;
INSERT INTO co (c_ch) VALUES ('2024-01-02 03:04:05'::timestamp) RETURNING c_ch;
INSERT INTO co (c_bool) VALUES ('7'::int2) RETURNING c_bool;
INSERT INTO co (c_bool) VALUES (7) RETURNING c_bool;
INSERT INTO co (c_bool) VALUES (7::int8) RETURNING c_bool;
INSERT INTO co (c_bool) VALUES (7.5) RETURNING c_bool;
INSERT INTO co (c_bool) VALUES ('7.5'::real) RETURNING c_bool;
INSERT INTO co (c_bool) VALUES ('7.5'::float8) RETURNING c_bool;
INSERT INTO co (c_bool) VALUES ('7'::text) RETURNING c_bool;
INSERT INTO co (c_bool) VALUES ('7'::varchar) RETURNING c_bool;
INSERT INTO co (c_bool) VALUES ('7'::char(3)) RETURNING c_bool;
INSERT INTO co (c_bool) VALUES (true) RETURNING c_bool;
INSERT INTO co (c_bool) VALUES ('2024-01-02'::date) RETURNING c_bool;
INSERT INTO co (c_bool) VALUES ('2024-01-02 03:04:05'::timestamp) RETURNING c_bool;
INSERT INTO co (c_date) VALUES ('7'::int2) RETURNING c_date;
INSERT INTO co (c_date) VALUES (7) RETURNING c_date;
INSERT INTO co (c_date) VALUES (7::int8) RETURNING c_date;
INSERT INTO co (c_date) VALUES (7.5) RETURNING c_date;
INSERT INTO co (c_date) VALUES ('7.5'::real) RETURNING c_date;
INSERT INTO co (c_date) VALUES ('7.5'::float8) RETURNING c_date;
INSERT INTO co (c_date) VALUES ('7'::text) RETURNING c_date;
INSERT INTO co (c_date) VALUES ('7'::varchar) RETURNING c_date;
INSERT INTO co (c_date) VALUES ('7'::char(3)) RETURNING c_date;
INSERT INTO co (c_date) VALUES (true) RETURNING c_date;
INSERT INTO co (c_date) VALUES ('2024-01-02'::date) RETURNING c_date;
INSERT INTO co (c_date) VALUES ('2024-01-02 03:04:05'::timestamp) RETURNING c_date;
INSERT INTO co (c_ts) VALUES ('7'::int2) RETURNING c_ts;
INSERT INTO co (c_ts) VALUES (7) RETURNING c_ts;
INSERT INTO co (c_ts) VALUES (7::int8) RETURNING c_ts;
INSERT INTO co (c_ts) VALUES (7.5) RETURNING c_ts;
INSERT INTO co (c_ts) VALUES ('7.5'::real) RETURNING c_ts;
INSERT INTO co (c_ts) VALUES ('7.5'::float8) RETURNING c_ts;
INSERT INTO co (c_ts) VALUES ('7'::text) RETURNING c_ts;
INSERT INTO co (c_ts) VALUES ('7'::varchar) RETURNING c_ts;
INSERT INTO co (c_ts) VALUES ('7'::char(3)) RETURNING c_ts;
INSERT INTO co (c_ts) VALUES (true) RETURNING c_ts;
INSERT INTO co (c_ts) VALUES ('2024-01-02'::date) RETURNING c_ts;
INSERT INTO co (c_ts) VALUES ('2024-01-02 03:04:05'::timestamp) RETURNING c_ts;
-- INSERT ... SELECT of each column type into each column
INSERT INTO co (c_int2) SELECT s_int2 FROM cs RETURNING c_int2;
INSERT INTO co (c_int2) SELECT s_int4 FROM cs RETURNING c_int2;
INSERT INTO co (c_int2) SELECT s_int8 FROM cs RETURNING c_int2;
INSERT INTO co (c_int2) SELECT s_num FROM cs RETURNING c_int2;
INSERT INTO co (c_int2) SELECT s_f4 FROM cs RETURNING c_int2;
INSERT INTO co (c_int2) SELECT s_f8 FROM cs RETURNING c_int2;
INSERT INTO co (c_int2) SELECT s_text FROM cs RETURNING c_int2;
INSERT INTO co (c_int2) SELECT s_vc FROM cs RETURNING c_int2;
INSERT INTO co (c_int2) SELECT s_ch FROM cs RETURNING c_int2;
INSERT INTO co (c_int2) SELECT s_bool FROM cs RETURNING c_int2;
INSERT INTO co (c_int2) SELECT s_date FROM cs RETURNING c_int2;
INSERT INTO co (c_int2) SELECT s_ts FROM cs RETURNING c_int2;
INSERT INTO co (c_int4) SELECT s_int2 FROM cs RETURNING c_int4;
INSERT INTO co (c_int4) SELECT s_int4 FROM cs RETURNING c_int4;
INSERT INTO co (c_int4) SELECT s_int8 FROM cs RETURNING c_int4;
INSERT INTO co (c_int4) SELECT s_num FROM cs RETURNING c_int4;
INSERT INTO co (c_int4) SELECT s_f4 FROM cs RETURNING c_int4;
INSERT INTO co (c_int4) SELECT s_f8 FROM cs RETURNING c_int4;
INSERT INTO co (c_int4) SELECT s_text FROM cs RETURNING c_int4;
INSERT INTO co (c_int4) SELECT s_vc FROM cs RETURNING c_int4;
INSERT INTO co (c_int4) SELECT s_ch FROM cs RETURNING c_int4;
INSERT INTO co (c_int4) SELECT s_bool FROM cs RETURNING c_int4;
INSERT INTO co (c_int4) SELECT s_date FROM cs RETURNING c_int4;
INSERT INTO co (c_int4) SELECT s_ts FROM cs RETURNING c_int4;
INSERT INTO co (c_int8) SELECT s_int2 FROM cs RETURNING c_int8;
INSERT INTO co (c_int8) SELECT s_int4 FROM cs RETURNING c_int8;
INSERT INTO co (c_int8) SELECT s_int8 FROM cs RETURNING c_int8;
INSERT INTO co (c_int8) SELECT s_num FROM cs RETURNING c_int8;
INSERT INTO co (c_int8) SELECT s_f4 FROM cs RETURNING c_int8;
INSERT INTO co (c_int8) SELECT s_f8 FROM cs RETURNING c_int8;
INSERT INTO co (c_int8) SELECT s_text FROM cs RETURNING c_int8;
INSERT INTO co (c_int8) SELECT s_vc FROM cs RETURNING c_int8;
INSERT INTO co (c_int8) SELECT s_ch FROM cs RETURNING c_int8;
INSERT INTO co (c_int8) SELECT s_bool FROM cs RETURNING c_int8;
INSERT INTO co (c_int8) SELECT s_date FROM cs RETURNING c_int8;
INSERT INTO co (c_int8) SELECT s_ts FROM cs RETURNING c_int8;
INSERT INTO co (c_num) SELECT s_int2 FROM cs RETURNING c_num;
INSERT INTO co (c_num) SELECT s_int4 FROM cs RETURNING c_num;
INSERT INTO co (c_num) SELECT s_int8 FROM cs RETURNING c_num;
INSERT INTO co (c_num) SELECT s_num FROM cs RETURNING c_num;
INSERT INTO co (c_num) SELECT s_f4 FROM cs RETURNING c_num;
INSERT INTO co (c_num) SELECT s_f8 FROM cs RETURNING c_num;
INSERT INTO co (c_num) SELECT s_text FROM cs RETURNING c_num;
INSERT INTO co (c_num) SELECT s_vc FROM cs RETURNING c_num;
INSERT INTO co (c_num) SELECT s_ch FROM cs RETURNING c_num;
INSERT INTO co (c_num) SELECT s_bool FROM cs RETURNING c_num;
INSERT INTO co (c_num) SELECT s_date FROM cs RETURNING c_num;
INSERT INTO co (c_num) SELECT s_ts FROM cs RETURNING c_num;
INSERT INTO co (c_f4) SELECT s_int2 FROM cs RETURNING c_f4;
INSERT INTO co (c_f4) SELECT s_int4 FROM cs RETURNING c_f4;
INSERT INTO co (c_f4) SELECT s_int8 FROM cs RETURNING c_f4;
INSERT INTO co (c_f4) SELECT s_num FROM cs RETURNING c_f4;
INSERT INTO co (c_f4) SELECT s_f4 FROM cs RETURNING c_f4;
INSERT INTO co (c_f4) SELECT s_f8 FROM cs RETURNING c_f4;
INSERT INTO co (c_f4) SELECT s_text FROM cs RETURNING c_f4;
INSERT INTO co (c_f4) SELECT s_vc FROM cs RETURNING c_f4;
INSERT INTO co (c_f4) SELECT s_ch FROM cs RETURNING c_f4;
INSERT INTO co (c_f4) SELECT s_bool FROM cs RETURNING c_f4;
INSERT INTO co (c_f4) SELECT s_date FROM cs RETURNING c_f4;
INSERT INTO co (c_f4) SELECT s_ts FROM cs RETURNING c_f4;
INSERT INTO co (c_f8) SELECT s_int2 FROM cs RETURNING c_f8;
INSERT INTO co (c_f8) SELECT s_int4 FROM cs RETURNING c_f8;
INSERT INTO co (c_f8) SELECT s_int8 FROM cs RETURNING c_f8;
INSERT INTO co (c_f8) SELECT s_num FROM cs RETURNING c_f8;
INSERT INTO co (c_f8) SELECT s_f4 FROM cs RETURNING c_f8;
INSERT INTO co (c_f8) SELECT s_f8 FROM cs RETURNING c_f8;
INSERT INTO co (c_f8) SELECT s_text FROM cs RETURNING c_f8;
INSERT INTO co (c_f8) SELECT s_vc FROM cs RETURNING c_f8;
INSERT INTO co (c_f8) SELECT s_ch FROM cs RETURNING c_f8;
INSERT INTO co (c_f8) SELECT s_bool FROM cs RETURNING c_f8;
INSERT INTO co (c_f8) SELECT s_date FROM cs RETURNING c_f8;
INSERT INTO co (c_f8) SELECT s_ts FROM cs RETURNING c_f8;
INSERT INTO co (c_text) SELECT s_int2 FROM cs RETURNING c_text;
INSERT INTO co (c_text) SELECT s_int4 FROM cs RETURNING c_text;
INSERT INTO co (c_text) SELECT s_int8 FROM cs RETURNING c_text;
INSERT INTO co (c_text) SELECT s_num FROM cs RETURNING c_text;
INSERT INTO co (c_text) SELECT s_f4 FROM cs RETURNING c_text;
INSERT INTO co (c_text) SELECT s_f8 FROM cs RETURNING c_text;
INSERT INTO co (c_text) SELECT s_text FROM cs RETURNING c_text;
INSERT INTO co (c_text) SELECT s_vc FROM cs RETURNING c_text;
INSERT INTO co (c_text) SELECT s_ch FROM cs RETURNING c_text;
INSERT INTO co (c_text) SELECT s_bool FROM cs RETURNING c_text;
INSERT INTO co (c_text) SELECT s_date FROM cs RETURNING c_text;
INSERT INTO co (c_text) SELECT s_ts FROM cs RETURNING c_text;
INSERT INTO co (c_vc) SELECT s_int2 FROM cs RETURNING c_vc;
INSERT INTO co (c_vc) SELECT s_int4 FROM cs RETURNING c_vc;
INSERT INTO co (c_vc) SELECT s_int8 FROM cs RETURNING c_vc;
INSERT INTO co (c_vc) SELECT s_num FROM cs RETURNING c_vc;
INSERT INTO co (c_vc) SELECT s_f4 FROM cs RETURNING c_vc;
INSERT INTO co (c_vc) SELECT s_f8 FROM cs RETURNING c_vc;
INSERT INTO co (c_vc) SELECT s_text FROM cs RETURNING c_vc;
INSERT INTO co (c_vc) SELECT s_vc FROM cs RETURNING c_vc;
INSERT INTO co (c_vc) SELECT s_ch FROM cs RETURNING c_vc;
INSERT INTO co (c_vc) SELECT s_bool FROM cs RETURNING c_vc;
INSERT INTO co (c_vc) SELECT s_date FROM cs RETURNING c_vc;
INSERT INTO co (c_vc) SELECT s_ts FROM cs RETURNING c_vc;
INSERT INTO co (c_ch) SELECT s_int2 FROM cs RETURNING c_ch;
INSERT INTO co (c_ch) SELECT s_int4 FROM cs RETURNING c_ch;
INSERT INTO co (c_ch) SELECT s_int8 FROM cs RETURNING c_ch;
INSERT INTO co (c_ch) SELECT s_num FROM cs RETURNING c_ch;
INSERT INTO co (c_ch) SELECT s_f4 FROM cs RETURNING c_ch;
INSERT INTO co (c_ch) SELECT s_f8 FROM cs RETURNING c_ch;
INSERT INTO co (c_ch) SELECT s_text FROM cs RETURNING c_ch;
INSERT INTO co (c_ch) SELECT s_vc FROM cs RETURNING c_ch;
INSERT INTO co (c_ch) SELECT s_ch FROM cs RETURNING c_ch;
INSERT INTO co (c_ch) SELECT s_bool FROM cs RETURNING c_ch;
INSERT INTO co (c_ch) SELECT s_date FROM cs RETURNING c_ch;
INSERT INTO co (c_ch) SELECT s_ts FROM cs RETURNING c_ch;
INSERT INTO co (c_bool) SELECT s_int2 FROM cs RETURNING c_bool;
INSERT INTO co (c_bool) SELECT s_int4 FROM cs RETURNING c_bool;
INSERT INTO co (c_bool) SELECT s_int8 FROM cs RETURNING c_bool;
INSERT INTO co (c_bool) SELECT s_num FROM cs RETURNING c_bool;
INSERT INTO co (c_bool) SELECT s_f4 FROM cs RETURNING c_bool;
INSERT INTO co (c_bool) SELECT s_f8 FROM cs RETURNING c_bool;
INSERT INTO co (c_bool) SELECT s_text FROM cs RETURNING c_bool;
INSERT INTO co (c_bool) SELECT s_vc FROM cs RETURNING c_bool;
INSERT INTO co (c_bool) SELECT s_ch FROM cs RETURNING c_bool;
INSERT INTO co (c_bool) SELECT s_bool FROM cs RETURNING c_bool;
INSERT INTO co (c_bool) SELECT s_date FROM cs RETURNING c_bool;
INSERT INTO co (c_bool) SELECT s_ts FROM cs RETURNING c_bool;
INSERT INTO co (c_date) SELECT s_int2 FROM cs RETURNING c_date;
INSERT INTO co (c_date) SELECT s_int4 FROM cs RETURNING c_date;
INSERT INTO co (c_date) SELECT s_int8 FROM cs RETURNING c_date;
INSERT INTO co (c_date) SELECT s_num FROM cs RETURNING c_date;
INSERT INTO co (c_date) SELECT s_f4 FROM cs RETURNING c_date;
INSERT INTO co (c_date) SELECT s_f8 FROM cs RETURNING c_date;
INSERT INTO co (c_date) SELECT s_text FROM cs RETURNING c_date;
INSERT INTO co (c_date) SELECT s_vc FROM cs RETURNING c_date;
INSERT INTO co (c_date) SELECT s_ch FROM cs RETURNING c_date;
INSERT INTO co (c_date) SELECT s_bool FROM cs RETURNING c_date;
INSERT INTO co (c_date) SELECT s_date FROM cs RETURNING c_date;
INSERT INTO co (c_date) SELECT s_ts FROM cs RETURNING c_date;
INSERT INTO co (c_ts) SELECT s_int2 FROM cs RETURNING c_ts;
INSERT INTO co (c_ts) SELECT s_int4 FROM cs RETURNING c_ts;
INSERT INTO co (c_ts) SELECT s_int8 FROM cs RETURNING c_ts;
INSERT INTO co (c_ts) SELECT s_num FROM cs RETURNING c_ts;
INSERT INTO co (c_ts) SELECT s_f4 FROM cs RETURNING c_ts;
INSERT INTO co (c_ts) SELECT s_f8 FROM cs RETURNING c_ts;
INSERT INTO co (c_ts) SELECT s_text FROM cs RETURNING c_ts;
INSERT INTO co (c_ts) SELECT s_vc FROM cs RETURNING c_ts;
INSERT INTO co (c_ts) SELECT s_ch FROM cs RETURNING c_ts;
INSERT INTO co (c_ts) SELECT s_bool FROM cs RETURNING c_ts;
INSERT INTO co (c_ts) SELECT s_date FROM cs RETURNING c_ts;
INSERT INTO co (c_ts) SELECT s_ts FROM cs RETURNING c_ts;
-- UPDATE SET from each column type (one row)
UPDATE cu SET c_int2 = c_int4 RETURNING c_int2;
UPDATE cu SET c_int2 = c_int8 RETURNING c_int2;
UPDATE cu SET c_int2 = c_num RETURNING c_int2;
UPDATE cu SET c_int2 = c_f4 RETURNING c_int2;
UPDATE cu SET c_int2 = c_f8 RETURNING c_int2;
UPDATE cu SET c_int2 = c_text RETURNING c_int2;
UPDATE cu SET c_int2 = c_vc RETURNING c_int2;
UPDATE cu SET c_int2 = c_ch RETURNING c_int2;
UPDATE cu SET c_int2 = c_bool RETURNING c_int2;
UPDATE cu SET c_int2 = c_date RETURNING c_int2;
UPDATE cu SET c_int2 = c_ts RETURNING c_int2;
UPDATE cu SET c_int4 = c_int2 RETURNING c_int4;
UPDATE cu SET c_int4 = c_int8 RETURNING c_int4;
UPDATE cu SET c_int4 = c_num RETURNING c_int4;
UPDATE cu SET c_int4 = c_f4 RETURNING c_int4;
UPDATE cu SET c_int4 = c_f8 RETURNING c_int4;
UPDATE cu SET c_int4 = c_text RETURNING c_int4;
UPDATE cu SET c_int4 = c_vc RETURNING c_int4;
UPDATE cu SET c_int4 = c_ch RETURNING c_int4;
UPDATE cu SET c_int4 = c_bool RETURNING c_int4;
UPDATE cu SET c_int4 = c_date RETURNING c_int4;
UPDATE cu SET c_int4 = c_ts RETURNING c_int4;
UPDATE cu SET c_int8 = c_int2 RETURNING c_int8;
UPDATE cu SET c_int8 = c_int4 RETURNING c_int8;
UPDATE cu SET c_int8 = c_num RETURNING c_int8;
UPDATE cu SET c_int8 = c_f4 RETURNING c_int8;
UPDATE cu SET c_int8 = c_f8 RETURNING c_int8;
UPDATE cu SET c_int8 = c_text RETURNING c_int8;
UPDATE cu SET c_int8 = c_vc RETURNING c_int8;
UPDATE cu SET c_int8 = c_ch RETURNING c_int8;
UPDATE cu SET c_int8 = c_bool RETURNING c_int8;
UPDATE cu SET c_int8 = c_date RETURNING c_int8;
UPDATE cu SET c_int8 = c_ts RETURNING c_int8;
UPDATE cu SET c_num = c_int2 RETURNING c_num;
UPDATE cu SET c_num = c_int4 RETURNING c_num;
UPDATE cu SET c_num = c_int8 RETURNING c_num;
UPDATE cu SET c_num = c_f4 RETURNING c_num;
UPDATE cu SET c_num = c_f8 RETURNING c_num;
UPDATE cu SET c_num = c_text RETURNING c_num;
UPDATE cu SET c_num = c_vc RETURNING c_num;
UPDATE cu SET c_num = c_ch RETURNING c_num;
UPDATE cu SET c_num = c_bool RETURNING c_num;
UPDATE cu SET c_num = c_date RETURNING c_num;
UPDATE cu SET c_num = c_ts RETURNING c_num;
UPDATE cu SET c_f4 = c_int2 RETURNING c_f4;
UPDATE cu SET c_f4 = c_int4 RETURNING c_f4;
UPDATE cu SET c_f4 = c_int8 RETURNING c_f4;
UPDATE cu SET c_f4 = c_num RETURNING c_f4;
UPDATE cu SET c_f4 = c_f8 RETURNING c_f4;
UPDATE cu SET c_f4 = c_text RETURNING c_f4;
UPDATE cu SET c_f4 = c_vc RETURNING c_f4;
UPDATE cu SET c_f4 = c_ch RETURNING c_f4;
UPDATE cu SET c_f4 = c_bool RETURNING c_f4;
UPDATE cu SET c_f4 = c_date RETURNING c_f4;
UPDATE cu SET c_f4 = c_ts RETURNING c_f4;
UPDATE cu SET c_f8 = c_int2 RETURNING c_f8;
UPDATE cu SET c_f8 = c_int4 RETURNING c_f8;
UPDATE cu SET c_f8 = c_int8 RETURNING c_f8;
UPDATE cu SET c_f8 = c_num RETURNING c_f8;
UPDATE cu SET c_f8 = c_f4 RETURNING c_f8;
UPDATE cu SET c_f8 = c_text RETURNING c_f8;
UPDATE cu SET c_f8 = c_vc RETURNING c_f8;
UPDATE cu SET c_f8 = c_ch RETURNING c_f8;
UPDATE cu SET c_f8 = c_bool RETURNING c_f8;
UPDATE cu SET c_f8 = c_date RETURNING c_f8;
UPDATE cu SET c_f8 = c_ts RETURNING c_f8;
UPDATE cu SET c_text = c_int2 RETURNING c_text;
UPDATE cu SET c_text = c_int4 RETURNING c_text;
UPDATE cu SET c_text = c_int8 RETURNING c_text;
UPDATE cu SET c_text = c_num RETURNING c_text;
UPDATE cu SET c_text = c_f4 RETURNING c_text;
UPDATE cu SET c_text = c_f8 RETURNING c_text;
UPDATE cu SET c_text = c_vc RETURNING c_text;
UPDATE cu SET c_text = c_ch RETURNING c_text;
UPDATE cu SET c_text = c_bool RETURNING c_text;
UPDATE cu SET c_text = c_date RETURNING c_text;
UPDATE cu SET c_text = c_ts RETURNING c_text;
UPDATE cu SET c_vc = c_int2 RETURNING c_vc;
UPDATE cu SET c_vc = c_int4 RETURNING c_vc;
UPDATE cu SET c_vc = c_int8 RETURNING c_vc;
UPDATE cu SET c_vc = c_num RETURNING c_vc;
UPDATE cu SET c_vc = c_f4 RETURNING c_vc;
UPDATE cu SET c_vc = c_f8 RETURNING c_vc;
UPDATE cu SET c_vc = c_text RETURNING c_vc;
UPDATE cu SET c_vc = c_ch RETURNING c_vc;
UPDATE cu SET c_vc = c_bool RETURNING c_vc;
UPDATE cu SET c_vc = c_date RETURNING c_vc;
UPDATE cu SET c_vc = c_ts RETURNING c_vc;
UPDATE cu SET c_ch = c_int2 RETURNING c_ch;
UPDATE cu SET c_ch = c_int4 RETURNING c_ch;
UPDATE cu SET c_ch = c_int8 RETURNING c_ch;
UPDATE cu SET c_ch = c_num RETURNING c_ch;
UPDATE cu SET c_ch = c_f4 RETURNING c_ch;
UPDATE cu SET c_ch = c_f8 RETURNING c_ch;
UPDATE cu SET c_ch = c_text RETURNING c_ch;
UPDATE cu SET c_ch = c_vc RETURNING c_ch;
UPDATE cu SET c_ch = c_bool RETURNING c_ch;
UPDATE cu SET c_ch = c_date RETURNING c_ch;
UPDATE cu SET c_ch = c_ts RETURNING c_ch;
UPDATE cu SET c_bool = c_int2 RETURNING c_bool;
UPDATE cu SET c_bool = c_int4 RETURNING c_bool;
UPDATE cu SET c_bool = c_int8 RETURNING c_bool;
UPDATE cu SET c_bool = c_num RETURNING c_bool;
UPDATE cu SET c_bool = c_f4 RETURNING c_bool;
UPDATE cu SET c_bool = c_f8 RETURNING c_bool;
UPDATE cu SET c_bool = c_text RETURNING c_bool;
UPDATE cu SET c_bool = c_vc RETURNING c_bool;
UPDATE cu SET c_bool = c_ch RETURNING c_bool;
UPDATE cu SET c_bool = c_date RETURNING c_bool;
UPDATE cu SET c_bool = c_ts RETURNING c_bool;
UPDATE cu SET c_date = c_int2 RETURNING c_date;
UPDATE cu SET c_date = c_int4 RETURNING c_date;
UPDATE cu SET c_date = c_int8 RETURNING c_date;
UPDATE cu SET c_date = c_num RETURNING c_date;
UPDATE cu SET c_date = c_f4 RETURNING c_date;
UPDATE cu SET c_date = c_f8 RETURNING c_date;
UPDATE cu SET c_date = c_text RETURNING c_date;
UPDATE cu SET c_date = c_vc RETURNING c_date;
UPDATE cu SET c_date = c_ch RETURNING c_date;
UPDATE cu SET c_date = c_bool RETURNING c_date;
UPDATE cu SET c_date = c_ts RETURNING c_date;
UPDATE cu SET c_ts = c_int2 RETURNING c_ts;
UPDATE cu SET c_ts = c_int4 RETURNING c_ts;
UPDATE cu SET c_ts = c_int8 RETURNING c_ts;
UPDATE cu SET c_ts = c_num RETURNING c_ts;
UPDATE cu SET c_ts = c_f4 RETURNING c_ts;
UPDATE cu SET c_ts = c_f8 RETURNING c_ts;
UPDATE cu SET c_ts = c_text RETURNING c_ts;
UPDATE cu SET c_ts = c_vc RETURNING c_ts;
UPDATE cu SET c_ts = c_ch RETURNING c_ts;
UPDATE cu SET c_ts = c_bool RETURNING c_ts;
UPDATE cu SET c_ts = c_date RETURNING c_ts;
-- the error also points at the expression in a multi-row VALUES and after other columns
INSERT INTO co (c_int4, c_ts) VALUES (11, true);
INSERT INTO co (c_int4, c_date) VALUES (1, '2024-01-01'), (2, 3);
INSERT INTO co (c_int4, c_bool) SELECT 1, s_int4 FROM cs;
UPDATE cu SET c_int4 = 1, c_bool = c_int4 + 1;
INSERT INTO co (c_ts) VALUES (true::int::bool);
-- quoted literals, NULL and untyped SELECT targets
INSERT INTO co (c_int2) VALUES ('70000');
INSERT INTO co (c_int2) SELECT '70000';
UPDATE cu SET c_int2 = '70000';
INSERT INTO co (c_int2) VALUES (NULL) RETURNING c_int2;
INSERT INTO co (c_int4) VALUES ('abc');
INSERT INTO co (c_int4) SELECT 'abc';
UPDATE cu SET c_int4 = 'abc';
INSERT INTO co (c_int4) VALUES (NULL) RETURNING c_int4;
INSERT INTO co (c_int8) VALUES ('1.5');
INSERT INTO co (c_int8) SELECT '1.5';
UPDATE cu SET c_int8 = '1.5';
INSERT INTO co (c_int8) VALUES (NULL) RETURNING c_int8;
INSERT INTO co (c_num) VALUES ('12345.678');
INSERT INTO co (c_num) SELECT '12345.678';
UPDATE cu SET c_num = '12345.678';
INSERT INTO co (c_num) VALUES (NULL) RETURNING c_num;
INSERT INTO co (c_f4) VALUES ('1e40');
INSERT INTO co (c_f4) SELECT '1e40';
UPDATE cu SET c_f4 = '1e40';
INSERT INTO co (c_f4) VALUES (NULL) RETURNING c_f4;
INSERT INTO co (c_f8) VALUES ('x1');
INSERT INTO co (c_f8) SELECT 'x1';
UPDATE cu SET c_f8 = 'x1';
INSERT INTO co (c_f8) VALUES (NULL) RETURNING c_f8;
INSERT INTO co (c_text) VALUES ('x');
INSERT INTO co (c_text) SELECT 'x';
UPDATE cu SET c_text = 'x';
INSERT INTO co (c_text) VALUES (NULL) RETURNING c_text;
INSERT INTO co (c_vc) VALUES ('123456');
INSERT INTO co (c_vc) SELECT '123456';
UPDATE cu SET c_vc = '123456';
INSERT INTO co (c_vc) VALUES (NULL) RETURNING c_vc;
INSERT INTO co (c_ch) VALUES ('abcd');
INSERT INTO co (c_ch) SELECT 'abcd';
UPDATE cu SET c_ch = 'abcd';
INSERT INTO co (c_ch) VALUES (NULL) RETURNING c_ch;
INSERT INTO co (c_bool) VALUES ('maybe');
INSERT INTO co (c_bool) SELECT 'maybe';
UPDATE cu SET c_bool = 'maybe';
INSERT INTO co (c_bool) VALUES (NULL) RETURNING c_bool;
INSERT INTO co (c_date) VALUES ('2024-13-01');
INSERT INTO co (c_date) SELECT '2024-13-01';
UPDATE cu SET c_date = '2024-13-01';
INSERT INTO co (c_date) VALUES (NULL) RETURNING c_date;
INSERT INTO co (c_ts) VALUES ('2024-01-02 25:00');
INSERT INTO co (c_ts) SELECT '2024-01-02 25:00';
UPDATE cu SET c_ts = '2024-01-02 25:00';
INSERT INTO co (c_ts) VALUES (NULL) RETURNING c_ts;
-- an INSERT's SELECT leaves unknown literals to the target column unless it
-- groups, sorts or DISTINCTs them (then they are text)
INSERT INTO co (c_int4) SELECT 'x' FROM cs GROUP BY 1;
INSERT INTO co (c_int4) SELECT '5' FROM cs GROUP BY 1;
INSERT INTO co (c_int4, c_text) SELECT '5', '5' FROM cs GROUP BY 2 RETURNING c_int4, c_text;
INSERT INTO co (c_int4) SELECT DISTINCT '6' FROM cs;
INSERT INTO co (c_int4) SELECT '7' FROM cs ORDER BY 1;
INSERT INTO co (c_int4) SELECT '8' FROM cs GROUP BY s_text RETURNING c_int4;
INSERT INTO co (c_date, c_text) SELECT '2024-02-03', max(s_text) FROM cs RETURNING c_date, c_text;
INSERT INTO co (c_bool) SELECT 'yes' FROM cs ORDER BY s_int4 LIMIT 1 RETURNING c_bool;
INSERT INTO co (c_num) SELECT '1.005' WHERE true RETURNING c_num;
-- run-time range and length checks
INSERT INTO co (c_int2) VALUES (70000);
INSERT INTO co (c_int2) SELECT 70000;
INSERT INTO co (c_int4) VALUES (5000000000);
INSERT INTO co (c_int4) VALUES (1e10);
INSERT INTO co (c_int8) VALUES ('1e19'::float8);
INSERT INTO co (c_num) VALUES (12345.678);
INSERT INTO co (c_num) VALUES ('1e10'::float8);
INSERT INTO co (c_f4) VALUES (1e40);
INSERT INTO co (c_vc) VALUES ('123456'::text);
INSERT INTO co (c_ch) VALUES (12345);
INSERT INTO co (c_vc) VALUES ('12345   '::text) RETURNING c_vc;
UPDATE cu SET c_int2 = 40000;
UPDATE cu SET c_vc = now()::timestamp;
INSERT INTO co (c_date) VALUES ('infinity'::timestamp) RETURNING c_date;
INSERT INTO co (c_int4) VALUES ('NaN'::float8);
INSERT INTO co (c_int8) VALUES ('NaN'::numeric);
INSERT INTO co (c_int2) VALUES ('-Infinity'::numeric);
INSERT INTO co (c_num) VALUES ('Infinity'::float8);
INSERT INTO co (c_num) VALUES ('NaN'::real) RETURNING c_num;
INSERT INTO co (c_f4) VALUES (1e-50::float8);
INSERT INTO co (c_int2) VALUES (32767.5);
INSERT INTO co (c_int2) VALUES (-32768.4::float8) RETURNING c_int2;
INSERT INTO co (c_ts) VALUES ('infinity'::date) RETURNING c_ts;
INSERT INTO co (c_ts) VALUES ('294276-12-31'::date);
INSERT INTO co (c_text) VALUES ('-0'::float8), (1e100::float8), (0.1::real), (1e-7::numeric) RETURNING c_text;
INSERT INTO co (c_ch) VALUES ('ab '::varchar), (true), ('2024-01-02'::date) RETURNING c_ch, length(c_ch);
-- COPY text: a bad value in each column
COPY co (c_text, c_int2) FROM STDIN;
a	70000
\.
COPY co (c_text, c_int2) FROM STDIN (FORMAT csv);
a,"70000"
\.
COPY co (c_text, c_int4) FROM STDIN;
a	abc
\.
COPY co (c_text, c_int4) FROM STDIN (FORMAT csv);
a,"abc"
\.
COPY co (c_text, c_int8) FROM STDIN;
a	1.5
\.
COPY co (c_text, c_int8) FROM STDIN (FORMAT csv);
a,"1.5"
\.
COPY co (c_text, c_num) FROM STDIN;
a	12345.678
\.
COPY co (c_text, c_num) FROM STDIN (FORMAT csv);
a,"12345.678"
\.
COPY co (c_text, c_f4) FROM STDIN;
a	1e40
\.
COPY co (c_text, c_f4) FROM STDIN (FORMAT csv);
a,"1e40"
\.
COPY co (c_text, c_f8) FROM STDIN;
a	x1
\.
COPY co (c_text, c_f8) FROM STDIN (FORMAT csv);
a,"x1"
\.
COPY co (c_text, c_vc) FROM STDIN;
a	123456
\.
COPY co (c_text, c_vc) FROM STDIN (FORMAT csv);
a,"123456"
\.
COPY co (c_text, c_ch) FROM STDIN;
a	abcd
\.
COPY co (c_text, c_ch) FROM STDIN (FORMAT csv);
a,"abcd"
\.
COPY co (c_text, c_bool) FROM STDIN;
a	maybe
\.
COPY co (c_text, c_bool) FROM STDIN (FORMAT csv);
a,"maybe"
\.
COPY co (c_text, c_date) FROM STDIN;
a	2024-13-01
\.
COPY co (c_text, c_date) FROM STDIN (FORMAT csv);
a,"2024-13-01"
\.
COPY co (c_text, c_ts) FROM STDIN;
a	2024-01-02 25:00
\.
COPY co (c_text, c_ts) FROM STDIN (FORMAT csv);
a,"2024-01-02 25:00"
\.
COPY co (c_int4, c_date) FROM STDIN;
1	2024-01-01
2	not a date
\.
COPY co (c_int4, c_bool) FROM STDIN (FORMAT csv);
1,t
2,
3,x
\.
SELECT count(*) FROM co;
-- DEFAULT expressions are assigned to the column type when the table is created
CREATE TABLE cd1 (a int DEFAULT true);
CREATE TABLE cd2 (a timestamp DEFAULT 1);
CREATE TABLE cd3 (a int DEFAULT 'x');
CREATE TABLE cd4 (a varchar(2) DEFAULT 'xyz', b date DEFAULT '2024-01-01'::timestamp);
INSERT INTO cd4 DEFAULT VALUES;
INSERT INTO cd4 (b) VALUES (DEFAULT) RETURNING b;
INSERT INTO cd4 (a) VALUES ('ab') RETURNING a, b;
UPDATE cd4 SET a = DEFAULT;
DROP TABLE cd4;
-- star-expanded and counted source columns
INSERT INTO co (c_ts, c_int4) SELECT * FROM cs;
INSERT INTO co (c_int4) SELECT * FROM cs;
INSERT INTO co (c_int4, c_int8) SELECT s_int4 FROM cs;
INSERT INTO co (c_int4) SELECT 1 + 2, 'x';
SELECT 1 LIMIT true;
SELECT 1 OFFSET '2024-01-01'::date;
-- the same statements, SQLSTATE only
\set VERBOSITY sqlstate
INSERT INTO co (c_int2) VALUES ('7'::int2) RETURNING c_int2;
INSERT INTO co (c_int2) VALUES (7) RETURNING c_int2;
INSERT INTO co (c_int2) VALUES (7::int8) RETURNING c_int2;
INSERT INTO co (c_int2) VALUES (7.5) RETURNING c_int2;
INSERT INTO co (c_int2) VALUES ('7.5'::real) RETURNING c_int2;
INSERT INTO co (c_int2) VALUES ('7.5'::float8) RETURNING c_int2;
INSERT INTO co (c_int2) VALUES ('7'::text) RETURNING c_int2;
INSERT INTO co (c_int2) VALUES ('7'::varchar) RETURNING c_int2;
INSERT INTO co (c_int2) VALUES ('7'::char(3)) RETURNING c_int2;
INSERT INTO co (c_int2) VALUES (true) RETURNING c_int2;
INSERT INTO co (c_int2) VALUES ('2024-01-02'::date) RETURNING c_int2;
INSERT INTO co (c_int2) VALUES ('2024-01-02 03:04:05'::timestamp) RETURNING c_int2;
INSERT INTO co (c_int4) VALUES ('7'::int2) RETURNING c_int4;
INSERT INTO co (c_int4) VALUES (7) RETURNING c_int4;
INSERT INTO co (c_int4) VALUES (7::int8) RETURNING c_int4;
INSERT INTO co (c_int4) VALUES (7.5) RETURNING c_int4;
INSERT INTO co (c_int4) VALUES ('7.5'::real) RETURNING c_int4;
INSERT INTO co (c_int4) VALUES ('7.5'::float8) RETURNING c_int4;
INSERT INTO co (c_int4) VALUES ('7'::text) RETURNING c_int4;
INSERT INTO co (c_int4) VALUES ('7'::varchar) RETURNING c_int4;
INSERT INTO co (c_int4) VALUES ('7'::char(3)) RETURNING c_int4;
INSERT INTO co (c_int4) VALUES (true) RETURNING c_int4;
INSERT INTO co (c_int4) VALUES ('2024-01-02'::date) RETURNING c_int4;
INSERT INTO co (c_int4) VALUES ('2024-01-02 03:04:05'::timestamp) RETURNING c_int4;
INSERT INTO co (c_int8) VALUES ('7'::int2) RETURNING c_int8;
INSERT INTO co (c_int8) VALUES (7) RETURNING c_int8;
INSERT INTO co (c_int8) VALUES (7::int8) RETURNING c_int8;
INSERT INTO co (c_int8) VALUES (7.5) RETURNING c_int8;
INSERT INTO co (c_int8) VALUES ('7.5'::real) RETURNING c_int8;
INSERT INTO co (c_int8) VALUES ('7.5'::float8) RETURNING c_int8;
INSERT INTO co (c_int8) VALUES ('7'::text) RETURNING c_int8;
INSERT INTO co (c_int8) VALUES ('7'::varchar) RETURNING c_int8;
INSERT INTO co (c_int8) VALUES ('7'::char(3)) RETURNING c_int8;
INSERT INTO co (c_int8) VALUES (true) RETURNING c_int8;
INSERT INTO co (c_int8) VALUES ('2024-01-02'::date) RETURNING c_int8;
INSERT INTO co (c_int8) VALUES ('2024-01-02 03:04:05'::timestamp) RETURNING c_int8;
INSERT INTO co (c_num) VALUES ('7'::int2) RETURNING c_num;
INSERT INTO co (c_num) VALUES (7) RETURNING c_num;
INSERT INTO co (c_num) VALUES (7::int8) RETURNING c_num;
INSERT INTO co (c_num) VALUES (7.5) RETURNING c_num;
INSERT INTO co (c_num) VALUES ('7.5'::real) RETURNING c_num;
INSERT INTO co (c_num) VALUES ('7.5'::float8) RETURNING c_num;
INSERT INTO co (c_num) VALUES ('7'::text) RETURNING c_num;
INSERT INTO co (c_num) VALUES ('7'::varchar) RETURNING c_num;
INSERT INTO co (c_num) VALUES ('7'::char(3)) RETURNING c_num;
INSERT INTO co (c_num) VALUES (true) RETURNING c_num;
INSERT INTO co (c_num) VALUES ('2024-01-02'::date) RETURNING c_num;
INSERT INTO co (c_num) VALUES ('2024-01-02 03:04:05'::timestamp) RETURNING c_num;
INSERT INTO co (c_f4) VALUES ('7'::int2) RETURNING c_f4;
INSERT INTO co (c_f4) VALUES (7) RETURNING c_f4;
INSERT INTO co (c_f4) VALUES (7::int8) RETURNING c_f4;
INSERT INTO co (c_f4) VALUES (7.5) RETURNING c_f4;
INSERT INTO co (c_f4) VALUES ('7.5'::real) RETURNING c_f4;
INSERT INTO co (c_f4) VALUES ('7.5'::float8) RETURNING c_f4;
INSERT INTO co (c_f4) VALUES ('7'::text) RETURNING c_f4;
INSERT INTO co (c_f4) VALUES ('7'::varchar) RETURNING c_f4;
INSERT INTO co (c_f4) VALUES ('7'::char(3)) RETURNING c_f4;
INSERT INTO co (c_f4) VALUES (true) RETURNING c_f4;
INSERT INTO co (c_f4) VALUES ('2024-01-02'::date) RETURNING c_f4;
INSERT INTO co (c_f4) VALUES ('2024-01-02 03:04:05'::timestamp) RETURNING c_f4;
INSERT INTO co (c_f8) VALUES ('7'::int2) RETURNING c_f8;
INSERT INTO co (c_f8) VALUES (7) RETURNING c_f8;
INSERT INTO co (c_f8) VALUES (7::int8) RETURNING c_f8;
INSERT INTO co (c_f8) VALUES (7.5) RETURNING c_f8;
INSERT INTO co (c_f8) VALUES ('7.5'::real) RETURNING c_f8;
INSERT INTO co (c_f8) VALUES ('7.5'::float8) RETURNING c_f8;
INSERT INTO co (c_f8) VALUES ('7'::text) RETURNING c_f8;
INSERT INTO co (c_f8) VALUES ('7'::varchar) RETURNING c_f8;
INSERT INTO co (c_f8) VALUES ('7'::char(3)) RETURNING c_f8;
INSERT INTO co (c_f8) VALUES (true) RETURNING c_f8;
INSERT INTO co (c_f8) VALUES ('2024-01-02'::date) RETURNING c_f8;
INSERT INTO co (c_f8) VALUES ('2024-01-02 03:04:05'::timestamp) RETURNING c_f8;
INSERT INTO co (c_text) VALUES ('7'::int2) RETURNING c_text;
INSERT INTO co (c_text) VALUES (7) RETURNING c_text;
INSERT INTO co (c_text) VALUES (7::int8) RETURNING c_text;
INSERT INTO co (c_text) VALUES (7.5) RETURNING c_text;
INSERT INTO co (c_text) VALUES ('7.5'::real) RETURNING c_text;
INSERT INTO co (c_text) VALUES ('7.5'::float8) RETURNING c_text;
INSERT INTO co (c_text) VALUES ('7'::text) RETURNING c_text;
INSERT INTO co (c_text) VALUES ('7'::varchar) RETURNING c_text;
INSERT INTO co (c_text) VALUES ('7'::char(3)) RETURNING c_text;
INSERT INTO co (c_text) VALUES (true) RETURNING c_text;
INSERT INTO co (c_text) VALUES ('2024-01-02'::date) RETURNING c_text;
INSERT INTO co (c_text) VALUES ('2024-01-02 03:04:05'::timestamp) RETURNING c_text;
INSERT INTO co (c_vc) VALUES ('7'::int2) RETURNING c_vc;
INSERT INTO co (c_vc) VALUES (7) RETURNING c_vc;
INSERT INTO co (c_vc) VALUES (7::int8) RETURNING c_vc;
INSERT INTO co (c_vc) VALUES (7.5) RETURNING c_vc;
INSERT INTO co (c_vc) VALUES ('7.5'::real) RETURNING c_vc;
INSERT INTO co (c_vc) VALUES ('7.5'::float8) RETURNING c_vc;
INSERT INTO co (c_vc) VALUES ('7'::text) RETURNING c_vc;
INSERT INTO co (c_vc) VALUES ('7'::varchar) RETURNING c_vc;
INSERT INTO co (c_vc) VALUES ('7'::char(3)) RETURNING c_vc;
INSERT INTO co (c_vc) VALUES (true) RETURNING c_vc;
INSERT INTO co (c_vc) VALUES ('2024-01-02'::date) RETURNING c_vc;
INSERT INTO co (c_vc) VALUES ('2024-01-02 03:04:05'::timestamp) RETURNING c_vc;
INSERT INTO co (c_ch) VALUES ('7'::int2) RETURNING c_ch;
INSERT INTO co (c_ch) VALUES (7) RETURNING c_ch;
INSERT INTO co (c_ch) VALUES (7::int8) RETURNING c_ch;
INSERT INTO co (c_ch) VALUES (7.5) RETURNING c_ch;
INSERT INTO co (c_ch) VALUES ('7.5'::real) RETURNING c_ch;
INSERT INTO co (c_ch) VALUES ('7.5'::float8) RETURNING c_ch;
INSERT INTO co (c_ch) VALUES ('7'::text) RETURNING c_ch;
INSERT INTO co (c_ch) VALUES ('7'::varchar) RETURNING c_ch;
INSERT INTO co (c_ch) VALUES ('7'::char(3)) RETURNING c_ch;
INSERT INTO co (c_ch) VALUES (true) RETURNING c_ch;
INSERT INTO co (c_ch) VALUES ('2024-01-02'::date) RETURNING c_ch;
INSERT INTO co (c_ch) VALUES ('2024-01-02 03:04:05'::timestamp) RETURNING c_ch;
INSERT INTO co (c_bool) VALUES ('7'::int2) RETURNING c_bool;
INSERT INTO co (c_bool) VALUES (7) RETURNING c_bool;
INSERT INTO co (c_bool) VALUES (7::int8) RETURNING c_bool;
INSERT INTO co (c_bool) VALUES (7.5) RETURNING c_bool;
INSERT INTO co (c_bool) VALUES ('7.5'::real) RETURNING c_bool;
INSERT INTO co (c_bool) VALUES ('7.5'::float8) RETURNING c_bool;
INSERT INTO co (c_bool) VALUES ('7'::text) RETURNING c_bool;
INSERT INTO co (c_bool) VALUES ('7'::varchar) RETURNING c_bool;
INSERT INTO co (c_bool) VALUES ('7'::char(3)) RETURNING c_bool;
INSERT INTO co (c_bool) VALUES (true) RETURNING c_bool;
INSERT INTO co (c_bool) VALUES ('2024-01-02'::date) RETURNING c_bool;
INSERT INTO co (c_bool) VALUES ('2024-01-02 03:04:05'::timestamp) RETURNING c_bool;
INSERT INTO co (c_date) VALUES ('7'::int2) RETURNING c_date;
INSERT INTO co (c_date) VALUES (7) RETURNING c_date;
INSERT INTO co (c_date) VALUES (7::int8) RETURNING c_date;
INSERT INTO co (c_date) VALUES (7.5) RETURNING c_date;
INSERT INTO co (c_date) VALUES ('7.5'::real) RETURNING c_date;
INSERT INTO co (c_date) VALUES ('7.5'::float8) RETURNING c_date;
INSERT INTO co (c_date) VALUES ('7'::text) RETURNING c_date;
INSERT INTO co (c_date) VALUES ('7'::varchar) RETURNING c_date;
INSERT INTO co (c_date) VALUES ('7'::char(3)) RETURNING c_date;
INSERT INTO co (c_date) VALUES (true) RETURNING c_date;
INSERT INTO co (c_date) VALUES ('2024-01-02'::date) RETURNING c_date;
INSERT INTO co (c_date) VALUES ('2024-01-02 03:04:05'::timestamp) RETURNING c_date;
INSERT INTO co (c_ts) VALUES ('7'::int2) RETURNING c_ts;
INSERT INTO co (c_ts) VALUES (7) RETURNING c_ts;
INSERT INTO co (c_ts) VALUES (7::int8) RETURNING c_ts;
INSERT INTO co (c_ts) VALUES (7.5) RETURNING c_ts;
INSERT INTO co (c_ts) VALUES ('7.5'::real) RETURNING c_ts;
INSERT INTO co (c_ts) VALUES ('7.5'::float8) RETURNING c_ts;
INSERT INTO co (c_ts) VALUES ('7'::text) RETURNING c_ts;
INSERT INTO co (c_ts) VALUES ('7'::varchar) RETURNING c_ts;
INSERT INTO co (c_ts) VALUES ('7'::char(3)) RETURNING c_ts;
INSERT INTO co (c_ts) VALUES (true) RETURNING c_ts;
INSERT INTO co (c_ts) VALUES ('2024-01-02'::date) RETURNING c_ts;
INSERT INTO co (c_ts) VALUES ('2024-01-02 03:04:05'::timestamp) RETURNING c_ts;
INSERT INTO co (c_int2) VALUES ('70000');
INSERT INTO co (c_int4) VALUES ('abc');
INSERT INTO co (c_int8) VALUES ('1.5');
INSERT INTO co (c_num) VALUES ('12345.678');
INSERT INTO co (c_f4) VALUES ('1e40');
INSERT INTO co (c_f8) VALUES ('x1');
INSERT INTO co (c_text) VALUES ('x');
INSERT INTO co (c_vc) VALUES ('123456');
INSERT INTO co (c_ch) VALUES ('abcd');
INSERT INTO co (c_bool) VALUES ('maybe');
INSERT INTO co (c_date) VALUES ('2024-13-01');
INSERT INTO co (c_ts) VALUES ('2024-01-02 25:00');
COPY co (c_text, c_int2) FROM STDIN;
a	70000
\.
COPY co (c_text, c_int2) FROM STDIN (FORMAT csv);
a,"70000"
\.
COPY co (c_text, c_int4) FROM STDIN;
a	abc
\.
COPY co (c_text, c_int4) FROM STDIN (FORMAT csv);
a,"abc"
\.
COPY co (c_text, c_int8) FROM STDIN;
a	1.5
\.
COPY co (c_text, c_int8) FROM STDIN (FORMAT csv);
a,"1.5"
\.
COPY co (c_text, c_num) FROM STDIN;
a	12345.678
\.
COPY co (c_text, c_num) FROM STDIN (FORMAT csv);
a,"12345.678"
\.
COPY co (c_text, c_f4) FROM STDIN;
a	1e40
\.
COPY co (c_text, c_f4) FROM STDIN (FORMAT csv);
a,"1e40"
\.
COPY co (c_text, c_f8) FROM STDIN;
a	x1
\.
COPY co (c_text, c_f8) FROM STDIN (FORMAT csv);
a,"x1"
\.
COPY co (c_text, c_vc) FROM STDIN;
a	123456
\.
COPY co (c_text, c_vc) FROM STDIN (FORMAT csv);
a,"123456"
\.
COPY co (c_text, c_ch) FROM STDIN;
a	abcd
\.
COPY co (c_text, c_ch) FROM STDIN (FORMAT csv);
a,"abcd"
\.
COPY co (c_text, c_bool) FROM STDIN;
a	maybe
\.
COPY co (c_text, c_bool) FROM STDIN (FORMAT csv);
a,"maybe"
\.
COPY co (c_text, c_date) FROM STDIN;
a	2024-13-01
\.
COPY co (c_text, c_date) FROM STDIN (FORMAT csv);
a,"2024-13-01"
\.
COPY co (c_text, c_ts) FROM STDIN;
a	2024-01-02 25:00
\.
COPY co (c_text, c_ts) FROM STDIN (FORMAT csv);
a,"2024-01-02 25:00"
\.
COPY co (c_int4, c_date) FROM STDIN;
1	2024-01-01
2	not a date
\.
COPY co (c_int4, c_bool) FROM STDIN (FORMAT csv);
1,t
2,
3,x
\.
\set VERBOSITY default
DROP TABLE co;
DROP TABLE cu;
DROP TABLE cs;
