package sql

// INSERT, UPDATE and DELETE on a view: PostgreSQL's automatically
// updatable views (rewriteTargetView). A view is updatable when its query
// reads one table or updatable view and has no DISTINCT, GROUP BY, HAVING,
// set operation, WITH, LIMIT or OFFSET, aggregate, window function or
// set-returning function; its columns that are plain columns of that
// relation are updatable, the others may only be read (RETURNING). The
// statement is bound against the base table: the view's columns are its
// target expressions over the table's row (a scope of their own), an
// assigned column is the table column it is, and UPDATE and DELETE also
// apply the view's WHERE. The executor then changes the table as for a
// statement on it. WITH LOCAL CHECK OPTION makes a row inserted or updated
// through the view meet the view's WHERE, and those of the views below it
// that have a CHECK OPTION of their own; CASCADED every WHERE down to the
// table (44000 otherwise). Not supported (0A000): ON CONFLICT, UPDATE ...
// FROM and DELETE ... USING on a view.

import (
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/catalog"
	"minipg/pgerr"
)

// viewDML is the view a data-modifying statement targets, resolved to its
// base table.
type viewDML struct {
	view  *catalog.View
	base  *catalog.Table
	alias string
	// exprs[i] is view column i over the base table's row; col[i] the
	// base column it is, or -1 (why[i] says why it is not updatable).
	exprs []Expr
	col   []int
	why   []string
	where Expr // the view's WHERE over the base row (nil: none)
	// own are the WHEREs of the views down the chain, each over the base
	// row, innermost first; checks those that CHECK OPTION enforces.
	own    []ViewCheck
	checks []ViewCheck
}

// viewCommand names a statement in the errors of a view that is not
// updatable.
var viewCommand = map[string]struct{ verb, hint string }{
	"insert into": {"inserting into", "INSERT"},
	"update":      {"updating", "UPDATE"},
	"delete from": {"deleting from", "DELETE"},
}

