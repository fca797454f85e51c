package sql

// INSERT ... ON CONFLICT: the conflict target, DO UPDATE's SET and WHERE
// over the conflict row, and the arbiter indexes, with PostgreSQL's errors
// in PostgreSQL's order: the target's columns and constraint name while the
// statement is parsed (transformOnConflictArbiter), the arbiters once it is
// bound (the planner's infer_arbiter_indexes, whose 42P10 comes after every
// other error of the statement).

import (
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/catalog"
	"minipg/pgerr"
)

// excludedName is the name of the pseudo-relation of the row proposed for
// insertion, in DO UPDATE's SET and WHERE.
const excludedName = "excluded"

// conflictTarget is a conflict target as parsed, before its arbiter
// indexes are inferred.
type conflictTarget struct {
	cols    []int  // the columns it names (0-based, duplicates dropped)
	exprs   bool   // it names an expression, which no minipg index has
	conname string // ON CONSTRAINT name
	index   uint32 // the index of constraint conname (0: none)
}

// onConflict binds the ON CONFLICT clause of an INSERT into t, named alias
// in the statement: the conflict target, then DO UPDATE's SET and WHERE
// over the conflict row. The arbiters are left to arbiters, called once
// the statement's RETURNING is bound.
func (b *binder) onConflict(oc *pg_query.OnConflictClause, t *catalog.Table, alias string) (*OnConflict, *conflictTarget, error) {
	out := &OnConflict{Update: oc.Action == pg_query.OnConflictAction_ONCONFLICT_UPDATE}
	infer := oc.Infer
	if out.Update && infer == nil {
		return nil, nil, b.errAt(oc.Location, pgerr.SyntaxError, "ON CONFLICT DO UPDATE requires inference specification or constraint name").
			WithHint("For example, ON CONFLICT (column_name).")
	}
	var target *conflictTarget
	if infer != nil {
		var err error
		if target, err = b.conflictTarget(infer, t, alias); err != nil {
			return nil, nil, err
		}
	}
	if !out.Update {
		return out, target, nil
	}
	b.sc = conflictScope(t, alias)
	sc := b.sc
	var err error
	if out.Set, out.Multi, err = b.setList(t, oc.TargetList); err != nil {
		return nil, nil, err
	}
	if oc.WhereClause != nil {
		b.sc = sc
		if out.Where, err = b.condition(oc.WhereClause, "WHERE", "WHERE"); err != nil {
			return nil, nil, err
		}
	}
	return out, target, nil
}

// conflictScope is the scope of DO UPDATE's SET and WHERE: the target
// table under alias (slots 0 .. n, its ctid last) and EXCLUDED (slots n+1
// .. 2n, no system columns). A column name alone is ambiguous, since both
// have it. The column references carry qualified names, as EXPLAIN's
// Conflict Filter prints them.
func conflictScope(t *catalog.Table, alias string) *scope {
	n := len(t.Columns)
	target, excluded := tableCols(t, 0), tableCols(t, n+1)
	for i := range target {
		target[i].qual, excluded[i].qual = alias, excludedName
		target[i].e.(*ColRef).Name = alias + "." + target[i].name
		excluded[i].e.(*ColRef).Name = excludedName + "." + excluded[i].name
	}
	return &scope{
		tables: []scopeTable{
			{table: t, alias: alias, cols: target},
			{alias: excludedName, base: n + 1, cols: excluded},
		},
		exposed: append(slices.Clone(target), excluded...),
		width:   2*n + 1,
	}
}

