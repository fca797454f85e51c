// Package executor runs bound statements (see package sql) against the heap:
// scans, filters, projections, sorts, limits, aggregates, DML, COPY FROM and
// TO, TRUNCATE, sequences, foreign keys, VACUUM and ANALYZE, and owns the session state the wire protocol needs (transaction
// block status, settings, notices).
//
// # API used by the server
//
//	Open(cfg, log) -> *Engine          one per data directory
//	Engine.NewSession(startup)         one per connection (not safe for concurrent use)
//	Session.Prepare(sql, paramTypes)   parse + bind ONE statement
//	Session.Bind(prepared, params)     -> *Portal
//	Portal.Run(ctx, maxRows, emit)     streams rows; done=false means suspended
//	Portal.CopyFrom(ctx, r)            COPY ... FROM STDIN data stream
//	Portal.CopyTo(ctx, send)           COPY ... TO STDOUT, one payload per row (IsCopyTo)
//	Session.Sync()                     ends an implicit transaction
//
// The rest of the contract:
//
//   - ParamStatusChanges' first call after NewSession returns every
//     GUC_REPORT setting with the session's value (start-up parameters
//     applied), so the server can send its start-up ParameterStatus
//     messages from it; later calls return what SET/RESET changed.
//   - Session.Setting(name) reads a session setting; Session.PID is the
//     backend pid for BackendKeyData.
//   - Engine.Pool, Engine.Txns, Engine.Catalog expose the storage layers
//     for tools; Engine.SetCheckpointHook replaces what CHECKPOINT does.
//   - RegisterSetting adds a configuration parameter before Open; a
//     parameter declared in package reloptions with a Setting context
//     (fsm_policy, ...) is one without further registration, and, when it
//     is also a storage parameter, a table's option of the same name wins
//     over it when the table is opened (reloptions.Layers).
//     sql.RegisterFunction and sql.RegisterVirtualTable add SQL functions
//     and read-only system views (their callbacks get the *Engine as env).
//     Built in: minipg_stat_fsm (the free-space policy's counters per
//     table, one column per counter the policies declare), minipg_stat_heap
//     (heap counters per table: updates, prunes, the pruner), minipg_stat_io
//     (buffer counters and size per table) and minipg_stat_wal_rel (WAL
//     per table and record type, reset by minipg_stat_wal_rel_reset());
//     pg_stat_all_tables, pg_stat_user_tables, pg_stat_progress_vacuum,
//     pg_stat_reset() and minipg_relsize (stats.go, from package pgstat);
//     pg_stat_bgwriter and pg_stat_reset_shared('bgwriter') (bgwriter.go);
//     pg_stat_activity, pg_cancel_backend and pg_terminate_backend
//     (activity.go: the wire layer reports each session's queries and
//     waits, and the server's Signal reaches other connections).
//   - The built-in SQL functions are registered with package sql
//     (sql.RegisterBuiltin), one overload per PostgreSQL signature with its
//     volatility and strictness, one file per family of PostgreSQL 15's
//     chapter 9: func_math.go (9.3, with the operators ^ @ |/ ||/),
//     func_string.go (9.4 and format), func_format.go (9.8: to_char,
//     to_number, to_date), func_datetime.go (9.9 for timestamp and date,
//     date +/- integer); func.go evaluates a call (callBuiltin: a strict
//     function's NULL argument gives NULL without running it). Their env is
//     the *evalCtx (session and statement).
//
// # Statistics and autovacuum
//
// The engine owns a pgstat.Collector (read at Open, saved by a clean
// Close) and the autovacuum launcher (started last by Open, stopped first
// by Close, before the shutdown checkpoint). A session counts its row
// changes per table in Session.xstat (single-line hooks where DML inserts,
// updates and deletes, and where COPY inserts) and applies them when its
// transaction ends; scans are counted when they start and as rows are
// read. VACUUM, ANALYZE and autovacuum runs go through vacuumTable
// (vacuum.go), which reports to the statistics and records
// relpages/reltuples; an autovacuum run takes its table's lock with
// txn.TryLockRelationYielding, skipping a locked table and giving the
// table up (its context cancelled) when DDL waits for it (autovacuum.go).
//
// # Statement lifecycle
//
// Prepare binds against the catalog and remembers the catalog version; Bind
// rebinds the SQL if DDL happened since (and fails with 0A000 "cached plan
// must not change result type" if the result columns changed). Run starts
// the statement on its first call: SELECT builds a pipeline of iterators
//
//	source (index range or sequential scan, or the FROM tree) -> filter
//	  -> [FOR UPDATE lock] -> [aggregate -> HAVING] -> [window functions]
//	  -> [set-returning functions] -> project -> [DISTINCT] -> [sort] -> [LIMIT] -> trim
//
// which streams; rows are pulled as the client asks (Execute row limits
// suspend the pipeline). The source of a single-table SELECT without FOR
// UPDATE decodes only the columns the statement reads (tuples are deformed
// up to the last of them; the others stay NULL in the scan row) and hands
// out one row slice over and over, since filter, aggregate and projection
// keep values, never the scan row; the projection at the top of the
// pipeline reuses its output row too, since Run's emit encodes each row
// before asking for the next. Index builds likewise decode only the key
// columns. INSERT/UPDATE/DELETE run to completion on the first Run and
// buffer their RETURNING rows. Every statement takes a shared
// relation lock (txn.Manager.LockRelation) for its duration; DROP TABLE and
// CREATE INDEX take it exclusively.
//
// Plans are chosen by rule, per table (there are no statistics and no
// costs): ctid = const fetches one version; an
// index is used when the WHERE clause has col = const on leading index
// columns and/or a range (<, <=, >, >=, BETWEEN) on the next one, where
// const is a constant or parameter of the column's type (or any integer type
// for an integer column), a value of the outer row in a join, or an outer
// reference of a correlated subquery; col IN (list) and col IN (SELECT ...)
// give one lookup per value; otherwise the table is scanned. The WHERE clause
// is re-evaluated on the fetched rows, except the equalities the index range
// applies exactly (col = value of the column's own integer or text type:
// exactEq), which PostgreSQL does not recheck either. An ORDER BY on the index
// columns after the equality prefix (all ASC NULLS LAST, or all DESC NULLS
// FIRST read backward) is served by the index order without a sort. A
// query whose only output is one min(col) or max(col) over one table, with
// no GROUP BY or HAVING, takes the first row with col NOT NULL of an index
// scan forward (min) or backward (max) when an index yields col in order
// after the equality prefix or leads with col (minMaxSource, PostgreSQL's
// planagg). An index scan keeps the last heap block pinned between entries
// (heap.IndexFetcher), so entries on one block cost one buffer lookup.
//
// FROM with more than one item, or with a subquery or a function, is a tree
// of nested loops (join.go) over rows of the full joined width: each node is
// opened with an outer row and fills its own items' slots. An inner or LEFT
// join reopens its right side for every left row; RIGHT JOIN swaps the
// roles; FULL JOIN (equality conditions only, as in PostgreSQL) reads its
// right side once and returns the unmatched right rows at the end. Each
// WHERE conjunct runs at the last FROM item it reads, unless an outer join
// may NULL-extend one of its items (then it runs on the joined rows); the
// ON conjuncts of an inner or LEFT join whose right side is one item run at
// that item. At a table, the outer row's values are substituted as
// constants, so inner.k = outer.k becomes an index lookup on inner. A
// subquery in FROM streams when it is opened once (the first item) and is
// otherwise kept in memory after its first run and hashed on the columns
// its conditions compare with outer values, so a LEFT JOIN to an aggregate
// subquery costs one probe per outer row. A set-returning function in FROM
// (generate_series) is an iterator whose arguments may read the items
// before it; in a select list, set-returning functions run in lockstep
// (srf.go, PostgreSQL's ProjectSet). Neither builds its series in memory.
//
// Subqueries ((SELECT ...), IN (SELECT ...), EXISTS) run in the
// statement's snapshot. An uncorrelated one runs once and its result is
// kept in the statement's evalCtx; a correlated one (it reads columns of an
// enclosing query through sql.OuterRef) runs again for every row it is
// evaluated on, with that row pushed on evalCtx.outer, and its outer
// references count as constants for the access path, so the NOT EXISTS
// checks of BenchmarkSQL are one index probe per row. col IN (SELECT ...)
// on an indexed column is one index lookup per distinct value the
// subquery returns (BenchmarkSQL's StockLevel reads its stock rows by
// primary key). In the select list and HAVING of an aggregate query a
// correlated subquery reads the group row (its outer references name group
// keys). A LATERAL subquery in FROM runs for each joined row before it, with
// that row as its outer row.
//
// Index entries point at the root of a row version's HOT chain; an
// UPDATE the heap makes heap-only (no indexed column changed, same page)
// adds no entries.
//
// # Transactions
//
// A Session has at most one open transaction. A statement run outside a
// BEGIN block starts an implicit transaction that Sync commits (or rolls back
// if a statement failed). Inside a block, an error puts the session in the
// failed state ('E'): every statement but COMMIT/ROLLBACK returns 25P02, and
// COMMIT rolls back and answers with the tag ROLLBACK.
//
// Isolation is READ COMMITTED: each statement takes a new snapshot. UPDATE,
// DELETE and SELECT FOR UPDATE that find a row being modified by another
// transaction wait for it (txn.Txn.WaitFor, which detects deadlocks) and,
// if it was updated, follow t_ctid to the newest version and re-evaluate the
// WHERE clause on it (PostgreSQL's EvalPlanQual), applying the change there.
// UPDATE ... FROM and DELETE ... USING (dml_from.go) run their join as a
// SELECT's FROM tree and change each joined row's target version through the
// same routine; the recheck evaluates WHERE over the same joined row with the
// newest version in the target's slots.
//
// Indexes are kept on disk (storage/nbtree, WAL-logged, opened at
// start-up; the default) or in memory (package index, rebuilt at start-up),
// as the setting index_storage said when each was created; the executor sees both through
// indexStore (indexstore.go, indexstore_mem.go, indexstore_disk.go).
// Unique indexes are checked after the heap insert, with concurrent
// inserters of a key serialized (in memory by a per-index striped mutex
// keyed by the key's hash, on disk by the exclusive lock of the key's first
// leaf page, as PostgreSQL does): every index entry with the same key
// is fetched with SnapshotDirty rules (heap.SatisfiesDirty); a live one raises 23505, one whose
// inserter or deleter is still running is waited for and the check
// repeated; a row whose insertion is speculative and undecided is waited
// for until its inserter decides (txn.Txn.WaitForSpeculative), not until
// its transaction ends. Index entries are never removed by DELETE or
// UPDATE; VACUUM removes the entries of the row versions it removes.
//
// INSERT ... ON CONFLICT (upsert.go) looks for a conflicting row in its
// arbiter indexes first (waiting for a running inserter or deleter); with
// none it inserts the row speculatively (heap.InsertSpeculative, under the
// transaction's speculative insertion lock) and takes it back
// (heap.AbortSpeculative) to look again if an arbiter index holds the key
// by the time its entry goes in, so that concurrent upserts of one key
// never raise 23505 on the arbiter. DO UPDATE locks the conflicting row,
// starts over if a committed transaction changed it meanwhile, and updates
// it through UPDATE's own routine (rowUpdate in dml.go).
//
// DDL (CREATE/DROP TABLE, CREATE/DROP INDEX, ALTER TABLE) is applied to the
// catalog at once and is not undone by ROLLBACK, except as ddl_undo.go
// says. An index build that needs a
// unique key or NOT NULL columns (CREATE UNIQUE INDEX, ALTER TABLE ... ADD
// PRIMARY KEY / UNIQUE) and meets a row version whose inserter or deleter is
// still running gives up the table lock, waits for that transaction
// (txn.Txn.WaitFor) and starts over, as PostgreSQL waits for its lock:
// ignoring the version could let a duplicate or a NULL in once it commits.
// PRIMARY KEY and UNIQUE constraints are their indexes (catalog.Index): ALTER
// TABLE ... DROP CONSTRAINT removes one, DROP INDEX refuses to (2BP01).
//
// # Files
//
// One file per concept: the engine and its start-up (engine.go, wal.go,
// settings.go), sessions and portals (session.go, portal.go), one
// statement's state (execctx.go), the SELECT planner (plan.go) and access
// paths (path.go), iterators by kind (scan.go, filter.go, agg.go, sort.go,
// limit.go, join.go, subquery.go, setop.go for INTERSECT and EXCEPT,
// recursive.go for WITH RECURSIVE's recursive union), expressions (eval.go), rows in and out of
// tuples (row.go), DML (dml.go; upsert.go for INSERT ... ON CONFLICT), COPY (copy.go, copyto.go), DDL (ddl.go,
// alter.go, addcolumn.go, dropcolumn.go, altertype.go, indexbuild.go, truncate.go; createas.go: CREATE TABLE AS and
// SELECT INTO, a CREATE TABLE then INSERT ... SELECT's path), sequences and column defaults
// (sequence.go), foreign keys (fkey.go: checks and actions, with the
// locking they use and how it differs from PostgreSQL's; fkey_ddl.go:
// adding and dropping them), VACUUM (vacuum.go), the system views
// (views.go, walviews.go), index storage (indexstore*.go) and amcheck
// (amcheck.go).
//
// # Locking
//
// Engine.mu guards the map of open relations; a *relation is immutable once
// published (CREATE INDEX publishes a copy with the new index). A memory
// index's striped locks (memStore.locks), and a disk index's leaf lock,
// serialize the unique check and entry insertion of one key; they are
// taken while holding no buffer lock (a disk index's check then reads heap
// pages) and never while waiting for a transaction.
package executor