// updatableView resolves view v as the target of a statement (what:
// "insert into", "update" or "delete from"), or fails as PostgreSQL's
// rewriter does for a view that is not automatically updatable.
func (b *binder) updatableView(v *catalog.View, what string) (*viewDML, error) {
	tree, err := pg_query.Parse(v.Query)
	if err != nil || len(tree.Stmts) != 1 || tree.Stmts[0].Stmt.GetSelectStmt() == nil {
		return nil, pgerr.New(pgerr.InternalError, "view \"%s\" has a bad stored query", v.Name)
	}
	s := tree.Stmts[0].Stmt.GetSelectStmt()
	refuse := func(detail string) error {
		c := viewCommand[what]
		return pgerr.New(pgerr.ObjectNotInPrerequisiteState, "cannot %s view \"%s\"", what, v.Name).
			WithDetail("%s", detail).
			WithHint("To enable %s the view, provide an INSTEAD OF %s trigger or an unconditional ON %s DO INSTEAD rule.", c.verb, c.hint, c.hint)
	}
	switch {
	case len(s.DistinctClause) > 0:
		return nil, refuse("Views containing DISTINCT are not automatically updatable.")
	case len(s.GroupClause) > 0:
		return nil, refuse("Views containing GROUP BY are not automatically updatable.")
	case s.HavingClause != nil:
		return nil, refuse("Views containing HAVING are not automatically updatable.")
	case s.Op != pg_query.SetOperation_SETOP_NONE || len(s.ValuesLists) > 0:
		if len(s.ValuesLists) > 0 {
			return nil, refuse("Views that do not select from a single table or view are not automatically updatable.")
		}
		return nil, refuse("Views containing UNION, INTERSECT, or EXCEPT are not automatically updatable.")
	case s.WithClause != nil:
		return nil, refuse("Views containing WITH are not automatically updatable.")
	case s.LimitCount != nil || s.LimitOffset != nil:
		return nil, refuse("Views containing LIMIT or OFFSET are not automatically updatable.")
	}
	sub, err := b.bindView(v)
	if err != nil {
		return nil, err
	}
	switch {
	case len(sub.Aggs) > 0:
		return nil, refuse("Views that return aggregate functions are not automatically updatable.")
	case len(sub.WinFuncs) > 0:
		return nil, refuse("Views that return window functions are not automatically updatable.")
	case len(sub.SRFs) > 0:
		return nil, refuse("Views that return set-returning functions are not automatically updatable.")
	}
	var rv *pg_query.RangeVar
	if len(s.FromClause) == 1 {
		rv = s.FromClause[0].GetRangeVar()
	}
	if rv == nil || len(sub.From) != 1 {
		return nil, refuse("Views that do not select from a single table or view are not automatically updatable.")
	}
	vd := &viewDML{view: v, alias: v.Name, where: sub.Where}
	n := len(v.Columns)
	vd.exprs, vd.col, vd.why = sub.Targets[:n:n], make([]int, n), make([]string, n)
	if inner, ok := b.view(rv); ok {
		// A view on an updatable view: its columns over the inner view's,
		// composed down to the base table.
		in, err := b.updatableView(inner, what)
		if err != nil {
			return nil, err
		}
		over := func(e Expr) Expr {
			return Rewrite(e, func(x Expr) (Expr, bool) {
				if c, ok := x.(*ColRef); ok && c.Idx < len(in.exprs) {
					return in.exprs[c.Idx], true
				}
				return nil, false
			})
		}
		vd.base = in.base
		for i, e := range vd.exprs {
			vd.exprs[i], vd.col[i] = over(e), -1
			vd.why[i] = "View columns that are not columns of their base relation are not updatable."
			if c, ok := e.(*ColRef); ok && c.Idx < len(in.col) {
				vd.col[i], vd.why[i] = in.col[c.Idx], in.why[c.Idx]
			}
		}
		if vd.where != nil {
			vd.where = over(vd.where)
		}
		vd.own, vd.checks = in.own, in.checks
		if vd.where != nil {
			vd.own = append(slices.Clip(vd.own), ViewCheck{View: v.Name, Expr: vd.where})
		}
		switch v.CheckOption {
		case "cascaded":
			// This view's condition and every one below it.
			vd.checks = vd.own
		case "local":
			if vd.where != nil {
				vd.checks = append(slices.Clip(vd.checks), ViewCheck{View: v.Name, Expr: vd.where})
			}
		}
		vd.where = andWhere(in.where, vd.where)
	} else {
		if sub.From[0].Table == nil {
			return nil, refuse("Views that do not select from a single table or view are not automatically updatable.")
		}
		vd.base = sub.From[0].Table
		if vd.where != nil {
			vd.own = []ViewCheck{{View: v.Name, Expr: vd.where}}
			if v.CheckOption != "" {
				vd.checks = vd.own
			}
		}
		ncols := len(vd.base.Columns)
		for i, e := range vd.exprs {
			vd.col[i] = -1
			c, ok := e.(*ColRef)
			switch {
			case ok && c.Idx < ncols:
				vd.col[i] = c.Idx
			case ok && c.Idx == ncols:
				vd.why[i] = "View columns that refer to system columns are not updatable."
			default:
				vd.why[i] = "View columns that are not columns of their base relation are not updatable."
			}
		}
	}
	if what != "delete from" && !slices.ContainsFunc(vd.col, func(c int) bool { return c >= 0 }) {
		return nil, refuse("Views that have no updatable columns are not automatically updatable.")
	}
	return vd, nil
}

// andWhere is a AND b, either of which may be nil.
func andWhere(a, b Expr) Expr {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return &BoolOp{Op: "AND", Args: []Expr{a, b}}
}

// scope is the view's columns as a statement on it sees them, over the
// base table's row.
func (vd *viewDML) scope() *scope {
	cols := make([]scopeCol, len(vd.exprs))
	for i, e := range vd.exprs {
		cols[i] = scopeCol{name: vd.view.Columns[i].Name, e: e, qual: vd.alias}
	}
	return &scope{tables: []scopeTable{{alias: vd.alias, cols: cols}}, exposed: cols, width: len(vd.base.Columns) + 1}
}

