// Package autovacuum runs VACUUM and ANALYZE in the background as
// PostgreSQL 15's autovacuum does (src/backend/postmaster/autovacuum.c).
//
// # Launcher and workers
//
// The launcher is one goroutine started with the server. Every
// autovacuum_naptime it starts a worker if fewer than
// autovacuum_max_workers are running (with one database, PostgreSQL's
// launcher starts one worker per naptime for it). A worker lists the
// tables that need work (NeedsVacAnalyze, the formulas in one place), then
// goes through them one at a time: before each it checks the table again
// with fresh statistics and skips it if no longer due or if another worker
// has it, so two workers never process the same table and a table
// vacuumed meanwhile is not vacuumed twice. A worker ends when its list is
// done; a table that takes longer than a naptime does not stop the next
// worker from starting on the others.
//
// # Ownership and shutdown
//
// The launcher owns its workers: each worker is one goroutine with a stop
// channel (closed by the launcher) and a done channel (closed by the
// worker when it has returned). Launcher.Stop closes the launcher's stop
// channel; the launcher closes every worker's stop channel, which cancels
// the table a worker is on, waits for every done, and closes its own done.
// Stop returns after that, so no goroutine outlives the launcher, and the
// engine stops the launcher before it writes its shutdown checkpoint.
//
// # What a worker runs
//
// Target.AutovacuumTable: an ordinary VACUUM and/or ANALYZE of the table,
// that skips the table if its lock is taken, gives the lock up (its
// context is cancelled) as soon as DDL waits for it, and is slowed by the
// cost-based delay. A cancelled run leaves what it did (every page change
// is WAL-logged) and does not report to the statistics, so the table is
// still due at the next naptime. As in PostgreSQL, the run reads the
// table and its indexes through a 256 kB ring of buffers (BAS_VACUUM,
// buffer.Strategy), so that a pass over a table larger than shared
// buffers does not evict the pages the foreground uses, and its ANALYZE
// reads at most 30,000 blocks, chosen at random, and extrapolates.
//
// # Settings
//
// params.go declares the parameters once, in package reloptions, with
// PostgreSQL 15's names, defaults, ranges and units: autovacuum,
// autovacuum_max_workers, autovacuum_naptime, the thresholds and scale
// factors, the cost delay and limit, log_autovacuum_min_duration and the
// vacuum_cost_* settings. Those PostgreSQL also accepts per table are
// storage parameters too (WITH (...), ALTER TABLE SET/RESET), plus
// autovacuum_enabled; a table's own value wins (TableOptionsFrom).
// minipg reads the server's settings at start-up only (there is no
// configuration reload), so SET refuses them as PostgreSQL refuses a
// sighup setting.
//
// # Cost balancing
//
// autovacuum_vacuum_cost_limit (or vacuum_cost_limit when it is -1) is a
// budget shared by the running workers, as autovac_balance_cost shares it:
// each worker on a table without its own cost settings gets
// limit x (its limit / its delay) / sum over such workers of (limit /
// delay), at least 1 and at most its own limit. It is recomputed whenever
// a worker starts or finishes a table; a running vacuum reads its limit at
// every delay point.
package autovacuum
