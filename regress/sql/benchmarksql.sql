-- BenchmarkSQL 5's queries on a small TPC-C-shaped load: the tables of its
-- run/sql.common/tableCreates.sql and indexCreates.sql (without the history
-- id sequence), a load built with generate_series, then the statements of
-- src/client/jTPCCConnection.java as written (a literal for each ?) and
-- run/checks/checks.sql unchanged (petergeoghegan/benchmarksql
-- f2f39cf42216a7b9f912eed07ccfb38522d02a21).
create table bmsql_config (cfg_name varchar(30) primary key, cfg_value varchar(50));
create table bmsql_warehouse (
  w_id integer not null, w_ytd decimal(12,2), w_tax decimal(4,4), w_name varchar(10),
  w_street_1 varchar(20), w_street_2 varchar(20), w_city varchar(20), w_state char(2), w_zip char(9));
create table bmsql_district (
  d_w_id integer not null, d_id integer not null, d_ytd decimal(12,2), d_tax decimal(4,4),
  d_next_o_id integer, d_name varchar(10), d_street_1 varchar(20), d_street_2 varchar(20),
  d_city varchar(20), d_state char(2), d_zip char(9));
create table bmsql_customer (
  c_w_id integer not null, c_d_id integer not null, c_id integer not null, c_discount decimal(4,4),
  c_credit char(2), c_last varchar(16), c_first varchar(16), c_credit_lim decimal(12,2),
  c_balance decimal(12,2), c_ytd_payment decimal(12,2), c_payment_cnt integer, c_delivery_cnt integer,
  c_street_1 varchar(20), c_street_2 varchar(20), c_city varchar(20), c_state char(2), c_zip char(9),
  c_phone char(16), c_since timestamp, c_middle char(2), c_data varchar(500));
create table bmsql_history (
  hist_id integer, h_c_id integer, h_c_d_id integer, h_c_w_id integer, h_d_id integer, h_w_id integer,
  h_date timestamp, h_amount decimal(6,2), h_data varchar(24));
create table bmsql_new_order (no_w_id integer not null, no_d_id integer not null, no_o_id integer not null);
create table bmsql_oorder (
  o_w_id integer not null, o_d_id integer not null, o_id integer not null, o_c_id integer,
  o_carrier_id integer, o_ol_cnt integer, o_all_local integer, o_entry_d timestamp);
create table bmsql_order_line (
  ol_w_id integer not null, ol_d_id integer not null, ol_o_id integer not null, ol_number integer not null,
  ol_i_id integer not null, ol_delivery_d timestamp, ol_amount decimal(6,2), ol_supply_w_id integer,
  ol_quantity integer, ol_dist_info char(24));
create table bmsql_item (i_id integer not null, i_name varchar(24), i_price decimal(5,2), i_data varchar(50), i_im_id integer);
create table bmsql_stock (
  s_w_id integer not null, s_i_id integer not null, s_quantity integer, s_ytd integer, s_order_cnt integer,
  s_remote_cnt integer, s_data varchar(50), s_dist_01 char(24), s_dist_02 char(24), s_dist_03 char(24),
  s_dist_04 char(24), s_dist_05 char(24), s_dist_06 char(24), s_dist_07 char(24), s_dist_08 char(24),
  s_dist_09 char(24), s_dist_10 char(24));
alter table bmsql_warehouse add constraint bmsql_warehouse_pkey primary key (w_id);
alter table bmsql_district add constraint bmsql_district_pkey primary key (d_w_id, d_id);
alter table bmsql_customer add constraint bmsql_customer_pkey primary key (c_w_id, c_d_id, c_id);
create index bmsql_customer_idx1 on bmsql_customer (c_w_id, c_d_id, c_last, c_first);
alter table bmsql_oorder add constraint bmsql_oorder_pkey primary key (o_w_id, o_d_id, o_id);
create unique index bmsql_oorder_idx1 on bmsql_oorder (o_w_id, o_d_id, o_carrier_id, o_id);
alter table bmsql_new_order add constraint bmsql_new_order_pkey primary key (no_w_id, no_d_id, no_o_id);
alter table bmsql_order_line add constraint bmsql_order_line_pkey primary key (ol_w_id, ol_d_id, ol_o_id, ol_number);
alter table bmsql_stock add constraint bmsql_stock_pkey primary key (s_w_id, s_i_id);
alter table bmsql_item add constraint bmsql_item_pkey primary key (i_id);

