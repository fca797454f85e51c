// Package catalog keeps minipg's table definitions — columns, types,
// typmods, NOT NULL, defaults, table options (reloptions), relfilenodes and
// indexes — in a pebble store under <datadir>, with an in-memory copy for
// lookups.
//
// # Keys
//
//	catalog/v1/table/0000016384 -> {"oid":16384,"name":"t","relfilenode":16384,
//	                                "columns":[{"name":"id","type":23,"typmod":-1,"not_null":true}],
//	                                "options":{"fillfactor":"90"},
//	                                "indexes":[{"name":"t_pkey","oid":16385,"columns":[1],"unique":true,"primary":true}]}
//	catalog/v1/seq/oid          -> "16386" (next OID to assign)
//	catalog/v1/sequence/0000016387 -> {"oid":16387,"name":"s","type":20,"increment":1,"min":1,
//	                                "max":9223372036854775807,"start":1,"cache":1,"last_value":33,"is_called":true}
//	catalog/v1/view/0000016388     -> {"oid":16388,"name":"v","columns":[{"name":"id","type":23,"typmod":-1}],
//	                                "query":"SELECT id FROM t WHERE id > 10","relations":[16384]}
//
// Keys are readable and versioned ("v1"); values are JSON. OIDs start at
// 16384 (FirstNormalObjectId) and are shared by tables and indexes; a new
// table's relfilenode equals its OID, as in PostgreSQL.
//
// # Durability and atomicity
//
// Every DDL (CreateTable, DropTable, AddIndex, DropIndex, AlterConstraints,
// SetOptions) writes one pebble batch — the changed table definitions and
// the OID counter — and commits it with Sync before it returns, so an
// acknowledged DDL survives a crash and a DDL is never half applied (pebble
// writes a batch as one WAL record). The in-memory copy is updated only after the batch is durable.
//
// # Sequences
//
// A sequence's definition and its state (last_value, is_called) share one
// key. nextval (NextVal) rewrites it, synced, only when the values stored
// ahead run out: it then stores the state SeqLogVals (32) increments past
// the value it returns, as PostgreSQL WAL-logs its sequence page, so after
// a crash the sequence resumes past every value handed out (up to 32 values
// are skipped, as in PostgreSQL). setval stores its state at once. The
// state is not transactional: ROLLBACK keeps the advance.
//
// # Names
//
// Tables, indexes, sequences and views share one namespace (relations,
// as in pg_class): creating one with a name in use is 42P07. Names are stored and matched
// exactly as given; the SQL layer folds unquoted identifiers to lower case
// and truncates them to NAMEDATALEN-1 bytes. ChooseRelationName builds
// PostgreSQL-style generated names ("t_pkey", "t_a_idx", "t_a_idx1").
//
// # Constraints
//
// A PRIMARY KEY or UNIQUE constraint is represented by its index alone
// (Index.Primary, Index.Constraint): the constraint and its index share one
// name, as PostgreSQL's pg_constraint row and its index do. Such an index is
// dropped only with its constraint (AlterConstraints), never by DropIndex.
//
// # Columns
//
// A column's attribute number is its 1-based position in Table.Columns,
// for good: ALTER TABLE ... ADD COLUMN appends, and DROP COLUMN
// (DropColumns) leaves the column in place, marked Dropped and renamed
// "........pg.dropped.N........", as pg_attribute keeps attisdropped
// attributes. A dropped column keeps its type and typmod, which the heap's
// tuple descriptor needs for the stored tuples' layout; ColumnIndex does not
// find it, and no index, foreign key or owned sequence may name it.
// ALTER COLUMN ... TYPE changes a column's type in place (AlterColumnTypes),
// with the table's and its disk indexes' new files when the rows were
// rewritten.
//
// # Immutability and locking
//
// A *Table handed out is never modified: a DDL stores a new *Table, so
// readers need no lock and a plan may keep one (Version tells it when to
// re-bind). ddlMu serializes DDL for the whole read-check-write-publish
// sequence, including the synced batch; mu (RWMutex) guards the cache maps
// and is held only for in-memory work. Lock order: ddlMu, then mu. The
// catalog does not lock relations against concurrent DML: the executor holds
// txn's relation lock exclusively around DDL.
package catalog
