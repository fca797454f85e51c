// Package crashtest holds end-to-end durability tests of the minipg server:
// a child server process (cmd/minipg built into a temporary directory) takes
// concurrent pgx clients, is killed with SIGKILL at a random moment and
// restarted, and the test checks that every acknowledged commit survived,
// that nothing rolled back or never committed is visible, that an in-flight
// transaction is all or nothing, and that the heap checks pass
// (-c minipg_check_at_start=on makes the restarted server run
// heap.CheckPages on every table and refuse to start if one fails). It also
// damages the WAL in the middle of its last segment and checks that the
// server starts, stopping replay there with a clear log message.
//
// The workloads killed (crash_test.go, workloads_test.go): DML, COPY,
// VACUUM, a table filled and emptied while VACUUM truncates its end, DDL
// (CREATE TABLE, INSERT, CREATE INDEX, DROP TABLE as separate statements)
// and CHECKPOINT in a loop. TestCrashRecovery runs each for two crashes;
// TestCrashCycles (make crash) runs MINIPG_CRASH_CYCLES of them over one
// data directory and logs the acknowledged changes checked, lost and
// phantom.
//
// Disk faults (fault_test.go) are injected in the child through
// internal/fault: no space for a relation file is an error to the client,
// after which the server goes on and recovers cleanly; a failed WAL write or
// fsync is a PANIC that ends the process, as in PostgreSQL.
//
// The package has no code besides its tests.
package crashtest
