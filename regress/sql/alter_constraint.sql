--
-- ALTER TABLE ... ADD PRIMARY KEY / UNIQUE and DROP CONSTRAINT
--
CREATE TABLE ac (a int, b int, c text);
INSERT INTO ac VALUES (1, 1, 'x'), (NULL, 2, 'y'), (1, 3, 'z');
-- duplicates are found before NULLs
ALTER TABLE ac ADD PRIMARY KEY (a);
DELETE FROM ac WHERE b = 3;
ALTER TABLE ac ADD PRIMARY KEY (a);
DELETE FROM ac WHERE a IS NULL;
INSERT INTO ac VALUES (2, 2, 'y'), (3, 3, 'z');
ALTER TABLE ac ADD PRIMARY KEY (a);
INSERT INTO ac VALUES (1, 4, 'dup');
INSERT INTO ac VALUES (NULL, 4, 'null');
UPDATE ac SET a = 2 WHERE a = 3;
SELECT * FROM ac WHERE a = 2;
-- a second primary key, unknown columns, repeated columns, taken names
ALTER TABLE ac ADD PRIMARY KEY (b);
ALTER TABLE ac ADD CONSTRAINT other_pk PRIMARY KEY (b);
ALTER TABLE ac ADD PRIMARY KEY (zz);
ALTER TABLE ac ADD UNIQUE (zz);
ALTER TABLE ac ADD PRIMARY KEY (b, b);
ALTER TABLE ac ADD CONSTRAINT ac_u UNIQUE (c, b, c);
ALTER TABLE ac ADD CONSTRAINT ac UNIQUE (b);
ALTER TABLE ac ADD CONSTRAINT ac_pkey UNIQUE (b);
ALTER TABLE nosuch ADD PRIMARY KEY (a);
ALTER TABLE IF EXISTS nosuch ADD PRIMARY KEY (a);
-- generated names avoid the names in use, as PostgreSQL's do
ALTER TABLE ac ADD UNIQUE (b, c), ADD UNIQUE (b, c);
CREATE TABLE ac_c_key (x int);
ALTER TABLE ac ADD UNIQUE (c);
INSERT INTO ac VALUES (9, 9, 'x');
INSERT INTO ac VALUES (9, 9, 'q');
ALTER TABLE ac ADD CONSTRAINT ac_c_key2 UNIQUE (c);
DROP INDEX ac_c_key1;
DROP INDEX ac_pkey;
-- DROP CONSTRAINT
ALTER TABLE ac DROP CONSTRAINT ac_c_key1, DROP CONSTRAINT ac_b_c_key1;
ALTER TABLE ac DROP CONSTRAINT ac_c_key1;
ALTER TABLE ac DROP CONSTRAINT IF EXISTS ac_c_key1;
ALTER TABLE ac DROP CONSTRAINT nosuch, ADD PRIMARY KEY (zz);
CREATE UNIQUE INDEX ac_c_idx ON ac (c);
ALTER TABLE ac DROP CONSTRAINT ac_c_idx;
DROP INDEX ac_c_idx;
INSERT INTO ac VALUES (10, 10, 'x');
-- dropping the primary key keeps its columns NOT NULL (PostgreSQL 15)
ALTER TABLE ac DROP CONSTRAINT ac_pkey;
INSERT INTO ac VALUES (1, 5, 'dup');
INSERT INTO ac VALUES (NULL, 5, 'null');
-- the drops run first: the name is free again, and the key is replaced
ALTER TABLE ac ADD PRIMARY KEY (a);
DELETE FROM ac WHERE c = 'dup';
ALTER TABLE ac ADD PRIMARY KEY (b), DROP CONSTRAINT ac_b_c_key;
ALTER TABLE ac ADD PRIMARY KEY (a), DROP CONSTRAINT ac_pkey;
ALTER TABLE ac DROP CONSTRAINT ac_pkey, ADD CONSTRAINT ac_pkey PRIMARY KEY (b, a);
INSERT INTO ac VALUES (1, 1, 'again');
INSERT INTO ac VALUES (1, 2, 'again');
SELECT * FROM ac WHERE b = 1 AND a = 1;
SELECT a, b, c FROM ac ORDER BY a, b;
-- a failed ALTER changes nothing
ALTER TABLE ac DROP CONSTRAINT ac_pkey, ADD UNIQUE (c), ADD PRIMARY KEY (b);
INSERT INTO ac VALUES (1, 1, 'again2');
DROP TABLE ac;
DROP TABLE ac_c_key;
--
-- CREATE TABLE names its constraints the same way
--
CREATE TABLE ct_pkey (x int);
CREATE TABLE ct (a int PRIMARY KEY, b int UNIQUE, c int, UNIQUE (b), CONSTRAINT ct_named UNIQUE (a, c), UNIQUE (c, a));
INSERT INTO ct VALUES (1, 1, 1);
INSERT INTO ct VALUES (1, 2, 2);
INSERT INTO ct VALUES (2, 1, 2);
INSERT INTO ct VALUES (NULL, 3, 3);
DROP INDEX ct_b_key;
ALTER TABLE ct DROP CONSTRAINT ct_pkey1, DROP CONSTRAINT ct_named, DROP CONSTRAINT ct_c_a_key;
INSERT INTO ct VALUES (1, 2, 2);
ALTER TABLE ct DROP CONSTRAINT ct_b_key1;
CREATE TABLE ct2 (a int, b int, UNIQUE (a), CONSTRAINT ct2_a_key UNIQUE (b));
CREATE TABLE ct2 (a int, b int, UNIQUE (zz), PRIMARY KEY (a), PRIMARY KEY (b));
CREATE TABLE ct2 (a int PRIMARY KEY, b int PRIMARY KEY);
CREATE TABLE ct2 (a int, CONSTRAINT k PRIMARY KEY (a, a));
DROP TABLE ct, ct_pkey;
--
-- BenchmarkSQL's run/sql.common/indexCreates.sql, unchanged
--
CREATE TABLE bmsql_warehouse (w_id integer not null, w_name varchar(10));
CREATE TABLE bmsql_district (d_w_id integer not null, d_id integer not null, d_name varchar(10));
CREATE TABLE bmsql_customer (c_w_id integer not null, c_d_id integer not null, c_id integer not null,
  c_last varchar(16), c_first varchar(16));
