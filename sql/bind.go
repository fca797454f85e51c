package sql

import (
	"fmt"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/types"
)

// Bound is the result of Prepare: the statement, its parameter types and
// its result columns (nil: the statement returns no rows).
type Bound struct {
	Stmt       Stmt
	ParamTypes []types.OID
	Columns    []ResultCol
	Notices    []*pgerr.Error // raised while parsing (identifier truncation)
	// With are the statement's data-modifying WITH queries, in order: the
	// executor runs each to completion before the statement (with_dml.go).
	With []*WithDML
}

// Catalog is what binding needs from the catalog.
type Catalog interface {
	Table(name string) (*catalog.Table, bool)
}

// binder binds one statement: the catalog it reads, the query text (for
// error positions), the parameter types found so far, and the clause being
// bound (its scope and whether aggregates are allowed).
type binder struct {
	// cteAliases maps the aliases inlineCTEs gave references to a CTE
	// with a column list (WITH x(a, b) AS ...) to that CTE, for its errors.
	cteAliases map[*pg_query.Alias]*pg_query.CommonTableExpr
	// cteRefs are the copies of each CTE's query that inlineCTEs put in
	// FROM; cteShared numbers those of a CTE referenced more than once.
	cteRefs   map[*pg_query.CommonTableExpr][]*pg_query.SelectStmt
	cteShared map[*pg_query.SelectStmt]int
	// recursiveCTE marks the CTEs of WITH RECURSIVE lists that name
	// themselves; recursiveQueries are the copies of their queries put in
	// FROM, bound as recursive unions; workTables are the self-references
	// in scope while a recursive term is bound, innermost last, numbered
	// from nextWorkTable.
	// hiddenCTENames are the CTEs of the WITH lists being inlined that
	// the query at hand may not name (itself and the ones after it,
	// without RECURSIVE); hiddenCTERefs the table names in FROM that name
	// one, for the "relation does not exist" error's detail.
	hiddenCTENames   []string
	hiddenCTERefs    map[*pg_query.RangeVar]bool
	recursiveCTE     map[*pg_query.CommonTableExpr]bool
	recursiveQueries map[*pg_query.SelectStmt]*pg_query.CommonTableExpr
	workTables       []*workTable
	nextWorkTable    int
	cat              Catalog
	query            string
	params           []types.OID
	// paramSeen: the $n (0-based) the statement uses; a parameter it does
	// not use and the client did not type is 42P18.
	paramSeen map[int]bool
	sc        *scope
	agg       *aggCtx // nil: aggregates not allowed here
	aggErr    string  // clause name for "aggregate functions are not allowed in %s"
	win       *winCtx // nil: window functions not allowed here
	// winErr names the clause for "window functions are not allowed in
	// %s" where aggregates are allowed (GROUP BY, HAVING, window
	// definitions); "" is aggErr's.
	winErr string
	// valuesRow: the next selectStmt is a row of VALUES, where window
	// functions are not allowed.
	valuesRow bool

	allowVirtual bool // table lookups may return virtual tables (SELECT's FROM)
	// outer holds the scopes of the queries enclosing the one being bound,
	// innermost last.
	outer []outerScope
	srfOK bool // set-returning functions are allowed here (a select list, FROM)
	// noSubquery names the expression being bound when it may hold no
	// subquery ("DEFAULT expression"); "" allows them.
	noSubquery string
	// regrouped: correlated subqueries of an aggregate query whose outer
	// references already read its group row.
	regrouped map[*Select]bool
	// hidden is the target table of UPDATE ... FROM or DELETE ... USING
	// while the FROM items are bound: PostgreSQL knows it there but does
	// not let them read it, and says so (hiddenRef). hiddenLateral: the
	// reference is made by a LATERAL item.
	hidden        *scopeTable
	hiddenLateral bool
	// checkTable is the table whose CHECK constraint is being bound.
	checkTable *catalog.Table
	// fnParams are the parameter names of the SQL function whose body is
	// being bound: a name no column has reads the parameter.
	fnParams []string
	fnBody   bool // binding a SQL function's body
	// creatingFunc is the function CREATE FUNCTION is checking the body
	// of: the body may call it (recursion), as PostgreSQL lets it.
	creatingFunc *catalog.Function
	// inlining are the SQL functions whose bodies are being inlined
	// around the expression being bound (inlineFunction).
	inlining map[uint32]bool
	// insertSource: the next selectStmt is an INSERT's source and leaves
	// its unknown-typed outputs for the target columns to resolve.
	insertSource bool
	// deps collects the OIDs of the tables and views the statement reads
	// (CREATE VIEW's dependencies); nil when not collecting.
	deps map[uint32]bool
	// colDeps collects the table columns the statement reads (a view's
	// column dependencies, ViewColumnDeps); nil when not collecting.
	colDeps map[ColumnDep]bool
	// viewStack holds the OIDs of the views being expanded around the
	// current point: one met again is a loop.
	viewStack []uint32
	// withTop is the statement whose WITH clause may hold data-modifying
	// queries (the top level); withCTEs are those queries, in order, and
	// withDML their bound statements (with_dml.go).
	withTop  any
	withCTEs []*pg_query.CommonTableExpr
	withDML  []*WithDML
	// targetView is the view an INSERT, UPDATE or DELETE being bound
	// changes (bind_viewdml.go); nil for a table.
	targetView *viewDML
}

