package sql

import (
	"minipg/catalog"
	"minipg/types"
)

// Expr is a bound expression. Column references index into the row the
// expression is evaluated over (see each statement for the row layout).
type Expr interface {
	Type() types.T
}

// ViewCheck is a view's WHERE, over its base table's row, that a new row
// must meet (WITH CHECK OPTION).
type ViewCheck struct {
	View string
	Expr Expr
}

// GroupingSetID is the last key of a Select with GroupingSets: the index
// of the grouping set of a group row (int4). It is never evaluated over a
// scan row.
type GroupingSetID struct{}

// GroupingFunc is GROUPING(args): an int4 with one bit per argument, the
// first argument's the most significant, set when the group row's grouping
// set lacks that argument. Bound over the scan row, Args are its arguments
// and Set is nil; over the group row (toGroupRow) Args are references to
// their group keys, Set the row's GroupingSetID (nil without grouping
// sets: every argument is a key, the result 0) and Values[i] the result
// for set i.
type GroupingFunc struct {
	Args    []Expr
	Set     Expr
	Values  []int32
	argLocs []int32 // the arguments' query offsets
}

func (*GroupingSetID) Type() types.T { return types.TInt4 }
func (*GroupingFunc) Type() types.T  { return types.TInt4 }

// Const is a constant (already converted to T).
type Const struct {
	T   types.T
	Val types.Datum

	loc    int32 // byte offset of the literal in the query
	locSet bool
}

// Param is $n (Idx is n-1). Its value arrives already converted to the
// prepared statement's parameter type.
type Param struct {
	Idx int
	T   types.T
}

// ColRef reads slot Idx of the input row.
type ColRef struct {
	Idx  int
	T    types.T
	Name string
}

// Arith is a binary arithmetic operator (+ - * / %) on operands already cast
// to T.
type Arith struct {
	Op   byte
	L, R Expr
	T    types.T
}

// Neg is unary minus.
type Neg struct {
	X Expr
	T types.T
}

// Concat is the text || operator; operands are rendered as text.
type Concat struct {
	L, R   Expr
	LT, RT types.T
}

// Cmp is a comparison; both operands have type CT (or compatible integer
// types when CT is an integer type).
type Cmp struct {
	Op   string // = <> < <= > >= "IS DISTINCT FROM" "IS NOT DISTINCT FROM"
	L, R Expr
	CT   types.T
}

// BoolOp is AND / OR / NOT (NOT has one argument).
type BoolOp struct {
	Op   string // AND OR NOT
	Args []Expr
}

// IsNull is IS [NOT] NULL.
type IsNull struct {
	X   Expr
	Not bool
}

// InList is x [NOT] IN (list); all operands have type CT.
type InList struct {
	X    Expr
	List []Expr
	Not  bool
	CT   types.T
}

// Like is X [NOT] LIKE/ILIKE Pattern (text operands, backslash escapes).
type Like struct {
	X, Pattern Expr
	Not        bool
	Fold       bool // ILIKE
}

// Cast converts X to T (types.Coerce).
type Cast struct {
	X        Expr
	T        types.T
	Explicit bool
}

// Case is CASE [Arg] WHEN ... THEN ... [ELSE ...] END. With Arg, each
// When is compared to it for equality (When holds the comparisons already).
type Case struct {
	Whens   []Expr // boolean conditions
	Results []Expr
	Else    Expr // nil: NULL
	T       types.T
}

// SubPlan is a subquery: Kind "scalar" ((SELECT ...), one column, at most
// one row), "array" (ARRAY(SELECT ...): the column's values, in order, as a
// one-dimensional array; T is the array type), "in" (X [NOT] IN (SELECT ...), compared in type CT),
// "exists", or "row" (the source of UPDATE's SET (a, b) = (SELECT ...): the
// visible columns of its one row, NULLs when it returns none; see
// Update.Multi). An uncorrelated one runs once per statement; a Correlated one
// (its Select, or a subquery inside it, holds an OuterRef reaching the
// query around it) runs again for every row it is evaluated on, with that
// row visible to its OuterRefs.
type SubPlan struct {
	Kind       string
	Select     *Select
	X          Expr
	Not        bool
	CT         types.T
	T          types.T
	Correlated bool
	// Xs and CTs are the fields of the row and their comparison types
	// for Kind "rowin": (a, b) IN (SELECT x, y ...).
	Xs  []Expr
	CTs []types.T
}