-- the load: 2 warehouses, 3 districts each, 4 customers and 6 orders per
-- district (orders 5 and 6 undelivered), 20 items
insert into bmsql_warehouse
  select w, 75.00, 0.1000, 'w' || w, 'street', 'street', 'city', 'ST', '123456789'
  from generate_series(1, 2) w;
insert into bmsql_district
  select w, d, 25.00, 0.0500 * d, 7, 'd' || d, 'street', 'street', 'city', 'ST', '123456789'
  from generate_series(1, 2) w, generate_series(1, 3) d;
insert into bmsql_item select i, 'item' || i, i * 1.25, 'data' || i, i from generate_series(1, 20) i;
insert into bmsql_stock
  select w, i, 10 + (i * 7) % 20, 0, 0, 0, 'sdata', 'd1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7', 'd8', 'd9', 'd10'
  from generate_series(1, 2) w, generate_series(1, 20) i;
insert into bmsql_oorder
  select d_w_id, d_id, o, o % 4 + 1, case when o <= 4 then o end, o % 3 + 1, 1, '2024-01-01 00:00:00'
  from bmsql_district, generate_series(1, 6) o;
insert into bmsql_order_line
  select o_w_id, o_d_id, o_id, n, (o_id * 3 + n) % 20 + 1,
         case when o_carrier_id is not null then timestamp '2024-01-02 00:00:00' end,
         ((o_id * 3 + n) % 20 + 1) * 1.10, o_w_id, 5, 'dist'
  from bmsql_oorder, generate_series(1, bmsql_oorder.o_ol_cnt) n;
insert into bmsql_new_order select o_w_id, o_d_id, o_id from bmsql_oorder where o_carrier_id is null;
insert into bmsql_history
  select w * 100 + d * 10 + c, c, d, w, d, w, '2024-01-01 00:00:00', c * 2.50, 'hdata'
  from generate_series(1, 2) w, generate_series(1, 3) d, generate_series(1, 4) c;
insert into bmsql_customer
  select w, d, c, 0.0100 * c, 'GC', case c % 3 when 0 then 'BAR' when 1 then 'OUGHT' else 'ABLE' end,
         'first' || (5 - c), 50000.00,
         (select coalesce(sum(ol_amount), 0) from bmsql_oorder
            join bmsql_order_line on ol_w_id = o_w_id and ol_d_id = o_d_id and ol_o_id = o_id
            where o_w_id = w and o_d_id = d and o_c_id = c and ol_delivery_d is not null) - c * 2.50,
         c * 2.50, 1, 0, 'street', 'street', 'city', 'ST', '123456789', '0123456789012345',
         '2024-01-01 00:00:00', 'OE', 'cdata'
  from generate_series(1, 2) w, generate_series(1, 3) d, generate_series(1, 4) c;
select count(*) from bmsql_order_line;
select c_w_id, c_d_id, c_id, c_last, c_first, c_balance from bmsql_customer where c_w_id = 1 order by 1, 2, 3;

-- run/checks/checks.sql, unchanged: every check says OK
-- ----------------------------------------------------------------------
-- Test 1
--
-- All ORDER rows where O_CARRIER_ID is NULL must have a matching
-- row in NEW_ORDER.
-- ----------------------------------------------------------------------
SELECT CASE count(*) WHEN 0 THEN 'OK   ' ELSE 'ERROR' END AS "check",
	count(*) AS "count", 'Undelivered ORDERs not found in NEW_ORDER' AS "Description"
    FROM bmsql_oorder
    WHERE o_carrier_id IS NULL
    AND NOT EXISTS (
    	SELECT 1 FROM bmsql_new_order
	    WHERE no_w_id = o_w_id AND no_d_id = o_d_id AND no_o_id = o_id
    );

-- ----------------------------------------------------------------------
-- Test 2
--
-- All ORDER rows where O_CARRIER_ID is NOT NULL must not have a matching
-- row in NEW_ORDER.
-- ----------------------------------------------------------------------
SELECT CASE count(*) WHEN 0 THEN 'OK   ' ELSE 'ERROR' END AS "check",
	count(*) AS "count", 'Delivered ORDERs still found in NEW_ORDER' AS "Description"
    FROM bmsql_oorder
    WHERE o_carrier_id IS NOT NULL
    AND EXISTS (
    	SELECT 1 FROM bmsql_new_order
	    WHERE no_w_id = o_w_id AND no_d_id = o_d_id AND no_o_id = o_id
    );