// errAt is an error at byte offset loc of the query (reported as a
// character position; no position when loc < 0).
func (b *binder) errAt(loc int32, code pgerr.Code, format string, args ...any) *pgerr.Error {
	e := pgerr.New(code, format, args...)
	e.Position = charPos(b.query, loc)
	return e
}

// noteParam makes room for $idx+1 and returns its current type (0: not
// decided yet).
func (b *binder) noteParam(idx int) types.OID {
	for len(b.params) <= idx {
		b.params = append(b.params, 0)
	}
	return b.params[idx]
}

// Prepare parses query (one statement) and binds it against cat.
// paramTypes[i] == 0 asks for inference. A query without a statement gives
// (nil, nil).
func Prepare(cat Catalog, query string, paramTypes []types.OID) (*Bound, error) {
	if len(paramTypes) == 0 {
		if t, ok := bareTxn(query); ok {
			return &Bound{Stmt: t}, nil
		}
	}
	n, err := parseOne(query)
	if err != nil || n == nil {
		return nil, err
	}
	b := &binder{cat: cat, query: query, params: append([]types.OID(nil), paramTypes...)}
	st, cols, err := b.stmt(n)
	if err != nil {
		return nil, err
	}
	for i, p := range b.params {
		if p == 0 || p == types.Unknown {
			if !b.paramSeen[i] {
				return nil, pgerr.New(pgerr.IndeterminateDatatype, "could not determine data type of parameter $%d", i+1)
			}
			b.params[i] = types.Text
		}
	}
	fixParams(st, b.params)
	if cols != nil {
		cols = resultCols(st, cols)
	}
	return &Bound{Stmt: st, ParamTypes: b.params, Columns: cols, Notices: truncationNotices(query), With: b.withDML}, nil
}

// bareTxns are the transaction statements drivers send around every
// transaction (pgx and pgjdbc send begin and commit as simple queries), by
// their lower-case text. Prepare binds them without the parser, a round
// trip through cgo that cost more than running them.
var bareTxns = map[string]Txn{
	"begin":             {Kind: TxnBegin, Tag: "BEGIN"},
	"start transaction": {Kind: TxnBegin, Tag: "START TRANSACTION"},
	"commit":            {Kind: TxnCommit, Tag: "COMMIT"},
	"end":               {Kind: TxnCommit, Tag: "COMMIT"},
	"rollback":          {Kind: TxnRollback, Tag: "ROLLBACK"},
	"abort":             {Kind: TxnRollback, Tag: "ROLLBACK"},
}

