// Package sql turns SQL text into bound statements: the parse tree of
// PostgreSQL's own parser with every name resolved against the catalog and
// every expression typed, ready for package executor to run. It does not
// execute anything and never touches storage.
//
// # What it owns
//
// Parsing (parse.go). Split cuts a simple-query string into statements and
// Prepare parses one with pg_query_go (libpg_query, PostgreSQL's grammar),
// so minipg accepts exactly what PostgreSQL accepts. An empty or
// comment-only query binds to nil (EmptyQueryResponse); more than one
// statement in a prepared query is 42601, as in PostgreSQL.
//
// Binding (bind*.go). A binder walks the parse tree of one statement:
//
//	bind.go          Prepare, ParseExpr (column DEFAULTs), the binder, the
//	                 statement switch
//	bind_select.go   SELECT, one function per clause: FROM and WHERE,
//	                 targets, GROUP BY / HAVING, ORDER BY, DISTINCT, the
//	                 group row, LIMIT / OFFSET, FOR UPDATE
//	bind_from.go     FROM items (tables, virtual tables, subqueries with column
//	                 aliases, functions) and the tree of joins: inner, LEFT,
//	                 RIGHT and FULL with ON, USING or NATURAL, CROSS JOIN
//	bind_srf.go      set-returning functions (generate_series)
//	bind_setop.go    UNION, INTERSECT and EXCEPT [ALL] (common column types,
//	                 ORDER BY on the result) and VALUES lists
//	bind_dml.go      INSERT (VALUES or SELECT), UPDATE, DELETE, RETURNING, defaults
//	bind_dmlfrom.go  UPDATE ... FROM and DELETE ... USING: the FROM items
//	                 bound as SELECT's, joined with the target table
//	cte.go           WITH queries, each reference inlined as a subquery in FROM
//	cte_recursive.go WITH RECURSIVE: the well-formedness checks, the order
//	                 of the list, recursive unions and their work tables
//	bind_createas.go CREATE TABLE ... AS and SELECT ... INTO (the table's
//	                 columns from the query's output columns)
//	bind_ddl.go      CREATE/DROP TABLE and INDEX, COPY, VACUUM,
//	                 BEGIN/COMMIT/ROLLBACK, SET/RESET/SHOW, table options
//	bind_alter.go    ALTER TABLE: SET/RESET of table options, ADD PRIMARY KEY /
//	                 UNIQUE / FOREIGN KEY and DROP CONSTRAINT (checked by the
//	                 executor, in PostgreSQL's order, under the table's lock)
//	bind_addcolumn.go, bind_dropcolumn.go  ADD COLUMN, DROP COLUMN (a
//	                 dropped column keeps its slot in the row, out of scope)
//	bind_altertype.go ALTER COLUMN ... TYPE: the new types, the conversions
//	                 (USING or an assignment cast), whether a rewrite is needed
//	bind_fkey.go     FOREIGN KEY constraints as written (resolved by the executor)
//	bind_sequence.go CREATE/DROP SEQUENCE, ALTER COLUMN SET/DROP DEFAULT,
//	                 nextval/currval/setval/lastval and their sequence argument
//	bind_truncate.go TRUNCATE
//	bind_copyto.go   COPY ... TO STDOUT (a table becomes a SELECT of its columns)
//	bind_expr.go     the expression dispatcher, literals, parameters, the
//	                 location of a raw expression
//	bind_colref.go   column references and the scope they resolve in
//	bind_coerce.go   coercion (implicit, assignment, explicit casts), common
//	                 types, type names, assignment errors
//	bind_operator.go operators: comparison, arithmetic, ||, AND/OR/NOT, IS
//	                 NULL, IN, BETWEEN, IS DISTINCT FROM, LIKE
//	bind_func.go     function calls: built-in functions, registered functions,
//	                 CURRENT_TIMESTAMP and friends
//	func_resolve.go  the built-in functions' overloads (RegisterBuiltin, as
//	                 pg_proc lists them) and the choice among them by
//	                 PostgreSQL's rules (func_select_candidate: exact match,
//	                 implicit casts, most exact matches, preferred types,
//	                 unknown literals as string category first); operators
//	                 that are built-in functions (^ @ |/ ||/, date +/-)
//	bind_agg.go      aggregate calls and their result types, ordered-set aggregates (WITHIN GROUP)
//	bind_window.go   window function calls (OVER) and the windows they name
//	bind_window_def.go the window definitions (WINDOW, OVER (...)), frames,
//	                 the order the windows are evaluated in, their slots
//	bind_case.go     CASE and COALESCE (NULLIF is in bind_operator.go)
//	bind_json.go     the json and jsonb operators (RegisterOperator), the
//	                 calls that take a row (row_to_json(t)), the one-column
//	                 JSON set-returning functions
//	bind_sublink.go  subqueries (EXISTS, scalar, IN), correlated or not
//
// Names are looked up through the Catalog interface (a table name to its
// *catalog.Table); functions and read-only system views registered by
// other packages (RegisterFunction, RegisterVirtualTable in registry.go)
// are consulted after the built-ins and after the catalog's tables.
//
// Bound statements (bound.go). Stmt is one of Select, Insert, Update,
// Delete, CreateTable, CreateTableAs, DropTable, CreateIndex, DropIndex, Copy, CopyTo,
// Vacuum, AlterOptions, AlterConstraints, AlterMissing, AlterDefault,
// CreateSequence, DropSequence, Truncate, Txn, Set, Show, Checkpoint and
// Discard; Expr is a tree of
// Const, Param, ColRef, OuterRef, Arith, Cmp, BoolOp, Cast, Func, Agg,
// SubPlan, SRFCall, WinFunc, ... each carrying its result type (types.T). A ColRef
// is a slot number in the row the expression is evaluated over; each
// statement type documents that row's layout (table columns, then ctid;
// FROM items side by side; the group row of an aggregate query). An
// OuterRef is a slot of an enclosing query's row: column names are looked
// up in the query's own FROM first, then outward, and a subquery that
// reaches out is marked Correlated. Unqualified names and * see the
// columns of JOIN ... USING once, merged as PostgreSQL merges them. Walk and mapChildren (walk.go)
// visit and rewrite expression trees.
//
// Types. Constants are parsed into their final type at bind time; a
// quoted literal stays of type unknown until context (the other operand,
// the target column, an explicit cast) decides it, as in PostgreSQL.
// Implicit, assignment and explicit casts follow types.CastContextOf;
// arithmetic on two numeric-category operands takes PostgreSQL's result
// type (the wider integer; numeric over integers; float8 over the rest).
//
// Parameter type inference. Prepare takes the parameter OIDs the client
// sent; 0 asks for inference. A $n of unknown type takes the type its
// context coerces it to (the column it is compared with or assigned to, the
// other operand of an operator); one that nothing decides becomes text, as
// PostgreSQL does. Bound.ParamTypes holds the final OIDs (for
// ParameterDescription) and every Param in the tree is updated to match.
//
// Errors. Every error is a *pgerr.Error with PostgreSQL's SQLSTATE and,
// where PostgreSQL reports one, its Position: the 1-based character (not
// byte) offset into the query, taken from the parser's cursor position for
// syntax errors (42601) and from the parse-tree node's location for
// binding errors (42P01 undefined table, 42703 undefined column, 42883
// operator does not exist, 42804 datatype mismatch, 22P02 bad literal, ...).
// A value that cannot be assigned to its column (INSERT, UPDATE, a DEFAULT)
// is 42804 "column ... is of type ... but expression is of type ..." at the
// expression's leftmost token, as PostgreSQL's transformAssignedExpr
// reports it; 42846 "cannot cast type" is for explicit casts only.
// Statements minipg does not implement (EXPLAIN, SQL-level PREPARE, ...)
// are 0A000 feature_not_supported.
//
// # Invariants
//
// A bound statement is self-contained: it holds the *catalog.Table it was
// bound against, and every Expr in it has a final type (no unknown
// remains after Prepare). Binding is pure: it reads the catalog and the
// registry but changes nothing, so a failed Prepare leaves no trace.
//
// # Locking
//
// A binder belongs to one Prepare call and is not shared. The registry of
// functions and virtual tables is guarded by its own RWMutex; registration
// normally happens at start-up. The Catalog passed to Prepare must be safe
// for concurrent lookups if sessions prepare statements in parallel (the
// executor passes its engine's catalog).
package sql