-- ----------------------------------------------------------------------
-- Test 3
--
-- All NEW_ORDER rows must have a matching ORDER row.
-- ----------------------------------------------------------------------
SELECT CASE count(*) WHEN 0 THEN 'OK   ' ELSE 'ERROR' END AS "check",
	count(*) AS "count", 'Orphaned NEW_ORDER rows' AS "Description"
    FROM bmsql_new_order
    WHERE NOT EXISTS (
    	SELECT 1 FROM bmsql_oorder
	    WHERE no_w_id = o_w_id AND no_d_id = o_d_id AND no_o_id = o_id
    );

-- ----------------------------------------------------------------------
-- Test 4
--
-- ORDER_LINES must have a matching ORDER
-- ----------------------------------------------------------------------
SELECT CASE count(*) WHEN 0 THEN 'OK   ' ELSE 'ERROR' END AS "check",
	count(*) AS "count", 'Orphaned ORDER_LINE rows' AS "Description"
    FROM bmsql_order_line
    WHERE NOT EXISTS (
    	SELECT 1 FROM bmsql_oorder
	    WHERE ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id
    );

-- ----------------------------------------------------------------------
-- Test 5
--
-- Check the ORDER.O_OL_CNT
-- ----------------------------------------------------------------------
SELECT CASE count(*) WHEN 0 THEN 'OK   ' ELSE 'ERROR' END AS "check",
	count(*) AS "count", 'ORDERs with wrong O_OL_CNT' AS "Description"
    FROM (
	SELECT o_w_id, o_d_id, o_id, o_ol_cnt, count(*) AS "actual"
	    FROM bmsql_oorder
	    LEFT JOIN bmsql_order_line ON ol_w_id = o_w_id AND ol_d_id = o_d_id
		    AND ol_o_id = o_id
	    GROUP BY o_w_id, o_d_id, o_id, o_ol_cnt
	    HAVING o_ol_cnt <> count(*)
	) AS X;

-- ----------------------------------------------------------------------
-- Test 6
--
-- The W_YTD must match the sum(D_YTD) for the 10 districts of the
-- Warehouse.
-- ----------------------------------------------------------------------
SELECT CASE count(*) WHEN 0 THEN 'OK   ' ELSE 'ERROR' END AS "check",
	count(*) AS "count", 'Warehouses where W_YTD <> sum(D_YTD)' AS "Description"
    FROM (
	SELECT w_id, w_ytd, sum(d_ytd) AS sum_d_ytd
	    FROM bmsql_warehouse
	    LEFT JOIN bmsql_district ON d_w_id = w_id
	    GROUP BY w_id, w_ytd
	    HAVING w_ytd <> sum(d_ytd)
	) AS X;

-- ----------------------------------------------------------------------
-- Test 7
--
-- The sum of all W_YTD must match the sum of all C_YTD_PAYMENT.
-- Because the PAYMENT can happen remote, we cannot match those
-- up by DISTRICT.
-- ----------------------------------------------------------------------
SELECT CASE count(*) WHEN 0 THEN 'OK   ' ELSE 'ERROR' END AS "check",
    CASE count(*) WHEN 0 THEN 'sum(w_ytd) = sum(c_ytd_payment)'
                  ELSE 'sum(w_ytd) <> sum(c_ytd_payment)' END AS "Description"
    FROM (
	SELECT sum_w_ytd, sum_c_ytd_payment
	    FROM (SELECT sum(w_ytd) AS sum_w_ytd FROM bmsql_warehouse) AS W,
	         (SELECT sum(c_ytd_payment) AS sum_c_ytd_payment FROM bmsql_customer) AS C
	    WHERE sum_w_ytd <> sum_c_ytd_payment
	) AS X;