// OuterRef reads slot Idx of the row of an enclosing query: Level 1 is the
// query whose expression holds the subquery this reference is in, 2 the
// one around that, and so on.
type OuterRef struct {
	Level int
	Idx   int
	T     types.T
	Name  string // as PostgreSQL names it in errors: alias.column

	loc int32 // byte offset of the reference in the query
}

// SRFCall is a call of a set-returning function (generate_series): in FROM
// (FromTable.Func) or in a select list (Select.SRFs). Its arguments have
// their final types; T is the type of the values it returns.
type SRFCall struct {
	Name string
	Args []Expr
	T    types.T
	Loc  int32 // the call's query offset
	// Table is the table function called (nil: generate_series or a
	// scalar function in FROM); its rows have len(Table.Cols) values.
	Table *TableFunction
	// OutName is the name of the function's one output column in FROM
	// whatever the alias ("": the alias, else the function's name), as
	// PostgreSQL names a function's OUT parameter's column.
	OutName string
}

// Func is a scalar function call.
type Func struct {
	Name    string
	Args    []Expr
	T       types.T
	Builtin *Builtin // the overload chosen (nil: a function the executor dispatches by name)
	// VariadicArray marks a call whose last argument is an array marked
	// VARIADIC, whose elements are the repeated arguments.
	VariadicArray bool
	// Op is the binary operator the call was written as ("->", "@>",
	// ...; "" for a function call), which EXPLAIN shows.
	Op string
	// SysColumn marks a table's system column xmin, xmax, cmin, cmax or
	// tableoid (Name): the executor reads it from the header of the
	// version at Args[0], the table's ctid, in the table whose OID is
	// Args[1]; EXPLAIN shows the column's name.
	SysColumn bool
}

// Coalesce returns its first non-NULL argument.
type Coalesce struct {
	Args []Expr
	T    types.T
	// MinMax makes it GREATEST ('>') or LEAST ('<'): the largest or
	// smallest argument that is not NULL (NULL if all are).
	MinMax byte
}

// Agg is an aggregate call; Arg is nil for count(*). It only appears in
// Select.Aggs; target expressions refer to its result through ColRef.
type Agg struct {
	Name  string // count sum min max avg string_agg array_agg bool_and ...
	Arg   Expr   // the first argument
	Extra []Expr // further arguments (string_agg's delimiter)
	// Direct are an ordered-set aggregate's direct arguments (the
	// fraction of percentile_cont), evaluated once per group over grouped
	// columns only; Arg is then the WITHIN GROUP ORDER BY item.
	Direct   []Expr
	Order    []AggOrder
	Filter   Expr // FILTER (WHERE ...); nil: none
	Distinct bool
	T        types.T
}

// AggOrder is one ORDER BY item inside an aggregate call, evaluated over
// the aggregate's input row.
type AggOrder struct {
	X          Expr
	Desc       bool
	NullsFirst bool
}

// Type implementations.
func (e *Const) Type() types.T    { return e.T }
func (e *Param) Type() types.T    { return e.T }
func (e *ColRef) Type() types.T   { return e.T }
func (e *Arith) Type() types.T    { return e.T }
func (e *Neg) Type() types.T      { return e.T }
func (e *Concat) Type() types.T   { return types.TText }
func (e *Cmp) Type() types.T      { return types.TBool }
func (e *BoolOp) Type() types.T   { return types.TBool }
func (e *IsNull) Type() types.T   { return types.TBool }
func (e *InList) Type() types.T   { return types.TBool }
func (e *Cast) Type() types.T     { return e.T }
func (e *Like) Type() types.T     { return types.TBool }
func (e *Func) Type() types.T     { return e.T }
func (e *SubPlan) Type() types.T  { return e.T }
func (e *Case) Type() types.T     { return e.T }
func (e *Coalesce) Type() types.T { return e.T }
func (e *Agg) Type() types.T      { return e.T }
func (e *OuterRef) Type() types.T { return e.T }
func (e *SRFCall) Type() types.T  { return e.T }