// bareTxn returns the statement of query if it is one of bareTxns, with
// any case, white space around it and one semicolon after it.
func bareTxn(query string) (*Txn, bool) {
	q := strings.TrimSpace(query)
	q = strings.TrimSpace(strings.TrimSuffix(q, ";"))
	if len(q) > len("start transaction") {
		return nil, false
	}
	t, ok := bareTxns[strings.ToLower(q)]
	if !ok {
		return nil, false
	}
	return &t, true
}

// ParseExpr binds a stand-alone expression (a column DEFAULT) coerced to t.
func ParseExpr(text string, t types.T) (Expr, error) {
	n, err := parseOne("SELECT " + text)
	if err != nil {
		return nil, err
	}
	sel := n.GetSelectStmt()
	if sel == nil || len(sel.TargetList) != 1 {
		return nil, pgerr.New(pgerr.SyntaxError, "invalid expression %q", text)
	}
	b := &binder{query: "SELECT " + text, aggErr: "DEFAULT expressions"}
	e, err := b.expr(sel.TargetList[0].GetResTarget().Val)
	if err != nil {
		return nil, err
	}
	// Convert to the type now, but enforce its length or precision only when
	// the default is used (as PostgreSQL does: CREATE TABLE accepts
	// varchar(3) DEFAULT 'toolong'; an INSERT that takes the default fails).
	base := types.T{OID: t.OID, Typmod: -1}
	if e, err = b.coerce(e, base, types.CastAssignment, 0); err != nil || t.Typmod < 0 {
		return e, err
	}
	return &Cast{X: e, T: t}, nil
}

// resultCols refreshes column types after parameter types are final.
func resultCols(st Stmt, cols []ResultCol) []ResultCol {
	var ex []Expr
	switch s := st.(type) {
	case *Select:
		ex = s.Targets[:s.NVisible]
	case *Insert:
		ex = s.Returning
	case *Update:
		ex = s.Returning
	case *Delete:
		ex = s.Returning
	}
	if len(ex) == len(cols) {
		for i, e := range ex {
			if cols[i].T.OID == types.Unknown || cols[i].T.OID == 0 {
				cols[i].T = e.Type()
			}
			if cols[i].T.OID == types.Unknown {
				cols[i].T = types.TText
			}
		}
	}
	return cols
}

func fixParams(st Stmt, params []types.OID) {
	if e, ok := st.(*Explain); ok {
		fixParams(e.Stmt, params)
		return
	}
	var fixSel func(s *Select)
	fix := func(e Expr) {
		Walk(e, func(x Expr) {
			if p, ok := x.(*Param); ok && p.T.OID == types.Unknown {
				p.T = types.T{OID: params[p.Idx], Typmod: -1}
			}
			if sp, ok := x.(*SubPlan); ok {
				fixSel(sp.Select)
			}
		})
	}
	fixSel = func(s *Select) {
		if s == nil {
			return
		}
		for _, arm := range s.Union {
			fixSel(arm)
		}
		fix(s.Where)
		fix(s.Having)
		fix(s.Limit)
		fix(s.Offset)
		for _, e := range s.Group {
			fix(e)
		}
		for _, e := range s.Targets {
			fix(e)
		}
		for _, a := range s.Aggs {
			fix(a)
		}
		for _, f := range s.From {
			fixSel(f.Sub)
			if f.Func != nil {
				fix(f.Func)
			}
		}
		for _, f := range s.SRFs {
			fix(f)
		}
		for _, e := range s.WindowExprs() {
			fix(e)
		}
		var fixJoin func(j *JoinNode)
		fixJoin = func(j *JoinNode) {
			if j != nil {
				fix(j.On)
				fixJoin(j.L)
				fixJoin(j.R)
			}
		}
		fixJoin(s.Join)
	}
	switch s := st.(type) {
	case *Select:
		fixSel(s)
	case *CreateTableAs:
		fixSel(s.Query)
	case *Insert:
		fixSel(s.Source)
		for _, r := range s.Values {
			for _, e := range r {
				fix(e)
			}
		}
		for _, e := range s.Returning {
			fix(e)
		}
		if oc := s.OnConflict; oc != nil {
			for _, sp := range oc.Multi {
				fix(sp)
			}
			fix(oc.Where)
			for _, it := range oc.Set {
				fix(it.E)
			}
		}
	case *Update:
		if s.From != nil {
			fixSel(s.From.Source)
		}
		for _, sp := range s.Multi {
			fix(sp)
		}
		fix(s.Where)
		for _, it := range s.Set {
			fix(it.E)
		}
		for _, e := range s.Returning {
			fix(e)
		}
	case *Delete:
		if s.From != nil {
			fixSel(s.From.Source)
		}
		fix(s.Where)
		for _, e := range s.Returning {
			fix(e)
		}
	}
}