-- ----------------------------------------------------------------------
-- Test 8
--
-- The C_BALANCE of a CUSTOMER must be equal to the sum(OL_AMOUNT) of
-- all delivered ORDER_LINES (where OL_DELIVERY_D IS NOT NULL) minus
-- the sum(H_AMOUNT).
-- ----------------------------------------------------------------------
SELECT CASE count(*) WHEN 0 THEN 'OK   ' ELSE 'ERROR' END AS "check",
	count(*) AS "count",
	'Customers where C_BALANCE <> sum(OL_AMOUNT) of undelivered orders minus sum(H_AMOUNT)' AS "Description"
    FROM (
	SELECT c_w_id, c_d_id, c_id, coalesce(sum_ol_amount, 0.0) AS sum_ol_amount,
	       coalesce(sum_h_amount, 0.0) AS sum_h_amount
	    FROM bmsql_customer
	    LEFT JOIN (
		SELECT o_w_id, o_d_id, o_c_id, sum(ol_amount) as sum_ol_amount
		    FROM bmsql_oorder
		    JOIN bmsql_order_line ON ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id
		    WHERE o_carrier_id IS NOT NULL AND ol_delivery_d IS NOT NULL
		    GROUP BY o_w_id, o_d_id, o_c_id
	    ) AS OL ON o_w_id = c_w_id AND o_d_id = c_d_id AND o_c_id = c_id
	    LEFT JOIN (
	        SELECT h_c_w_id, h_c_d_id, h_c_id, sum(h_amount) AS sum_h_amount
		    FROM bmsql_history
		    GROUP BY h_c_w_id, h_c_d_id, h_c_id
	    ) AS H ON h_c_w_id = c_w_id AND h_c_d_id = c_d_id AND h_c_id = c_id
	    WHERE c_balance <> sum_ol_amount - sum_h_amount
	) AS X;


-- jTPCCConnection.java: NewOrder
SELECT c_discount, c_last, c_credit, w_tax     FROM bmsql_customer     JOIN bmsql_warehouse ON (w_id = c_w_id)     WHERE c_w_id = 1 AND c_d_id = 2 AND c_id = 3;
SELECT d_tax, d_next_o_id     FROM bmsql_district     WHERE d_w_id = 1 AND d_id = 2     FOR UPDATE;
SELECT s_quantity, s_data,        s_dist_01, s_dist_02, s_dist_03, s_dist_04,        s_dist_05, s_dist_06, s_dist_07, s_dist_08,        s_dist_09, s_dist_10     FROM bmsql_stock     WHERE s_w_id = 1 AND s_i_id = 7     FOR UPDATE;
SELECT i_price, i_name, i_data     FROM bmsql_item     WHERE i_id = 7;
-- Payment
SELECT w_name, w_street_1, w_street_2, w_city,        w_state, w_zip     FROM bmsql_warehouse     WHERE w_id = 2 ;
SELECT d_name, d_street_1, d_street_2, d_city,        d_state, d_zip     FROM bmsql_district     WHERE d_w_id = 2 AND d_id = 3;
SELECT c_id     FROM bmsql_customer     WHERE c_w_id = 1 AND c_d_id = 1 AND c_last = 'OUGHT'     ORDER BY c_first;
SELECT c_first, c_middle, c_last, c_street_1, c_street_2,        c_city, c_state, c_zip, c_phone, c_since, c_credit,        c_credit_lim, c_discount, c_balance     FROM bmsql_customer     WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = 4     FOR UPDATE;
SELECT c_data     FROM bmsql_customer     WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = 4;
-- OrderStatus
SELECT c_first, c_middle, c_last, c_balance     FROM bmsql_customer     WHERE c_w_id = 2 AND c_d_id = 1 AND c_id = 2;
SELECT o_id, o_entry_d, o_carrier_id     FROM bmsql_oorder     WHERE o_w_id = 2 AND o_d_id = 1 AND o_c_id = 2       AND o_id = (          SELECT max(o_id)               FROM bmsql_oorder               WHERE o_w_id = 2 AND o_d_id = 1 AND o_c_id = 2          );
SELECT ol_i_id, ol_supply_w_id, ol_quantity,        ol_amount, ol_delivery_d     FROM bmsql_order_line     WHERE ol_w_id = 2 AND ol_d_id = 1 AND ol_o_id = 5     ORDER BY ol_w_id, ol_d_id, ol_o_id, ol_number;
-- StockLevel (the PostgreSQL form, then the form without an alias)
SELECT count(*) AS low_stock FROM (    SELECT s_w_id, s_i_id, s_quantity         FROM bmsql_stock         WHERE s_w_id = 1 AND s_quantity < 20 AND s_i_id IN (            SELECT ol_i_id                 FROM bmsql_district                 JOIN bmsql_order_line ON ol_w_id = d_w_id                  AND ol_d_id = d_id                  AND ol_o_id >= d_next_o_id - 20                  AND ol_o_id < d_next_o_id                 WHERE d_w_id = 1 AND d_id = 2         )     ) AS L;
SELECT count(*) AS low_stock FROM (    SELECT s_w_id, s_i_id, s_quantity         FROM bmsql_stock         WHERE s_w_id = 2 AND s_quantity < 15 AND s_i_id IN (            SELECT ol_i_id                 FROM bmsql_district                 JOIN bmsql_order_line ON ol_w_id = d_w_id                  AND ol_d_id = d_id                  AND ol_o_id >= d_next_o_id - 20                  AND ol_o_id < d_next_o_id                 WHERE d_w_id = 2 AND d_id = 3         )     ) AS L;
SELECT count(*) AS low_stock FROM (    SELECT s_w_id, s_i_id, s_quantity         FROM bmsql_stock         WHERE s_w_id = 1 AND s_quantity < 20 AND s_i_id IN (            SELECT ol_i_id                 FROM bmsql_district                 JOIN bmsql_order_line ON ol_w_id = d_w_id                  AND ol_d_id = d_id                  AND ol_o_id >= d_next_o_id - 20                  AND ol_o_id < d_next_o_id                 WHERE d_w_id = 1 AND d_id = 2         )     );
-- Delivery
SELECT no_o_id     FROM bmsql_new_order     WHERE no_w_id = 1 AND no_d_id = 3     ORDER BY no_o_id ASC;
SELECT o_c_id     FROM bmsql_oorder     WHERE o_w_id = 1 AND o_d_id = 3 AND o_id = 5;
SELECT sum(ol_amount) AS sum_ol_amount     FROM bmsql_order_line     WHERE ol_w_id = 1 AND ol_d_id = 3 AND ol_o_id = 5;