// ResultCol describes one output column.
type ResultCol struct {
	Name     string
	T        types.T
	TableOID uint32
	AttNum   int16
}

// Stmt is a bound statement.
type Stmt interface{ stmt() }

// SortKey orders by target Idx.
type SortKey struct {
	Idx        int
	Desc       bool
	NullsFirst bool
	T          types.T
}

// Select is a bound SELECT.
//
// Row layout: a scan row has the table's columns, then ctid (slot
// len(Table.Columns)). Where, Group and Agg arguments are evaluated over the
// scan row; with several FROM items (or one that is not a table) the scan
// row is their rows side by side, see From, and Join says how they are
// joined. If Grouped, Targets and Having are evaluated over the group row:
// the Group values, then one slot per Aggs entry; otherwise over the scan
// row. With WinFuncs (window functions), the window stage appends one slot
// per WinFuncs entry to that row (scan or group row), evaluated over the
// rows' Windows after WHERE, GROUP BY and HAVING. With SRFs, the row the
// targets see is that row followed by one slot per SRFs entry (set-returning functions of the select list, run in
// lockstep as PostgreSQL's ProjectSet runs them). Targets[:NVisible] are the
// output columns; the rest are sort-only.
type Select struct {
	Table *catalog.Table // first FROM item if a table; nil: no FROM (one empty row) or not a table
	From  []FromTable    // all FROM items, in row order
	// Join is the FROM tree when From is more than one plain table (or its
	// only item is not a table); nil otherwise.
	Join    *JoinNode
	SRFs    []*SRFCall
	Where   Expr
	Grouped bool
	Group   []Expr
	// GroupingSets, when not nil, are the grouping sets of GROUP BY
	// GROUPING SETS, ROLLUP or CUBE, expanded as PostgreSQL's
	// expand_grouping_sets does: each lists the indexes into Group of its
	// keys. Group's last entry is then a GroupingSetID, which the executor
	// sets to the index of the set a group row belongs to; the keys a set
	// lacks are NULL in its rows.
	GroupingSets [][]int
	// groupTargets, with GroupingSets, is for each key of Group the
	// select-list entry it is (-1: none).
	groupTargets []int
	Aggs         []*Agg
	Having       Expr
	Windows      []*WindowDef // the windows WinFuncs use, in the order they are evaluated
	WinFuncs     []*WinFunc
	WinBase      int // the slot of WinFuncs[0] in the window stage's output row
	Targets      []Expr
	NVisible     int
	Columns      []ResultCol
	Distinct     bool
	// DistinctOn are the targets of SELECT DISTINCT ON (...): of the rows
	// in Sort's order, the first of each run equal on them is kept. Sort
	// then starts with them.
	DistinctOn []int
	Sort       []SortKey
	Limit      Expr // nil: none; int8
	Offset     Expr
	ForUpdate  bool
	// LockStrength names the locking clause (FOR UPDATE, FOR SHARE, ...).
	LockStrength string

	// Union, when set, makes this Select a set operation over its arms
	// (their visible targets, already of the common types); its other
	// fields are only NVisible, Columns and Targets (ColRefs over that
	// row). SetOp says which: SetOpUnion reads the arms one after the
	// other, and the Select reading it as its FROM item removes
	// duplicates unless UnionAll; SetOpIntersect and SetOpExcept have two
	// arms and give each distinct row of the left arm (NULLs equal) as
	// many times as PostgreSQL's nodeSetOp does: with UnionAll (INTERSECT
	// ALL, EXCEPT ALL) min(m, n) and max(m-n, 0) times for m copies on
	// the left and n on the right, else once if the row is in both
	// (INTERSECT) or only on the left (EXCEPT).
	Union    []*Select
	UnionAll bool
	SetOp    SetOpKind
	// WorkTable identifies the work table of a SetOpRecursive: the
	// FromTable of the recursive term with the same WorkTable reads the
	// rows the previous round produced.
	WorkTable int

	// targetLocs is the query offset of each target (its leftmost token;
	// the * it was expanded from; a UNION's or VALUES' first arm's), where
	// INSERT ... SELECT reports an assignment error.
	targetLocs []int32
}