func (b *binder) stmt(n *pg_query.Node) (Stmt, []ResultCol, error) {
	// CREATE VIEW keeps its query's text as written: it inlines the
	// query's CTEs itself, after taking the text.
	if n.GetViewStmt() == nil {
		b.withTop = topStatement(n)
		if m := n.GetMergeStmt(); m != nil && m.WithClause != nil && m.WithClause.Recursive {
			return nil, nil, pgerr.New(pgerr.FeatureNotSupported, "WITH RECURSIVE is not supported for MERGE statement")
		}
		if err := b.inlineCTEs(n); err != nil {
			return nil, nil, err
		}
		if err := b.bindWithDML(); err != nil {
			return nil, nil, err
		}
	}
	if err := b.viewTarget(n); err != nil {
		return nil, nil, err
	}
	switch {
	case n.GetSelectStmt() != nil && leftmostInto(n.GetSelectStmt()) != nil:
		s, err := b.selectInto(n.GetSelectStmt())
		return s, nil, err
	case n.GetCreateTableAsStmt() != nil:
		s, err := b.createTableAs(n.GetCreateTableAsStmt())
		return s, nil, err
	case n.GetSelectStmt() != nil:
		s, err := b.selectStmt(n.GetSelectStmt())
		if err != nil {
			return nil, nil, err
		}
		if s.Columns == nil {
			// SELECT with an empty target list returns zero-column rows:
			// a RowDescription with no fields, never NoData.
			s.Columns = []ResultCol{}
		}
		return s, s.Columns, nil
	case n.GetInsertStmt() != nil:
		s, err := b.insertStmt(n.GetInsertStmt())
		if err != nil {
			return nil, nil, err
		}
		return s, s.Columns, nil
	case n.GetMergeStmt() != nil:
		s, err := b.mergeStmt(n.GetMergeStmt())
		if err != nil {
			return nil, nil, err
		}
		return s, nil, nil
	case n.GetUpdateStmt() != nil:
		s, err := b.updateStmt(n.GetUpdateStmt())
		if err != nil {
			return nil, nil, err
		}
		return s, s.Columns, nil
	case n.GetDeleteStmt() != nil:
		s, err := b.deleteStmt(n.GetDeleteStmt())
		if err != nil {
			return nil, nil, err
		}
		return s, s.Columns, nil
	case n.GetCreateStmt() != nil:
		s, err := b.createTable(n.GetCreateStmt())
		return s, nil, err
	case n.GetDropStmt() != nil:
		s, err := b.dropStmt(n.GetDropStmt())
		return s, nil, err
	case n.GetDeclareCursorStmt() != nil:
		s, err := b.declareCursor(n.GetDeclareCursorStmt())
		return s, nil, err
	case n.GetFetchStmt() != nil:
		s, cols, err := b.fetchCursor(n.GetFetchStmt())
		return s, cols, err
	case n.GetClosePortalStmt() != nil:
		return &CloseCursor{Name: n.GetClosePortalStmt().Portalname}, nil, nil
	case n.GetCommentStmt() != nil:
		s, err := b.commentStmt(n.GetCommentStmt())
		return s, nil, err
	case n.GetRenameStmt() != nil:
		s, err := b.renameStmt(n.GetRenameStmt())
		return s, nil, err
	case n.GetViewStmt() != nil:
		s, err := b.createView(n.GetViewStmt())
		return s, nil, err
	case n.GetClusterStmt() != nil:
		s, err := b.clusterStmt(n.GetClusterStmt())
		return s, nil, err
	case n.GetCreateFunctionStmt() != nil:
		s, err := b.createFunction(n.GetCreateFunctionStmt())
		return s, nil, err
	case n.GetIndexStmt() != nil:
		s, err := b.createIndex(n.GetIndexStmt())
		return s, nil, err
	case n.GetCreateSeqStmt() != nil:
		s, err := b.createSequence(n.GetCreateSeqStmt())
		return s, nil, err
	case n.GetCreateExtensionStmt() != nil:
		s, err := b.createExtension(n.GetCreateExtensionStmt())
		return s, nil, err
	case n.GetCopyStmt() != nil:
		s, err := b.copyStmt(n.GetCopyStmt())
		return s, nil, err
	case n.GetVacuumStmt() != nil:
		s, err := b.vacuumStmt(n.GetVacuumStmt())
		return s, nil, err
	case n.GetTransactionStmt() != nil:
		s, err := b.txnStmt(n.GetTransactionStmt())
		return s, nil, err
	case n.GetVariableSetStmt() != nil:
		s, err := b.setStmt(n.GetVariableSetStmt())
		return s, nil, err
	case n.GetVariableShowStmt() != nil:
		name := strings.ToLower(n.GetVariableShowStmt().Name)
		if name == "all" {
			return &Show{Name: name}, []ResultCol{{Name: "name", T: types.TText}, {Name: "setting", T: types.TText}, {Name: "description", T: types.TText}}, nil
		}
		return &Show{Name: name}, []ResultCol{{Name: showColumnName(n.GetVariableShowStmt().Name), T: types.TText}}, nil
	case n.GetCheckPointStmt() != nil:
		return &Checkpoint{}, nil, nil
	case n.GetDiscardStmt() != nil:
		switch n.GetDiscardStmt().Target {
		case pg_query.DiscardMode_DISCARD_PLANS:
			return &Discard{Tag: "DISCARD PLANS"}, nil, nil
		case pg_query.DiscardMode_DISCARD_SEQUENCES:
			return &Discard{Tag: "DISCARD SEQUENCES", Sequences: true}, nil, nil
		case pg_query.DiscardMode_DISCARD_TEMP:
			return &Discard{Tag: "DISCARD TEMP"}, nil, nil
		}
		return &Discard{Tag: "DISCARD ALL", All: true, Sequences: true}, nil, nil
	case n.GetExplainStmt() != nil:
		s, cols, err := b.explainStmt(n.GetExplainStmt())
		if err != nil {
			return nil, nil, err
		}
		return s, cols, nil
	case n.GetAlterTableStmt() != nil:
		s, err := b.alterTable(n.GetAlterTableStmt())
		return s, nil, err
	case n.GetAlterSeqStmt() != nil:
		s, err := b.alterSequence(n.GetAlterSeqStmt())
		return s, nil, err
	case n.GetTruncateStmt() != nil:
		s, err := b.truncateStmt(n.GetTruncateStmt())
		return s, nil, err
	case n.GetPrepareStmt() != nil:
		s, err := b.prepareStmt(n.GetPrepareStmt())
		return s, nil, err
	case n.GetExecuteStmt() != nil:
		s, cols, err := b.executeStmt(n.GetExecuteStmt())
		return s, cols, err
	case n.GetDeallocateStmt() != nil:
		return b.deallocateStmt(n.GetDeallocateStmt()), nil, nil
	}
	return nil, nil, pgerr.Unimplemented(commandName(n))
}