-- a Delivery that forgets the customer, a lost order line, a payment that
-- forgets the warehouse: the checks report them
begin;
DELETE FROM bmsql_new_order     WHERE no_w_id = 1 AND no_d_id = 3 AND no_o_id = 5;
UPDATE bmsql_oorder     SET o_carrier_id = 9     WHERE o_w_id = 1 AND o_d_id = 3 AND o_id = 5;
UPDATE bmsql_order_line     SET ol_delivery_d = '2024-01-03 00:00:00'     WHERE ol_w_id = 1 AND ol_d_id = 3 AND ol_o_id = 5;
delete from bmsql_order_line where ol_w_id = 2 and ol_d_id = 2 and ol_o_id = 3 and ol_number = 1;
UPDATE bmsql_district     SET d_ytd = d_ytd + 10.00     WHERE d_w_id = 2 AND d_id = 1;
insert into bmsql_new_order values (2, 2, 99);
SELECT CASE count(*) WHEN 0 THEN 'OK   ' ELSE 'ERROR' END AS "check",
	count(*) AS "count", 'Undelivered ORDERs not found in NEW_ORDER' AS "Description"
    FROM bmsql_oorder
    WHERE o_carrier_id IS NULL
    AND NOT EXISTS (
    	SELECT 1 FROM bmsql_new_order
	    WHERE no_w_id = o_w_id AND no_d_id = o_d_id AND no_o_id = o_id
    );
SELECT CASE count(*) WHEN 0 THEN 'OK   ' ELSE 'ERROR' END AS "check",
	count(*) AS "count", 'Delivered ORDERs still found in NEW_ORDER' AS "Description"
    FROM bmsql_oorder
    WHERE o_carrier_id IS NOT NULL
    AND EXISTS (
    	SELECT 1 FROM bmsql_new_order
	    WHERE no_w_id = o_w_id AND no_d_id = o_d_id AND no_o_id = o_id
    );