// targetLoc is the query offset of target i; -1 when not known.
func (s *Select) targetLoc(i int) int32 {
	if i < len(s.targetLocs) {
		return s.targetLocs[i]
	}
	return -1
}

// SetOpKind is the operation of a Select with Union set.
type SetOpKind int

// Set operations.
const (
	SetOpUnion SetOpKind = iota
	SetOpIntersect
	SetOpExcept
	// SetOpRecursive is a recursive CTE's query: Union holds the
	// non-recursive term and the recursive term, which is evaluated over
	// the rows of the previous round until it produces none (UnionAll:
	// UNION ALL; else rows already produced are dropped).
	SetOpRecursive
)

// String is the operation's SQL name.
func (k SetOpKind) String() string {
	switch k {
	case SetOpIntersect:
		return "INTERSECT"
	case SetOpExcept:
		return "EXCEPT"
	case SetOpRecursive:
		return "recursive UNION"
	}
	return "UNION"
}

// FromTable is one FROM item, its values in slots Base..Base+Width-1 of
// the joined row: a table (its columns, then its ctid), a subquery (its
// visible targets) or a set-returning function (its values, then the
// ordinal WITH ORDINALITY adds). A function's arguments are evaluated over
// the joined row and may read the items before it (implicit LATERAL).
type FromTable struct {
	Table *catalog.Table
	Sub   *Select
	// Lateral: Sub reads the items before it through OuterRefs of Level 1
	// (the joined row) and runs again for each joined row.
	Lateral bool
	// Shared numbers the references of a CTE referenced more than once
	// in the statement: the executor evaluates Sub once for all of
	// them (0: not shared).
	Shared     int
	Func       *SRFCall
	Ordinality bool
	// WorkTable, when not 0, makes the item the self-reference of a
	// recursive CTE in its recursive term: the rows of the previous round
	// of the Select with the same WorkTable.
	WorkTable int
	// WithRows, when not 0, makes the item a reference to the
	// data-modifying WITH query Bound.With[WithRows-1]: the rows its
	// RETURNING gave.
	WithRows int
	Base     int
	Width    int
}

// JoinKind is how a JoinNode combines its sides.
type JoinKind int

// Join kinds.
const (
	JoinInner JoinKind = iota
	JoinLeft
	JoinRight
	JoinFull
)

// JoinNode is a node of the FROM tree: a leaf (L == nil) is From[Item]; a
// join combines L and R under On (over the joined row; nil: true). Comma
// lists and CROSS JOIN are inner joins without On.
type JoinNode struct {
	Item int
	Kind JoinKind
	L, R *JoinNode
	On   Expr
}

// Insert is a bound INSERT. Each source row (Values row or Source output)
// has len(Cols) values going to table columns Cols[i]. A nil Values entry is
// DEFAULT. Defaults[c] is column c's default (nil: NULL). Returning is
// evaluated over the new row (columns + ctid). Alias is the table's name
// in the statement (INSERT INTO t AS x), "" for none. OnConflict is the
// ON CONFLICT clause, nil for none.
type Insert struct {
	Table *catalog.Table
	// ViewChecks are the conditions of the views inserted through that
	// their CHECK OPTION makes every new row meet (innermost first).
	ViewChecks []ViewCheck
	Alias      string
	OnConflict *OnConflict
	Cols       []int
	ColTypes   []types.T // table column types, by position in Cols
	Values     [][]Expr
	Source     *Select
	Defaults   []Expr
	Returning  []Expr
	Columns    []ResultCol
}

