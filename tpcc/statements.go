package tpcc

// The statements of BenchmarkSQL 5's src/client/jTPCCConnection.java
// (its PostgreSQL flavour), character for character as the Java string
// concatenations build them, with each ? numbered $n as pgjdbc sends it.
// The transactions in txn.go issue them in jTPCCTData.java's order.
const (
	// NEW_ORDER
	StmtNewOrderSelectWhseCust = "SELECT c_discount, c_last, c_credit, w_tax " +
		"    FROM bmsql_customer " +
		"    JOIN bmsql_warehouse ON (w_id = c_w_id) " +
		"    WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3"
	StmtNewOrderSelectDist = "SELECT d_tax, d_next_o_id " +
		"    FROM bmsql_district " +
		"    WHERE d_w_id = $1 AND d_id = $2 " +
		"    FOR UPDATE"
	StmtNewOrderUpdateDist = "UPDATE bmsql_district " +
		"    SET d_next_o_id = d_next_o_id + 1 " +
		"    WHERE d_w_id = $1 AND d_id = $2"
	StmtNewOrderInsertOrder = "INSERT INTO bmsql_oorder (" +
		"    o_id, o_d_id, o_w_id, o_c_id, o_entry_d, " +
		"    o_ol_cnt, o_all_local) " +
		"VALUES ($1, $2, $3, $4, $5, $6, $7)"
	StmtNewOrderInsertNewOrder = "INSERT INTO bmsql_new_order (" +
		"    no_o_id, no_d_id, no_w_id) " +
		"VALUES ($1, $2, $3)"
	StmtNewOrderSelectStock = "SELECT s_quantity, s_data, " +
		"       s_dist_01, s_dist_02, s_dist_03, s_dist_04, " +
		"       s_dist_05, s_dist_06, s_dist_07, s_dist_08, " +
		"       s_dist_09, s_dist_10 " +
		"    FROM bmsql_stock " +
		"    WHERE s_w_id = $1 AND s_i_id = $2 " +
		"    FOR UPDATE"
	StmtNewOrderSelectItem = "SELECT i_price, i_name, i_data " +
		"    FROM bmsql_item " +
		"    WHERE i_id = $1"
	StmtNewOrderUpdateStock = "UPDATE bmsql_stock " +
		"    SET s_quantity = $1, s_ytd = s_ytd + $2, " +
		"        s_order_cnt = s_order_cnt + 1, " +
		"        s_remote_cnt = s_remote_cnt + $3 " +
		"    WHERE s_w_id = $4 AND s_i_id = $5"
	StmtNewOrderInsertOrderLine = "INSERT INTO bmsql_order_line (" +
		"    ol_o_id, ol_d_id, ol_w_id, ol_number, " +
		"    ol_i_id, ol_supply_w_id, ol_quantity, " +
		"    ol_amount, ol_dist_info) " +
		"VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"

	// PAYMENT
	StmtPaymentSelectWarehouse = "SELECT w_name, w_street_1, w_street_2, w_city, " +
		"       w_state, w_zip " +
		"    FROM bmsql_warehouse " +
		"    WHERE w_id = $1 "
	StmtPaymentSelectDistrict = "SELECT d_name, d_street_1, d_street_2, d_city, " +
		"       d_state, d_zip " +
		"    FROM bmsql_district " +
		"    WHERE d_w_id = $1 AND d_id = $2"
	StmtPaymentSelectCustomerListByLast = "SELECT c_id " +
		"    FROM bmsql_customer " +
		"    WHERE c_w_id = $1 AND c_d_id = $2 AND c_last = $3 " +
		"    ORDER BY c_first"
	StmtPaymentSelectCustomer = "SELECT c_first, c_middle, c_last, c_street_1, c_street_2, " +
		"       c_city, c_state, c_zip, c_phone, c_since, c_credit, " +
		"       c_credit_lim, c_discount, c_balance " +
		"    FROM bmsql_customer " +
		"    WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3 " +
		"    FOR UPDATE"
	StmtPaymentSelectCustomerData = "SELECT c_data " +
		"    FROM bmsql_customer " +
		"    WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3"
	StmtPaymentUpdateWarehouse = "UPDATE bmsql_warehouse " +
		"    SET w_ytd = w_ytd + $1 " +
		"    WHERE w_id = $2"
	StmtPaymentUpdateDistrict = "UPDATE bmsql_district " +
		"    SET d_ytd = d_ytd + $1 " +
		"    WHERE d_w_id = $2 AND d_id = $3"
	StmtPaymentUpdateCustomer = "UPDATE bmsql_customer " +
		"    SET c_balance = c_balance - $1, " +
		"        c_ytd_payment = c_ytd_payment + $2, " +
		"        c_payment_cnt = c_payment_cnt + 1 " +
		"    WHERE c_w_id = $3 AND c_d_id = $4 AND c_id = $5"
	StmtPaymentUpdateCustomerWithData = "UPDATE bmsql_customer " +
		"    SET c_balance = c_balance - $1, " +
		"        c_ytd_payment = c_ytd_payment + $2, " +
		"        c_payment_cnt = c_payment_cnt + 1, " +
		"        c_data = $3 " +
		"    WHERE c_w_id = $4 AND c_d_id = $5 AND c_id = $6"
	StmtPaymentInsertHistory = "INSERT INTO bmsql_history (" +
		"    h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, " +
		"    h_date, h_amount, h_data) " +
		"VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"

	// ORDER_STATUS
	StmtOrderStatusSelectCustomerListByLast = "SELECT c_id " +
		"    FROM bmsql_customer " +
		"    WHERE c_w_id = $1 AND c_d_id = $2 AND c_last = $3 " +
		"    ORDER BY c_first"
	StmtOrderStatusSelectCustomer = "SELECT c_first, c_middle, c_last, c_balance " +
		"    FROM bmsql_customer " +
		"    WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3"
	StmtOrderStatusSelectLastOrder = "SELECT o_id, o_entry_d, o_carrier_id " +
		"    FROM bmsql_oorder " +
		"    WHERE o_w_id = $1 AND o_d_id = $2 AND o_c_id = $3 " +
		"      AND o_id = (" +
		"          SELECT max(o_id) " +
		"              FROM bmsql_oorder " +
		"              WHERE o_w_id = $4 AND o_d_id = $5 AND o_c_id = $6" +
		"          )"
	StmtOrderStatusSelectOrderLine = "SELECT ol_i_id, ol_supply_w_id, ol_quantity, " +
		"       ol_amount, ol_delivery_d " +
		"    FROM bmsql_order_line " +
		"    WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3 " +
		"    ORDER BY ol_w_id, ol_d_id, ol_o_id, ol_number"

	// STOCK_LEVEL (the DB_POSTGRES form)
	StmtStockLevelSelectLow = "SELECT count(*) AS low_stock FROM (" +
		"    SELECT s_w_id, s_i_id, s_quantity " +
		"        FROM bmsql_stock " +
		"        WHERE s_w_id = $1 AND s_quantity < $2 AND s_i_id IN (" +
		"            SELECT ol_i_id " +
		"                FROM bmsql_district " +
		"                JOIN bmsql_order_line ON ol_w_id = d_w_id " +
		"                 AND ol_d_id = d_id " +
		"                 AND ol_o_id >= d_next_o_id - 20 " +
		"                 AND ol_o_id < d_next_o_id " +
		"                WHERE d_w_id = $3 AND d_id = $4 " +
		"        ) " +
		"    ) AS L"

	// DELIVERY_BG
	StmtDeliveryBGSelectOldestNewOrder = "SELECT no_o_id " +
		"    FROM bmsql_new_order " +
		"    WHERE no_w_id = $1 AND no_d_id = $2 " +
		"    ORDER BY no_o_id ASC"
	StmtDeliveryBGDeleteOldestNewOrder = "DELETE FROM bmsql_new_order " +
		"    WHERE no_w_id = $1 AND no_d_id = $2 AND no_o_id = $3"
	StmtDeliveryBGSelectOrder = "SELECT o_c_id " +
		"    FROM bmsql_oorder " +
		"    WHERE o_w_id = $1 AND o_d_id = $2 AND o_id = $3"
	StmtDeliveryBGUpdateOrder = "UPDATE bmsql_oorder " +
		"    SET o_carrier_id = $1 " +
		"    WHERE o_w_id = $2 AND o_d_id = $3 AND o_id = $4"
	StmtDeliveryBGSelectSumOLAmount = "SELECT sum(ol_amount) AS sum_ol_amount " +
		"    FROM bmsql_order_line " +
		"    WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3"
	StmtDeliveryBGUpdateOrderLine = "UPDATE bmsql_order_line " +
		"    SET ol_delivery_d = $1 " +
		"    WHERE ol_w_id = $2 AND ol_d_id = $3 AND ol_o_id = $4"
	StmtDeliveryBGUpdateCustomer = "UPDATE bmsql_customer " +
		"    SET c_balance = c_balance + $1, " +
		"        c_delivery_cnt = c_delivery_cnt + 1 " +
		"    WHERE c_w_id = $2 AND c_d_id = $3 AND c_id = $4"
)