// commandNames names the statements minipg does not implement the way
// PostgreSQL's command tags do, for the 0A000 error.
var commandNames = map[string]string{
	"CreateTrigStmt":        "CREATE TRIGGER",
	"CreateFunctionStmt":    "CREATE FUNCTION",
	"AlterFunctionStmt":     "ALTER FUNCTION",
	"DoStmt":                "DO",
	"CallStmt":              "CALL",
	"RuleStmt":              "CREATE RULE",
	"CreateSchemaStmt":      "CREATE SCHEMA",
	"CreateRoleStmt":        "CREATE ROLE",
	"AlterRoleStmt":         "ALTER ROLE",
	"DropRoleStmt":          "DROP ROLE",
	"GrantStmt":             "GRANT",
	"GrantRoleStmt":         "GRANT",
	"CreateDomainStmt":      "CREATE DOMAIN",
	"CompositeTypeStmt":     "CREATE TYPE",
	"CreateEnumStmt":        "CREATE TYPE",
	"CreateRangeStmt":       "CREATE TYPE",
	"CreatedbStmt":          "CREATE DATABASE",
	"DropdbStmt":            "DROP DATABASE",
	"ListenStmt":            "LISTEN",
	"UnlistenStmt":          "UNLISTEN",
	"NotifyStmt":            "NOTIFY",
	"LockStmt":              "LOCK TABLE",
	"ClusterStmt":           "CLUSTER",
	"ReindexStmt":           "REINDEX",
	"CreateTableAsStmt":     "CREATE TABLE AS",
	"RefreshMatViewStmt":    "REFRESH MATERIALIZED VIEW",
	"RenameStmt":            "ALTER ... RENAME",
	"CreateExtensionStmt":   "CREATE EXTENSION",
	"CreatePolicyStmt":      "CREATE POLICY",
	"CreateStatsStmt":       "CREATE STATISTICS",
	"CreateTableSpaceStmt":  "CREATE TABLESPACE",
	"CreateCastStmt":        "CREATE CAST",
	"DefineStmt":            "CREATE AGGREGATE, OPERATOR or TYPE",
	"AlterObjectSchemaStmt": "ALTER ... SET SCHEMA",
	"AlterOwnerStmt":        "ALTER ... OWNER TO",
	"ReassignOwnedStmt":     "REASSIGN OWNED",
	"DropOwnedStmt":         "DROP OWNED",
}