// conflictTarget parses a conflict target: ON CONSTRAINT name, or the
// columns and expressions of the unique index it infers, and an index
// predicate. minipg has neither partial nor expression indexes, so the
// predicate (bound for its errors) never changes which indexes qualify, as
// it does not in PostgreSQL for indexes without one.
func (b *binder) conflictTarget(infer *pg_query.InferClause, t *catalog.Table, alias string) (*conflictTarget, error) {
	out := &conflictTarget{}
	saved := b.saveExprKind()
	defer b.restoreExprKind(saved)
	for _, n := range infer.IndexElems {
		el := n.GetIndexElem()
		switch {
		case el.Ordering != pg_query.SortByDir_SORTBY_DEFAULT:
			return nil, b.errAt(infer.Location, pgerr.InvalidColumnReference, "ASC/DESC is not allowed in ON CONFLICT clause")
		case el.NullsOrdering != pg_query.SortByNulls_SORTBY_NULLS_DEFAULT:
			return nil, b.errAt(infer.Location, pgerr.InvalidColumnReference, "NULLS FIRST/LAST is not allowed in ON CONFLICT clause")
		}
		col := -1
		if el.Expr == nil {
			if col = colIndex(t, el.Name); col < 0 {
				return nil, b.errAt(infer.Location, pgerr.UndefinedColumn, "column \"%s\" does not exist", el.Name)
			}
		} else {
			b.setExprKind(singleScope(t, alias), "index expressions", "index expression")
			e, err := b.expr(el.Expr)
			if err != nil {
				return nil, err
			}
			if c, ok := e.(*ColRef); ok && c.Idx < len(t.Columns) {
				col = c.Idx
			}
		}
		if len(el.Collation) > 0 || len(el.Opclass) > 0 {
			return nil, b.errAt(infer.Location, pgerr.FeatureNotSupported, "a collation or operator class in an ON CONFLICT target is not supported")
		}
		switch {
		case col < 0:
			out.exprs = true
		case !slices.Contains(out.cols, col):
			out.cols = append(out.cols, col)
		}
	}
	if infer.WhereClause != nil {
		b.setExprKind(singleScope(t, alias), "index predicates", "index predicate")
		if _, err := b.expr(infer.WhereClause); err != nil {
			return nil, err
		}
	}
	if infer.Conname != "" {
		out.conname = infer.Conname
		found := false
		for _, idx := range t.Indexes {
			if idx.IsConstraint() && idx.Name == infer.Conname {
				out.index, found = idx.OID, true
			}
		}
		for _, ck := range t.Checks {
			found = found || ck.Name == infer.Conname
		}
		for _, fk := range t.ForeignKeys {
			found = found || fk.Name == infer.Conname
		}
		if !found {
			return nil, pgerr.New(pgerr.UndefinedObject, "constraint \"%s\" for table \"%s\" does not exist", infer.Conname, t.Name)
		}
	}
	return out, nil
}

// exprKind is what saveExprKind keeps of the binder's state.
type exprKind struct {
	sc           *scope
	agg          *aggCtx
	aggErr, noSQ string
	srfOK        bool
}

func (b *binder) saveExprKind() exprKind {
	return exprKind{b.sc, b.agg, b.aggErr, b.noSubquery, b.srfOK}
}

func (b *binder) restoreExprKind(k exprKind) {
	b.sc, b.agg, b.aggErr, b.noSubquery, b.srfOK = k.sc, k.agg, k.aggErr, k.noSQ, k.srfOK
}

// setExprKind readies b for an expression over sc that may hold no
// aggregate, window function, set-returning function or subquery (an index
// expression or predicate): clause names it in the aggregate and
// set-returning errors, expr in the subquery error.
func (b *binder) setExprKind(sc *scope, clause, expr string) {
	b.sc, b.agg, b.aggErr, b.noSubquery, b.srfOK = sc, nil, clause, expr, false
}

// arbiters infers the arbiter indexes of target in t (infer_arbiter_indexes):
// the unique indexes whose key columns are exactly the columns it names,
// or the index of the constraint it names, in index OID order; none
// without a target (every unique index is one). 42P10 when no index
// matches, 42809 when the constraint named has no index.
func arbiters(target *conflictTarget, t *catalog.Table) ([]uint32, error) {
	if target == nil {
		return nil, nil
	}
	if target.conname != "" {
		if target.index == 0 {
			return nil, pgerr.New(pgerr.WrongObjectType, "constraint in ON CONFLICT clause has no associated index")
		}
		return []uint32{target.index}, nil
	}
	var out []uint32
	if !target.exprs {
		for _, idx := range t.Indexes {
			if !idx.Unique {
				continue
			}
			match := true
			for _, a := range idx.Columns {
				match = match && slices.Contains(target.cols, int(a)-1)
			}
			for _, c := range target.cols {
				match = match && slices.Contains(idx.Columns, int16(c+1))
			}
			if match {
				out = append(out, idx.OID)
			}
		}
	}
	if len(out) == 0 {
		return nil, pgerr.New(pgerr.InvalidColumnReference, "there is no unique or exclusion constraint matching the ON CONFLICT specification")
	}
	slices.Sort(out)
	return out, nil
}