CREATE TABLE bmsql_oorder (o_w_id integer not null, o_d_id integer not null, o_id integer not null,
  o_carrier_id integer);
CREATE TABLE bmsql_new_order (no_w_id integer not null, no_d_id integer not null, no_o_id integer not null);
CREATE TABLE bmsql_order_line (ol_w_id integer not null, ol_d_id integer not null, ol_o_id integer not null,
  ol_number integer not null);
CREATE TABLE bmsql_item (i_id integer not null, i_name varchar(24));
CREATE TABLE bmsql_stock (s_w_id integer not null, s_i_id integer not null, s_quantity integer);
INSERT INTO bmsql_warehouse VALUES (1, 'w1'), (2, 'w2');
INSERT INTO bmsql_oorder VALUES (1, 1, 1, 5), (1, 1, 2, NULL), (1, 2, 1, NULL);
INSERT INTO bmsql_stock VALUES (1, 1, 10), (1, 2, 20), (2, 1, 30);
alter table bmsql_warehouse add constraint bmsql_warehouse_pkey
  primary key (w_id);

alter table bmsql_district add constraint bmsql_district_pkey
  primary key (d_w_id, d_id);

alter table bmsql_customer add constraint bmsql_customer_pkey
  primary key (c_w_id, c_d_id, c_id);

create index bmsql_customer_idx1
  on  bmsql_customer (c_w_id, c_d_id, c_last, c_first);

alter table bmsql_oorder add constraint bmsql_oorder_pkey
  primary key (o_w_id, o_d_id, o_id);

create unique index bmsql_oorder_idx1
  on  bmsql_oorder (o_w_id, o_d_id, o_carrier_id, o_id);

alter table bmsql_new_order add constraint bmsql_new_order_pkey
  primary key (no_w_id, no_d_id, no_o_id);

alter table bmsql_order_line add constraint bmsql_order_line_pkey
  primary key (ol_w_id, ol_d_id, ol_o_id, ol_number);

alter table bmsql_stock add constraint bmsql_stock_pkey
  primary key (s_w_id, s_i_id);

alter table bmsql_item add constraint bmsql_item_pkey
  primary key (i_id);

INSERT INTO bmsql_warehouse VALUES (2, 'again');
INSERT INTO bmsql_oorder VALUES (1, 1, 2, 7);
INSERT INTO bmsql_oorder VALUES (1, 2, 1, 7);
UPDATE bmsql_stock SET s_i_id = 2 WHERE s_w_id = 1 AND s_i_id = 1;
SELECT s_quantity FROM bmsql_stock WHERE s_w_id = 2 AND s_i_id = 1;
DROP INDEX bmsql_stock_pkey;
DROP TABLE bmsql_warehouse, bmsql_district, bmsql_customer, bmsql_oorder, bmsql_new_order,
  bmsql_order_line, bmsql_item, bmsql_stock;