// column resolves view column name as the target of an assignment (what:
// "insert into" or "update"): the base column it is.
func (b *binder) viewColumn(vd *viewDML, name string, loc int32, what string) (int, error) {
	i := slices.IndexFunc(vd.view.Columns, func(c catalog.Column) bool { return c.Name == name })
	if i < 0 {
		return -1, b.errAt(loc, pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", name, vd.view.Name)
	}
	if vd.col[i] < 0 {
		verb := "insert into"
		if what == "update" {
			verb = "update"
		}
		return -1, pgerr.New(pgerr.FeatureNotSupported, "cannot %s column \"%s\" of view \"%s\"", verb, name, vd.view.Name).
			WithDetail("%s", vd.why[i])
	}
	return vd.col[i], nil
}

// dmlTargetRel resolves the target of INSERT, UPDATE or DELETE (what as in
// updatableView): a table, or an updatable view and its base table, under
// the statement's alias.
func (b *binder) dmlTargetRel(rv *pg_query.RangeVar, what string) (*catalog.Table, *viewDML, string, error) {
	if v, ok := b.view(rv); ok {
		b.noteRelation(v.OID)
		vd, err := b.updatableView(v, what)
		if err != nil {
			return nil, nil, "", err
		}
		if rv.Alias != nil && rv.Alias.Aliasname != "" {
			vd.alias = rv.Alias.Aliasname
		}
		return vd.base, vd, vd.alias, nil
	}
	t, err := b.table(rv)
	if err != nil {
		return nil, nil, "", err
	}
	alias := t.Name
	if rv.Alias != nil && rv.Alias.Aliasname != "" {
		alias = rv.Alias.Aliasname
	}
	return t, nil, alias, nil
}

// targetColumn resolves column name of the statement's target table t, or
// of the view it changes (what: "insert into" or "update"), to t's column.
func (b *binder) targetColumn(t *catalog.Table, name string, loc int32, what string) (int, error) {
	if vd := b.targetView; vd != nil {
		return b.viewColumn(vd, name, loc, what)
	}
	idx := colIndex(t, name)
	if idx < 0 {
		return -1, b.errAt(loc, pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", name, t.Name)
	}
	return idx, nil
}

// viewInsertColumns is the column list of an INSERT into view vd without
// one: the view's leading columns, as many as the rows have values (every
// column for a SELECT or DEFAULT VALUES), each of which must be updatable.
func (b *binder) viewInsertColumns(vd *viewDML, s *pg_query.InsertStmt) ([]int, error) {
	n := len(vd.col)
	if sel := s.SelectStmt.GetSelectStmt(); sel != nil && len(sel.ValuesLists) > 0 {
		n = min(n, len(sel.ValuesLists[0].GetList().GetItems()))
	}
	if s.SelectStmt == nil {
		return nil, nil
	}
	cols := make([]int, n)
	for i := range cols {
		c, err := b.viewColumn(vd, vd.view.Columns[i].Name, -1, "insert into")
		if err != nil {
			return nil, err
		}
		if slices.Contains(cols[:i], c) {
			return nil, sameColumnTwice(vd.base, c)
		}
		cols[i] = c
	}
	return cols, nil
}

// sameColumnTwice is the error for two assignments to column idx of t
// (PostgreSQL's rewriter finds it, without a position).
func sameColumnTwice(t *catalog.Table, idx int) error {
	return pgerr.New(pgerr.SyntaxError, "multiple assignments to same column \"%s\"", t.Columns[idx].Name)
}

// ViewUpdatable reports whether view v is automatically updatable (for
// information_schema's is_updatable and is_insertable_into).
func ViewUpdatable(cat Catalog, v *catalog.View) bool {
	b := &binder{cat: cat, query: v.Query}
	_, err := b.updatableView(v, "update")
	return err == nil
}
