// Package executor runs bound statements (see package sql) against the heap:
// scans, filters, projections, sorts, limits, aggregates, DML, COPY FROM and
// VACUUM, and owns the session state the wire protocol needs (transaction
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
//	Session.Sync()                     ends an implicit transaction
//
// # Transactions
//
// A Session has at most one open transaction. A statement run outside a
// BEGIN block starts an implicit transaction that Sync commits (or rolls back
// if a statement failed). Inside a block, an error puts the session in the
// failed state ('E'): every statement but COMMIT/ROLLBACK returns 25P02, and
// COMMIT rolls back and answers with the tag ROLLBACK.
//
// Isolation is READ COMMITTED: each statement takes a new snapshot. UPDATE and
// DELETE that find a row being modified by another transaction wait for it
// (txn.Manager.Wait) and, if it was updated, follow t_ctid to the newest
// version and re-evaluate the WHERE clause on it (PostgreSQL's EvalPlanQual).
//
// DDL (CREATE/DROP TABLE, CREATE INDEX) is applied to the catalog at once and
// is not undone by ROLLBACK.
package executor