SELECT CASE count(*) WHEN 0 THEN 'OK   ' ELSE 'ERROR' END AS "check",
	count(*) AS "count", 'Orphaned NEW_ORDER rows' AS "Description"
    FROM bmsql_new_order
    WHERE NOT EXISTS (
    	SELECT 1 FROM bmsql_oorder
	    WHERE no_w_id = o_w_id AND no_d_id = o_d_id AND no_o_id = o_id
    );
SELECT CASE count(*) WHEN 0 THEN 'OK   ' ELSE 'ERROR' END AS "check",
	count(*) AS "count", 'Orphaned ORDER_LINE rows' AS "Description"
    FROM bmsql_order_line
    WHERE NOT EXISTS (
    	SELECT 1 FROM bmsql_oorder
	    WHERE ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id
    );
SELECT CASE count(*) WHEN 0 THEN 'OK   ' ELSE 'ERROR' END AS "check",
	count(*) AS "count", 'ORDERs with wrong O_OL_CNT' AS "Description"
    FROM (
	SELECT o_w_id, o_d_id, o_id, o_ol_cnt, count(*) AS "actual"
	    FROM bmsql_oorder
	    LEFT JOIN bmsql_order_line ON ol_w_id = o_w_id AND ol_d_id = o_d_id
		    AND ol_o_id = o_id
	    GROUP BY o_w_id, o_d_id, o_id, o_ol_cnt
	    HAVING o_ol_cnt <> count(*)
	) AS X;
SELECT CASE count(*) WHEN 0 THEN 'OK   ' ELSE 'ERROR' END AS "check",
	count(*) AS "count", 'Warehouses where W_YTD <> sum(D_YTD)' AS "Description"
    FROM (
	SELECT w_id, w_ytd, sum(d_ytd) AS sum_d_ytd
	    FROM bmsql_warehouse
	    LEFT JOIN bmsql_district ON d_w_id = w_id
	    GROUP BY w_id, w_ytd
	    HAVING w_ytd <> sum(d_ytd)
	) AS X;
SELECT CASE count(*) WHEN 0 THEN 'OK   ' ELSE 'ERROR' END AS "check",
    CASE count(*) WHEN 0 THEN 'sum(w_ytd) = sum(c_ytd_payment)'
                  ELSE 'sum(w_ytd) <> sum(c_ytd_payment)' END AS "Description"
    FROM (
	SELECT sum_w_ytd, sum_c_ytd_payment
	    FROM (SELECT sum(w_ytd) AS sum_w_ytd FROM bmsql_warehouse) AS W,
	         (SELECT sum(c_ytd_payment) AS sum_c_ytd_payment FROM bmsql_customer) AS C
	    WHERE sum_w_ytd <> sum_c_ytd_payment
	) AS X;
SELECT CASE count(*) WHEN 0 THEN 'OK   ' ELSE 'ERROR' END AS "check",
	count(*) AS "count",
	'Customers where C_BALANCE <> sum(OL_AMOUNT) of undelivered orders minus sum(H_AMOUNT)' AS "Description"
    FROM (
	SELECT c_w_id, c_d_id, c_id, coalesce(sum_ol_amount, 0.0) AS sum_ol_amount,
	       coalesce(sum_h_amount, 0.0) AS sum_h_amount
	    FROM bmsql_customer
	    LEFT JOIN (
		SELECT o_w_id, o_d_id, o_c_id, sum(ol_amount) as sum_ol_amount
		    FROM bmsql_oorder
		    JOIN bmsql_order_line ON ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id
		    WHERE o_carrier_id IS NOT NULL AND ol_delivery_d IS NOT NULL
		    GROUP BY o_w_id, o_d_id, o_c_id
	    ) AS OL ON o_w_id = c_w_id AND o_d_id = c_d_id AND o_c_id = c_id
	    LEFT JOIN (
	        SELECT h_c_w_id, h_c_d_id, h_c_id, sum(h_amount) AS sum_h_amount
		    FROM bmsql_history
		    GROUP BY h_c_w_id, h_c_d_id, h_c_id
	    ) AS H ON h_c_w_id = c_w_id AND h_c_d_id = c_d_id AND h_c_id = c_id
	    WHERE c_balance <> sum_ol_amount - sum_h_amount
	) AS X;
rollback;
drop table bmsql_config, bmsql_new_order, bmsql_order_line, bmsql_oorder, bmsql_history, bmsql_customer, bmsql_stock, bmsql_item, bmsql_district, bmsql_warehouse;
