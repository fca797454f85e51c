package sql

// Data-modifying statements in WITH: WITH t AS (DELETE FROM a ... RETURNING
// *) INSERT INTO b SELECT * FROM t. As in PostgreSQL, they may appear only
// in the WITH clause of the top-level statement (SELECT, INSERT, UPDATE,
// DELETE or MERGE); each runs exactly once, to completion, before the statement,
// whether the statement reads it or not; and the statement's references
// read the rows its RETURNING gave, not the tables it changed: every part
// of the statement works on the same command id, so none sees the others'
// changes (executor/with_dml.go). A reference to one without RETURNING is
// 0A000. References are marked on the way through inlineCTEs (withMarker)
// and bound as FROM items of their own (FromTable.WithRows). EXPLAIN shows
// them without running them, EXPLAIN ANALYZE runs them first.

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/pgerr"
)

// WithDML is one data-modifying WITH query.
type WithDML struct {
	Name  string
	Stmt  Stmt   // *Insert, *Update or *Delete
	Table uint32 // the table it changes
	// Columns are its RETURNING columns (nil: no RETURNING).
	Columns []ResultCol
}

// isDML reports whether n is INSERT, UPDATE or DELETE.
func isDML(n *pg_query.Node) bool {
	return n.GetInsertStmt() != nil || n.GetUpdateStmt() != nil || n.GetDeleteStmt() != nil
}

// topStatement is the statement message of n whose WITH clause may hold
// data-modifying queries: n's own when n is SELECT, INSERT, UPDATE,
// DELETE or MERGE, the explained statement's for EXPLAIN; for DECLARE, which refuses
// them, n's message.
func topStatement(n *pg_query.Node) any {
	switch {
	case n.GetDeclareCursorStmt() != nil:
		return n.GetDeclareCursorStmt()
	case n.GetExplainStmt() != nil:
		return topStatement(n.GetExplainStmt().Query)
	case n.GetSelectStmt() != nil:
		return n.GetSelectStmt()
	case n.GetInsertStmt() != nil:
		return n.GetInsertStmt()
	case n.GetUpdateStmt() != nil:
		return n.GetUpdateStmt()
	case n.GetDeleteStmt() != nil:
		return n.GetDeleteStmt()
	case n.GetMergeStmt() != nil:
		return n.GetMergeStmt()
	}
	return nil
}

// noteWithDML records cte, a WITH query of statement owner that is not a
// SELECT, as a data-modifying query, or refuses it.
func (b *binder) noteWithDML(owner any, cte *pg_query.CommonTableExpr) error {
	if !isDML(cte.Ctequery) {
		return b.errAt(cte.Location, pgerr.FeatureNotSupported, "this WITH query is not supported")
	}
	if _, ok := b.withTop.(*pg_query.DeclareCursorStmt); ok {
		return pgerr.New(pgerr.FeatureNotSupported, "DECLARE CURSOR must not contain data-modifying statements in WITH")
	}
	if owner != b.withTop {
		return b.errAt(cte.Location, pgerr.FeatureNotSupported, "WITH clause containing a data-modifying statement must be at the top level")
	}
	b.withCTEs = append(b.withCTEs, cte)
	return nil
}

// bindWithDML binds the data-modifying WITH queries inlineCTEs found, in
// order, each with a binder state of its own (a later one may read an
// earlier one's rows).
func (b *binder) bindWithDML() error {
	ctes := b.withCTEs
	b.withCTEs = nil // bound once, even when EXPLAIN binds its statement again
	for _, cte := range ctes {
		if err := b.viewTarget(cte.Ctequery); err != nil {
			return err
		}
		saved := *b
		b.sc, b.outer, b.agg, b.aggErr, b.win, b.winErr = nil, nil, nil, "", nil, ""
		b.insertSource, b.noSubquery = false, ""
		var st Stmt
		var cols []ResultCol
		var table uint32
		var err error
		switch n := cte.Ctequery; {
		case n.GetInsertStmt() != nil:
			var s *Insert
			if s, err = b.insertStmt(n.GetInsertStmt()); err == nil {
				st, cols, table = s, s.Columns, s.Table.OID
			}
		case n.GetUpdateStmt() != nil:
			var s *Update
			if s, err = b.updateStmt(n.GetUpdateStmt()); err == nil {
				st, cols, table = s, s.Columns, s.Table.OID
			}
		default:
			var s *Delete
			if s, err = b.deleteStmt(n.GetDeleteStmt()); err == nil {
				st, cols, table = s, s.Columns, s.Table.OID
			}
		}
		params, seen, withDML := b.params, b.paramSeen, b.withDML
		*b = saved
		b.params, b.paramSeen, b.withDML = params, seen, withDML
		if err != nil {
			return err
		}
		b.withDML = append(b.withDML, &WithDML{Name: cte.Ctename, Stmt: st, Table: table, Columns: cols})
	}
	return nil
}

// withMarkerPrefix starts the relation name of a reference to a
// data-modifying WITH query; no SQL name can hold it.
const withMarkerPrefix = "\x00with "

// withMarker is the relation name that marks a reference to data-modifying
// WITH query i (1-based) named name.
func withMarker(i int, name string) string {
	return withMarkerPrefix + strconv.Itoa(i) + " " + name
}

// withMarked reports whether rv is a marked reference, with the query's
// number and name.
func withMarked(rv *pg_query.RangeVar) (int, string, bool) {
	rest, ok := strings.CutPrefix(rv.Relname, withMarkerPrefix)
	if !ok {
		return 0, "", false
	}
	num, name, _ := strings.Cut(rest, " ")
	i, err := strconv.Atoi(num)
	return i, name, err == nil
}

// withRef binds a reference to data-modifying WITH query i: its RETURNING
// columns, under the reference's alias and the query's column names.
func (fb *fromBuilder) withRef(rv *pg_query.RangeVar, i int, name string, base int) (*JoinNode, []scopeCol, error) {
	b := fb.b
	if i > len(b.withDML) {
		// Read by an earlier data-modifying query: PostgreSQL binds them
		// in order too.
		return nil, nil, b.errAt(rv.Location, pgerr.UndefinedTable, "relation \"%s\" does not exist", name)
	}
	w := b.withDML[i-1]
	if w.Columns == nil {
		return nil, nil, b.errAt(rv.Location, pgerr.FeatureNotSupported, "WITH query \"%s\" does not have a RETURNING clause", name)
	}
	cols := make([]scopeCol, len(w.Columns))
	for j, c := range w.Columns {
		cols[j] = scopeCol{name: c.Name, e: &ColRef{Idx: base + j, T: c.T, Name: c.Name}}
	}
	st := scopeTable{alias: name, base: base, cols: cols}
	if rv.Alias != nil && rv.Alias.Aliasname != "" {
		st.alias = rv.Alias.Aliasname
	}
	if err := fb.aliasCols(st.cols, rv.Alias); err != nil {
		return nil, nil, err
	}
	return fb.leaf(FromTable{WithRows: i, Base: base, Width: len(cols)}, st)
}
