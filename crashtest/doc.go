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
// The package has no code besides its tests.
package crashtest