// OnConflict is INSERT's ON CONFLICT clause. A proposed row conflicts with
// an existing one when an arbiter index holds its key: a unique index
// the conflict target names or infers, in the table's index order
// (Arbiters: their OIDs), or every unique index when there is no target
// (DO NOTHING only; Arbiters is then empty). DO NOTHING skips such a row;
// DO UPDATE (Update) locks the existing row and, when Where holds, updates
// it with Set (and Multi, as Update's). Set, Multi and Where read the
// conflict row: the existing row's columns and ctid (as UPDATE reads them,
// slots 0 .. n), then EXCLUDED's columns, the row proposed for insertion
// with its defaults (slots n+1 .. 2n).
type OnConflict struct {
	Update   bool
	Arbiters []uint32
	Set      []SetItem
	Multi    []*SubPlan
	Where    Expr
}

// SetItem assigns E (evaluated over the old row) to column Col. With
// Multi > 0 (SET (a, b) = (SELECT ...)), E is evaluated over the row that
// subquery Update.Multi[Multi-1] returned for the old row instead: its
// ColRef j reads the subquery's column j.
type SetItem struct {
	Col   int
	E     Expr
	Multi int
}

// Update is a bound UPDATE. Without From, Where, the Set expressions and
// Returning are over the table's row (columns, then ctid); with From
// (UPDATE ... FROM), over the joined row of From.Source, the old version's
// slots replaced by the new one's for Returning.
type Update struct {
	Table      *catalog.Table
	ViewChecks []ViewCheck // as Insert's
	Where      Expr
	Set        []SetItem
	Returning  []Expr // over the new row
	Columns    []ResultCol
	From       *DMLFrom
	// Multi are the subqueries of SET (a, b) = (SELECT ...), of Kind
	// "row", run once per row over the row SET reads.
	Multi []*SubPlan
}

// Delete is a bound DELETE. With From (DELETE ... USING), Where and
// Returning are over the joined row of From.Source.
type Delete struct {
	Table     *catalog.Table
	Where     Expr
	Returning []Expr // over the deleted row
	Columns   []ResultCol
	From      *DMLFrom
}

// DMLFrom is the FROM list of UPDATE ... FROM or the USING list of
// DELETE ... USING, joined with the statement's target table. Source is a
// FROM clause (From, Join) and the statement's WHERE (Where, the same tree
// as the statement's); it has no targets. Its item Target is the target
// table, whose columns and ctid occupy the slots from
// Source.From[Target].Base: the first item or the last one, as the binder
// judged the join best run (the last when WHERE joins an indexed column of
// the target to the other items, so that each of their rows looks its
// target row up in the index).
type DMLFrom struct {
	Source *Select
	Target int
}

// TargetBase is the slot of the target table's first column in the joined
// row.
func (f *DMLFrom) TargetBase() int { return f.Source.From[f.Target].Base }

// CreateTable is a bound CREATE TABLE. Def.Indexes are its PRIMARY KEY
// (first) and UNIQUE constraints; one with Name "" is named by the
// executor, which sees the relations in use (t_pkey, t_a_key, t_a_key1...).
type CreateTable struct {
	Def         *catalog.Table
	IfNotExists bool
	// Serials are the positions of serial columns: the executor creates
	// each one's sequence (table_column_seq, owned by the column) with the
	// table and makes nextval of it the column's default.
	Serials []int
	// ForeignKeys are its FOREIGN KEY constraints, resolved by the executor.
	ForeignKeys []FKCmd
}

// DropTable is a bound DROP TABLE.
type DropTable struct {
	Names    []string
	IfExists bool
	Cascade  bool // drops the foreign keys of other tables that reference them
}

// DropIndex is a bound DROP INDEX.
type DropIndex struct {
	Names    []string
	IfExists bool
	// Concurrent: DROP INDEX CONCURRENTLY, which must run outside a
	// transaction block; minipg drops the index as DROP INDEX does.
	Concurrent bool
}

