-- pg_stat_activity: the session's own row while it reads the view, and its
-- row as another session sees it (psql started with \!) while it is idle
-- inside a transaction block, after a failed statement, and after it.
SELECT state, query FROM pg_stat_activity WHERE pid = pg_backend_pid();
SELECT datname = current_database() AS datname_ok, usename = current_user AS usename_ok,
       application_name, wait_event_type, wait_event, backend_type, leader_pid,
       client_hostname, query_id, backend_xid, backend_start <= query_start AS started_first
  FROM pg_stat_activity WHERE pid = pg_backend_pid();
BEGIN;
SELECT xact_start = now() AS xact_start_is_now, query_start >= xact_start AS query_in_xact
  FROM pg_stat_activity WHERE pid = pg_backend_pid();
CREATE TABLE act (id int);
INSERT INTO act VALUES (1);
\! "$PSQL" -X -q -c "SELECT state, query, wait_event, backend_xid IS NOT NULL AS has_xid, xact_start IS NOT NULL AS in_xact FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state LIKE 'idle in%'"
SELECT 1/0;
\! "$PSQL" -X -q -c "SELECT state, query FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state LIKE 'idle in%'"
ROLLBACK;
\! "$PSQL" -X -q -c "SELECT count(*) AS in_transaction FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in%'"
SELECT xact_start IS NOT NULL AS in_xact, backend_xid FROM pg_stat_activity WHERE pid = pg_backend_pid();
-- The columns, in order.
SELECT * FROM pg_stat_activity WHERE false;
-- Signalling a pid that is no connection's.
SELECT pg_cancel_backend(1);
SELECT pg_terminate_backend(1);
SELECT pg_terminate_backend(1, -1);
