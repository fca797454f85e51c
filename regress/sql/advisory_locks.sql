--
-- Advisory locks: session and transaction holds, shared and exclusive,
-- seen from another session.
--
SELECT pg_advisory_lock(1), pg_advisory_lock_shared(2), pg_advisory_lock(1, 1), pg_advisory_lock_shared(2, 2);
SELECT pg_try_advisory_lock(1) AS again, pg_try_advisory_lock(3) AS other;
SELECT locktype, classid, objid, objsubid, mode, granted FROM pg_locks
  WHERE locktype = 'advisory' AND pid = pg_backend_pid() ORDER BY classid, objid, objsubid, mode;
\! "$PSQL" -X -q -c "SELECT pg_try_advisory_lock(1), pg_try_advisory_lock_shared(2), pg_try_advisory_lock(2), pg_try_advisory_lock(1, 1), pg_try_advisory_lock(1, 2), pg_try_advisory_lock(4)"
\! "$PSQL" -X -q -c "SET lock_timeout = '100ms'" -c "SELECT pg_advisory_lock(1)" 2>&1 | sed -e 's/^psql:[^ ]* //'
SELECT pg_advisory_unlock(1), pg_advisory_unlock(1), pg_advisory_unlock(1);
SELECT pg_advisory_unlock_shared(2), pg_advisory_unlock(2), pg_advisory_unlock_shared(2, 2);
\! "$PSQL" -X -q -c "SELECT pg_try_advisory_lock(1) AS freed, pg_try_advisory_lock(2) AS freed_too"
-- Transaction holds end with the transaction, or a rollback to a
-- savepoint set before them.
BEGIN;
SELECT pg_advisory_xact_lock(10), pg_try_advisory_xact_lock_shared(11);
SELECT locktype, classid, objid, objsubid, mode, granted FROM pg_locks
  WHERE locktype = 'advisory' AND pid = pg_backend_pid() ORDER BY classid, objid, objsubid, mode;
SELECT count(*) FROM pg_locks WHERE locktype = 'transactionid' AND pid = pg_backend_pid();
\! "$PSQL" -X -q -c "SELECT pg_try_advisory_lock(10) AS held, pg_try_advisory_lock_shared(11) AS shared_ok, pg_try_advisory_lock(11) AS held_shared"
SAVEPOINT a;
SELECT pg_advisory_xact_lock(12);
ROLLBACK TO a;
\! "$PSQL" -X -q -c "SELECT pg_try_advisory_lock(12) AS released_by_rollback_to"
SELECT pg_advisory_unlock(10);
COMMIT;
\! "$PSQL" -X -q -c "SELECT pg_try_advisory_lock(10) AS released_by_commit"
SELECT pg_advisory_unlock_all();
\! "$PSQL" -X -q -c "SELECT pg_try_advisory_lock(1, 1) AS released_by_unlock_all, pg_try_advisory_lock(3) AS also"