// commandName is the SQL name of statement n: from commandNames, else its
// parse node's name split into upper-case words (AlterDatabaseStmt: ALTER
// DATABASE).
func commandName(n *pg_query.Node) string {
	node := strings.TrimPrefix(fmt.Sprintf("%T", n.Node), "*pg_query.Node_")
	if name, ok := commandNames[node]; ok {
		if node == "CreateFunctionStmt" && n.GetCreateFunctionStmt().GetIsProcedure() {
			return "CREATE PROCEDURE"
		}
		if node == "CreateTableAsStmt" && n.GetCreateTableAsStmt().GetObjtype() == pg_query.ObjectType_OBJECT_MATVIEW {
			return "CREATE MATERIALIZED VIEW"
		}
		return name
	}
	var words []string
	start := 0
	base := strings.TrimSuffix(node, "Stmt")
	for i := 1; i <= len(base); i++ {
		if i == len(base) || (base[i] >= 'A' && base[i] <= 'Z') {
			words = append(words, strings.ToUpper(base[start:i]))
			start = i
		}
	}
	return strings.Join(words, " ")
}

// showColumnName is the column name SHOW reports (PostgreSQL keeps the
// canonical spelling of the setting).
func showColumnName(name string) string {
	if c, ok := canonicalNames[strings.ToLower(name)]; ok {
		return c
	}
	return strings.ToLower(name)
}

var canonicalNames = map[string]string{
	"datestyle":     "DateStyle",
	"timezone":      "TimeZone",
	"intervalstyle": "IntervalStyle",
}