// CreateIndex is a bound CREATE INDEX.
type CreateIndex struct {
	Table       *catalog.Table
	Index       catalog.Index
	IfNotExists bool
	Concurrent  bool // CREATE INDEX CONCURRENTLY: built as without it, refused in a block
}

// Copy is a bound COPY ... FROM STDIN.
type Copy struct {
	Table     *catalog.Table
	Cols      []int
	Format    string // text csv binary
	Delimiter byte
	Null      string
	Header    bool
	Quote     byte
	Escape    byte
	Defaults  []Expr
	Freeze    bool // FREEZE: allowed only on a table created or truncated in the transaction

	// COPY TO only: FORCE_QUOTE columns (by name) or * (all).
	ForceQuote    []string
	ForceQuoteAll bool
}

// AlterOptions is ALTER TABLE t SET (...) / RESET (...): Options maps
// each named option to its new value, "" for RESET.
type AlterOptions struct {
	Table   *catalog.Table
	Options map[string]string
}

// Vacuum is VACUUM [tables] or ANALYZE [tables]; no tables means all.
// Analyze is set for VACUUM (ANALYZE) and ANALYZE, AnalyzeOnly for ANALYZE.
type Vacuum struct {
	Tables               []*catalog.Table
	Views                []string // named views, skipped with a warning as PostgreSQL does
	Analyze, AnalyzeOnly bool
	DisablePageSkipping  bool // read every page, whatever the visibility map says
	Full                 bool // VACUUM FULL: the table written anew
}

// TxnKind is the kind of a transaction control statement.
type TxnKind int

// Transaction control statements.
const (
	TxnBegin TxnKind = iota
	TxnCommit
	TxnRollback
	TxnSavepoint  // SAVEPOINT name
	TxnRelease    // RELEASE [SAVEPOINT] name
	TxnRollbackTo // ROLLBACK [WORK] TO [SAVEPOINT] name
)

// Txn is BEGIN / COMMIT / ROLLBACK and the savepoint statements.
type Txn struct {
	Kind      TxnKind
	Tag       string // BEGIN, START TRANSACTION, COMMIT, ROLLBACK, SAVEPOINT, RELEASE
	ReadOnly  bool   // BEGIN READ ONLY
	ReadWrite bool   // BEGIN READ WRITE: not default_transaction_read_only
	Savepoint string // the savepoint's name
	Chain     bool   // COMMIT / ROLLBACK AND CHAIN
}

// Set is SET name = value / SET name TO DEFAULT / RESET name / RESET ALL.
type Set struct {
	Name  string // lower-case; "" for RESET ALL
	Value string
	Reset bool // value is the default
	Local bool
	Tag   string // the command tag when not the default (SET, or RESET for Reset)
}

// Show is SHOW name.
type Show struct{ Name string }

// Checkpoint is CHECKPOINT.
type Checkpoint struct{}

// Discard is DISCARD ALL and similar statements that are accepted and ignored.
// Discard is DISCARD ALL, PLANS, SEQUENCES or TEMP. minipg keeps no
// cached plans or temporary tables, so PLANS and TEMP have nothing to do.
type Discard struct {
	Tag       string
	All       bool // DISCARD ALL: RESET ALL too, outside a transaction block only
	Sequences bool // forget currval and lastval
}

func (*Select) stmt()       {}
func (*Insert) stmt()       {}
func (*Update) stmt()       {}
func (*Delete) stmt()       {}
func (*CreateTable) stmt()  {}
func (*DropTable) stmt()    {}
func (*DropIndex) stmt()    {}
func (*CreateIndex) stmt()  {}
func (*Copy) stmt()         {}
func (*Vacuum) stmt()       {}
func (*AlterOptions) stmt() {}
func (*Txn) stmt()          {}
func (*Set) stmt()          {}
func (*Show) stmt()         {}
func (*Checkpoint) stmt()   {}
func (*Discard) stmt()      {}
