package sql

import (
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/pgerr"
	"minipg/types"
)

// condition binds a WHERE or JOIN/ON condition: aggregates are refused
// (naming aggClause) and the result must be boolean (naming boolClause).
func (b *binder) condition(n *pg_query.Node, aggClause, boolClause string) (Expr, error) {
	b.agg, b.aggErr = nil, aggClause
	w, err := b.expr(n)
	if err != nil {
		return nil, err
	}
	return b.requireBool(w, boolClause, exprLocation(n))
}

// conditions binds each of ns with condition.
func (b *binder) conditions(ns []*pg_query.Node, aggClause, boolClause string) ([]Expr, error) {
	var out []Expr
	for _, n := range ns {
		w, err := b.condition(n, aggClause, boolClause)
		if err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, nil
}

// AndAll is the conjunction of conds: nil for none, the one itself, or AND.
func AndAll(conds []Expr) Expr {
	switch len(conds) {
	case 0:
		return nil
	case 1:
		return conds[0]
	}
	return &BoolOp{Op: "AND", Args: conds}
}

// figureColname is PostgreSQL's FigureColname: the name a target gets
// without AS, and its strength (0 none, 1 type name, 2 real name).
func figureColname(n *pg_query.Node) (string, int) {
	switch {
	case n == nil:
	case n.GetColumnRef() != nil:
		f := n.GetColumnRef().Fields
		if s := f[len(f)-1].GetString_(); s != nil {
			return s.Sval, 2
		}
	case n.GetFuncCall() != nil:
		return opName(n.GetFuncCall().Funcname), 2
	case n.GetTypeCast() != nil:
		tc := n.GetTypeCast()
		if name, s := figureColname(tc.Arg); s == 2 {
			return name, 2
		}
		if tn := tc.TypeName; tn != nil && len(tn.Names) > 0 {
			nm := tn.Names[len(tn.Names)-1].GetString_().GetSval()
			if pretty, ok := castColNames[nm]; ok {
				nm = pretty
			}
			return nm, 1
		}
	case n.GetCoalesceExpr() != nil:
		return "coalesce", 2
	case n.GetMinMaxExpr() != nil:
		if n.GetMinMaxExpr().Op == pg_query.MinMaxOp_IS_LEAST {
			return "least", 2
		}
		return "greatest", 2
	case n.GetAArrayExpr() != nil:
		return "array", 2
	case n.GetAIndirection() != nil:
		return figureColname(n.GetAIndirection().Arg)
	case n.GetAExpr() != nil && n.GetAExpr().Kind == pg_query.A_Expr_Kind_AEXPR_NULLIF:
		return "nullif", 2
	case n.GetSqlvalueFunction() != nil:
		switch n.GetSqlvalueFunction().Op {
		case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP, pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP_N:
			return "current_timestamp", 2
		case pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP, pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP_N:
			return "localtimestamp", 2
		case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_DATE:
			return "current_date", 2
		case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIME, pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIME_N:
			return "current_time", 2
		case pg_query.SQLValueFunctionOp_SVFOP_LOCALTIME, pg_query.SQLValueFunctionOp_SVFOP_LOCALTIME_N:
			return "localtime", 2
		case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_USER:
			return "current_user", 2
		case pg_query.SQLValueFunctionOp_SVFOP_SESSION_USER:
			return "session_user", 2
		case pg_query.SQLValueFunctionOp_SVFOP_USER:
			return "user", 2
		case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_SCHEMA:
			return "current_schema", 2
		case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_CATALOG:
			return "current_catalog", 2
		}
	case n.GetCaseExpr() != nil:
		return "case", 1
	case n.GetGroupingFunc() != nil:
		return "grouping", 2
	case n.GetSubLink() != nil:
		sl := n.GetSubLink()
		switch sl.SubLinkType {
		case pg_query.SubLinkType_EXISTS_SUBLINK:
			return "exists", 2
		case pg_query.SubLinkType_ARRAY_SUBLINK:
			return "array", 2
		case pg_query.SubLinkType_EXPR_SUBLINK:
			if sel := sl.Subselect.GetSelectStmt(); sel != nil && len(sel.TargetList) > 0 {
				rt := sel.TargetList[0].GetResTarget()
				if rt.Name != "" {
					return rt.Name, 2
				}
				return figureColname(rt.Val)
			}
		}
	}
	return "?column?", 0
}

// castColNames maps the grammar's internal type names to the names
// FigureColname reports for them (it reports the last name component).
var castColNames = map[string]string{}

type target struct {
	e    Expr
	name string
	loc  int32
}

// selectStmt binds a SELECT, one clause after another in PostgreSQL's
// order: FROM and WHERE, the target list, GROUP BY and HAVING, ORDER BY,
// DISTINCT, then the output columns, LIMIT/OFFSET and FOR UPDATE.
func (b *binder) selectStmt(s *pg_query.SelectStmt) (*Select, error) {
	// A subquery has window functions of its own; those of the query
	// around it are not allowed in its clauses.
	savedWin, savedWinErr := b.win, b.winErr
	b.win, b.winErr = nil, ""
	defer func() { b.win, b.winErr = savedWin, savedWinErr }()
	valuesRow := b.valuesRow
	b.valuesRow = false
	if cte := b.recursiveQueries[s]; cte != nil {
		return b.recursiveUnion(s, cte)
	}
	if s.Op == pg_query.SetOperation_SETOP_UNION || s.Op == pg_query.SetOperation_SETOP_INTERSECT ||
		s.Op == pg_query.SetOperation_SETOP_EXCEPT {
		return b.setOp(s)
	}
	if len(s.ValuesLists) > 0 {
		return b.valuesList(s)
	}
	if s.IntoClause != nil {
		// A top-level SELECT INTO is a CREATE TABLE AS (selectInto).
		return nil, b.errAt(s.IntoClause.Rel.Location, pgerr.SyntaxError, "SELECT ... INTO is not allowed here")
	}
	if err := selectUnsupported(s); err != nil {
		return nil, err
	}
	keepUnknown := b.insertSource
	b.insertSource = false
	s, err := b.liftRecordFields(s)
	if err != nil {
		return nil, err
	}
	out := &Select{}
	if err := b.fromWhere(s, out); err != nil {
		return nil, err
	}
	ag := &aggCtx{}
	b.agg = ag
	wc := &winCtx{}
	for _, n := range s.WindowClause {
		d := n.GetWindowDef()
		wc.defs = append(wc.defs, d)
		wc.keys = append(wc.keys, rawKey(d))
	}
	b.win = wc
	if valuesRow {
		b.win, b.winErr = nil, "VALUES"
	}
	targets, err := b.targetList(s.TargetList)
	if err != nil {
		return nil, err
	}
	nvis := len(targets)
	if err := b.groupByHaving(s, targets[:nvis], out); err != nil {
		return nil, err
	}
	b.win = wc
	if targets, err = b.orderBy(s, targets, nvis, out); err != nil {
		return nil, err
	}
	if targets, err = b.distinctOn(s, targets, nvis, out); err != nil {
		return nil, err
	}
	if err := b.bindWindows(); err != nil {
		return nil, err
	}
	b.win = wc
	b.agg = nil
	if err := distinctClause(s, out); err != nil {
		return nil, err
	}
	if out.Distinct {
		for _, t := range targets[:nvis] {
			if t.e.Type().OID == types.JSON {
				return nil, b.errAt(t.loc, pgerr.UndefinedFunction, "could not identify an equality operator for type json")
			}
		}
	}
	if err := b.resolveUnknownTargets(targets, nvis, keepUnknown, out); err != nil {
		return nil, err
	}
	for i := range out.Sort {
		out.Sort[i].T = targets[out.Sort[i].Idx].e.Type()
	}
	out.Aggs = ag.aggs
	if err := b.checkRecursiveTermAggs(s, out); err != nil {
		return nil, err
	}
	if err := b.groupRows(targets, out); err != nil {
		return nil, err
	}
	if err := b.windowSlots(targets, out); err != nil {
		return nil, err
	}
	b.win = nil
	b.projectSet(targets, out)
	outputColumns(targets, nvis, out)
	if err := b.limitClause(s, out); err != nil {
		return nil, err
	}
	if err := lockingClause(s, out); err != nil {
		return nil, err
	}
	return out, nil
}

// selectUnsupported rejects the forms of SELECT minipg does not bind.
func selectUnsupported(s *pg_query.SelectStmt) error {
	if s.Op != pg_query.SetOperation_SETOP_NONE && s.Op != pg_query.SetOperation_SET_OPERATION_UNDEFINED {
		return pgerr.New(pgerr.FeatureNotSupported, "UNION, INTERSECT and EXCEPT are not supported")
	}
	return nil
}

// fromWhere binds FROM (its items, the tree of joins and their ON
// conditions) and WHERE.
func (b *binder) fromWhere(s *pg_query.SelectStmt, out *Select) error {
	b.allowVirtual = true
	err := b.fromClause(s.FromClause, out)
	b.allowVirtual = false
	if err != nil {
		return err
	}
	if s.WhereClause != nil {
		w, err := b.condition(s.WhereClause, "WHERE", "WHERE")
		if err != nil {
			return err
		}
		out.Where = w
	}
	return nil
}

// targetList binds the select list, expanding * and t.* into the columns of
// the tables in scope.
func (b *binder) targetList(list []*pg_query.Node) ([]target, error) {
	var targets []target
	for _, tn := range list {
		rt := tn.GetResTarget()
		if cr := rt.Val.GetColumnRef(); cr != nil && cr.Fields[len(cr.Fields)-1].GetAStar() != nil {
			if b.sc == nil {
				return nil, b.errAt(cr.Location, pgerr.SyntaxError, "SELECT * with no tables specified is not valid")
			}
			matched := len(cr.Fields) == 1
			cols := b.sc.exposed
			if len(cr.Fields) == 2 {
				cols = nil
				for _, st := range b.sc.tables {
					if cr.Fields[0].GetString_().GetSval() == st.alias {
						matched, cols = true, st.cols
					}
				}
			}
			for _, c := range cols {
				targets = append(targets, target{e: b.useCol(c), name: c.name, loc: cr.Location})
			}
			if !matched {
				return nil, b.missingTable(cr.Fields[0].GetString_().GetSval(), cr.Location)
			}
			continue
		}
		b.srfOK = true
		e, err := b.expr(rt.Val)
		b.srfOK = false
		if err != nil {
			return nil, err
		}
		name := rt.Name
		if name == "" {
			name, _ = figureColname(rt.Val)
		}
		targets = append(targets, target{e: e, name: name, loc: exprLocation(rt.Val)})
	}
	return targets, nil
}

// groupByHaving binds GROUP BY (over the visible targets, by position or
// output name as well) and HAVING.
func (b *binder) groupByHaving(s *pg_query.SelectStmt, visible []target, out *Select) error {
	b.win, b.winErr = nil, "GROUP BY"
	defer func() { b.winErr = "" }()
	if hasGroupingSet(s.GroupClause) {
		// As in PostgreSQL, a key is a select-list entry: the one GROUP
		// BY names by position or output name, else the first equal to
		// the expression, else a hidden one of its own. Two entries equal
		// in value stay two keys (GROUP BY a1, ROLLUP (a2) with a1 and a2
		// both g), for the sets NULL them apart.
		key := func(g *pg_query.Node) (int, error) {
			e, ti, err := b.groupKeyTarget(g, visible)
			if err != nil {
				return 0, err
			}
			k := exprKey(e)
			if ti < 0 {
				ti = slices.IndexFunc(visible, func(t target) bool { return exprKey(t.e) == k })
			}
			for i, x := range out.Group {
				if out.groupTargets[i] == ti && (ti >= 0 || exprKey(x) == k) {
					return i, nil
				}
			}
			out.Group = append(out.Group, e)
			out.groupTargets = append(out.groupTargets, ti)
			return len(out.Group) - 1, nil
		}
		if err := b.groupingSets(s, key, out); err != nil {
			return err
		}
		return b.having(s, out)
	}
	for _, g := range s.GroupClause {
		e, err := b.groupKey(g, visible)
		if err != nil {
			return err
		}
		out.Group = append(out.Group, e)
	}
	return b.having(s, out)
}

// groupKey binds one expression of GROUP BY (over the visible targets, by
// position or output name as well).
func (b *binder) groupKey(g *pg_query.Node, visible []target) (Expr, error) {
	e, _, err := b.groupKeyTarget(g, visible)
	return e, err
}

// groupKeyTarget is groupKey that also returns the select-list entry g
// names by position or output name (-1: none).
func (b *binder) groupKeyTarget(g *pg_query.Node, visible []target) (Expr, int, error) {
	e, ti, err := b.groupOrSortTarget(g, visible, "GROUP BY")
	if err != nil {
		return nil, -1, err
	}
	if _, isAgg := e.(*Agg); isAgg {
		// PostgreSQL points at the aggregate: in the select list
		// when GROUP BY names it by position.
		loc := exprLocation(g)
		if c := g.GetAConst(); c != nil && c.GetIval() != nil {
			if i := int(c.GetIval().Ival); i >= 1 && i <= len(visible) {
				loc = visible[i-1].loc
			}
		}
		return nil, -1, b.errAt(loc, pgerr.GroupingError, "aggregate functions are not allowed in GROUP BY")
	}
	if hasWinFunc(e) {
		// GROUP BY 1 naming a target that holds a window function.
		loc := exprLocation(g)
		if c := g.GetAConst(); c != nil && c.GetIval() != nil {
			if i := int(c.GetIval().Ival); i >= 1 && i <= len(visible) {
				loc = visible[i-1].loc
			}
		}
		return nil, -1, b.errAt(loc, pgerr.WindowingError, "window functions are not allowed in GROUP BY")
	}
	if srf := findSRF(e); srf != nil {
		// PostgreSQL groups by a set-returning function's rows;
		// minipg evaluates GROUP BY's expressions once per input row.
		return nil, -1, b.errAt(srf.Loc, pgerr.FeatureNotSupported, "set-returning functions in GROUP BY are not supported")
	}
	if e.Type().OID == types.JSON {
		return nil, -1, b.errAt(exprLocation(g), pgerr.UndefinedFunction, "could not identify an equality operator for type json")
	}
	return e, ti, nil
}

// having binds HAVING into out.Having.
func (b *binder) having(s *pg_query.SelectStmt, out *Select) error {
	if s.HavingClause != nil {
		b.winErr = "HAVING"
		h, err := b.expr(s.HavingClause)
		if err != nil {
			return err
		}
		if h, err = b.requireBool(h, "HAVING", 0); err != nil {
			return err
		}
		out.Having = h
	}
	return nil
}

// orderBy binds ORDER BY into out.Sort: an output column by name or
// position, else an expression, which is added as a hidden target unless
// an equal target exists. It returns the targets with the hidden ones.
func (b *binder) orderBy(s *pg_query.SelectStmt, targets []target, nvis int, out *Select) ([]target, error) {
	for _, sn := range s.SortClause {
		sb := sn.GetSortBy()
		if sb.SortbyDir == pg_query.SortByDir_SORTBY_USING {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "ORDER BY ... USING is not supported")
		}
		idx := -1
		if cr := sb.Node.GetColumnRef(); cr != nil && len(cr.Fields) == 1 && cr.Fields[0].GetString_() != nil {
			name := cr.Fields[0].GetString_().Sval
			for i, t := range targets[:nvis] {
				if t.name == name {
					if idx >= 0 && exprKey(targets[idx].e) != exprKey(t.e) {
						return nil, b.errAt(cr.Location, pgerr.AmbiguousColumn, "ORDER BY \"%s\" is ambiguous", name)
					}
					if idx < 0 {
						idx = i
					}
				}
			}
		}
		if idx < 0 {
			e, err := b.groupOrSortExpr(sb.Node, targets[:nvis], "ORDER BY")
			if err != nil {
				return nil, err
			}
			idx = targetOf(targets, e)
			if idx < 0 {
				if s.DistinctClause != nil && !isDistinctOn(s) {
					return nil, pgerr.New(pgerr.InvalidColumnReference, "for SELECT DISTINCT, ORDER BY expressions must appear in select list")
				}
				targets = append(targets, target{e: e, name: "?column?", loc: -1})
				idx = len(targets) - 1
			}
		}
		if targets[idx].e.Type().OID == types.JSON {
			return nil, b.errAt(exprLocation(sb.Node), pgerr.UndefinedFunction, "could not identify an ordering operator for type json").
				WithHint("Use an explicit ordering operator or modify the query.")
		}
		key := SortKey{Idx: idx, Desc: sb.SortbyDir == pg_query.SortByDir_SORTBY_DESC}
		key.NullsFirst = key.Desc
		switch sb.SortbyNulls {
		case pg_query.SortByNulls_SORTBY_NULLS_FIRST:
			key.NullsFirst = true
		case pg_query.SortByNulls_SORTBY_NULLS_LAST:
			key.NullsFirst = false
		}
		out.Sort = append(out.Sort, key)
	}
	return targets, nil
}

// distinctClause binds SELECT DISTINCT (DISTINCT ON: distinctOn).
func distinctClause(s *pg_query.SelectStmt, out *Select) error {
	if s.DistinctClause != nil && !isDistinctOn(s) {
		out.Distinct = true
	}
	return nil
}

// targetOf is the position of the first target computing e, -1 if none.
func targetOf(targets []target, e Expr) int {
	k := exprKey(e)
	for i, t := range targets {
		if exprKey(t.e) == k {
			return i
		}
	}
	return -1
}

func isDistinctOn(s *pg_query.SelectStmt) bool {
	return len(s.DistinctClause) > 0 && s.DistinctClause[0] != nil && s.DistinctClause[0].Node != nil
}

// distinctOn binds SELECT DISTINCT ON (exprs), after ORDER BY, as
// PostgreSQL's transformDistinctOnClause: the expressions (output names
// and positions allowed, as in ORDER BY) become targets; ORDER BY must
// start with them, in any order (42P10 otherwise), and those it does not
// name are sorted by after its matching items.
func (b *binder) distinctOn(s *pg_query.SelectStmt, targets []target, nvis int, out *Select) ([]target, error) {
	if !isDistinctOn(s) {
		return targets, nil
	}
	var on []int
	locs := map[int]int32{}
	for _, n := range s.DistinctClause {
		e, err := b.groupOrSortExpr(n, targets[:nvis], "DISTINCT ON")
		if err != nil {
			return nil, err
		}
		idx := targetOf(targets, e)
		if idx < 0 {
			targets = append(targets, target{e: e, name: "?column?", loc: -1})
			idx = len(targets) - 1
		}
		if !slices.Contains(on, idx) {
			on = append(on, idx)
			locs[idx] = exprLocation(n)
		}
	}
	mismatch := func(idx int) error {
		return b.errAt(locs[idx], pgerr.InvalidColumnReference, "SELECT DISTINCT ON expressions must match initial ORDER BY expressions")
	}
	var sort []SortKey
	skipped := false
	for _, k := range out.Sort {
		if !slices.Contains(on, k.Idx) {
			skipped = true
			continue
		}
		if skipped {
			return nil, mismatch(k.Idx)
		}
		if !slices.ContainsFunc(sort, func(s SortKey) bool { return s.Idx == k.Idx }) {
			sort = append(sort, k)
		}
	}
	for _, idx := range on {
		if slices.ContainsFunc(sort, func(s SortKey) bool { return s.Idx == idx }) {
			continue
		}
		if skipped {
			return nil, mismatch(idx)
		}
		sort = append(sort, SortKey{Idx: idx})
	}
	// The rest of ORDER BY orders the rows within each run.
	for _, k := range out.Sort {
		if !slices.Contains(on, k.Idx) {
			sort = append(sort, k)
		}
	}
	out.Sort, out.DistinctOn = sort, on
	return targets, nil
}

// resolveUnknownTargets makes unknown-typed outputs text, as PostgreSQL
// resolves them, except (keepUnknown) the visible ones of an INSERT's source
// that are neither grouped, sorted nor DISTINCT: those take the target
// column's type.
func (b *binder) resolveUnknownTargets(targets []target, nvis int, keepUnknown bool, out *Select) error {
	sorted := map[int]bool{}
	for _, k := range out.Sort {
		sorted[k.Idx] = true
	}
	grouped := map[Expr]bool{} // targets GROUP BY names by position or name
	for _, g := range out.Group {
		grouped[g] = true
	}
	for i := range targets {
		if isUnknown(targets[i].e) {
			if _, ok := targets[i].e.(*Param); ok {
				continue
			}
			if keepUnknown && i < nvis && !out.Distinct && !sorted[i] && !grouped[targets[i].e] {
				continue
			}
			e, err := b.coerce(targets[i].e, types.TText, types.CastImplicit, targets[i].loc)
			if err != nil {
				return err
			}
			targets[i].e = e
		}
	}
	return nil
}

// groupRows decides whether the query aggregates (GROUP BY, an aggregate or
// HAVING) and, if so, rewrites the targets and HAVING over the group row.
func (b *binder) groupRows(targets []target, out *Select) error {
	out.Grouped = len(out.Group) > 0 || len(out.Aggs) > 0 || out.Having != nil
	if !out.Grouped {
		for _, t := range targets {
			var g *GroupingFunc
			Walk(t.e, func(x Expr) {
				if f, ok := x.(*GroupingFunc); ok && g == nil {
					g = f
				}
			})
			if g != nil {
				return g.notGrouped(b, 0)
			}
		}
		return nil
	}
	for _, a := range out.Aggs {
		// Direct arguments are evaluated once per group: they may use only
		// grouped columns (the executor evaluates them over a row of the
		// group).
		for _, x := range a.Direct {
			if _, err := b.toGroupRow(x, out); err != nil {
				if e, ok := err.(*pgerr.Error); ok && e.Code == pgerr.GroupingError {
					return e.WithDetail("Direct arguments of an ordered-set aggregate must use only grouped columns.")
				}
				return err
			}
		}
	}
	for i := range targets {
		if k := slices.Index(out.groupTargets, i); k >= 0 {
			// The key GROUP BY made of this entry.
			g := out.Group[k]
			targets[i].e = &ColRef{Idx: k, T: g.Type(), Name: colName(g)}
			continue
		}
		e, err := b.toGroupRow(targets[i].e, out)
		if err != nil {
			return err
		}
		targets[i].e = e
	}
	if out.Having != nil {
		h, err := b.toGroupRow(out.Having, out)
		if err != nil {
			return err
		}
		out.Having = h
	}
	return nil
}

// projectSet moves the set-returning functions of the targets into
// out.SRFs: each becomes a slot after the row the targets see (the scan row,
// or the group row).
func (b *binder) projectSet(targets []target, out *Select) {
	width := len(out.Group) + len(out.Aggs)
	if !out.Grouped {
		width = 0
		if b.sc != nil {
			width = b.sc.width
		}
	}
	width += len(out.WinFuncs)
	for i := range targets {
		targets[i].e = Rewrite(targets[i].e, func(x Expr) (Expr, bool) {
			f, ok := x.(*SRFCall)
			if !ok {
				return nil, false
			}
			out.SRFs = append(out.SRFs, f)
			return &ColRef{Idx: width + len(out.SRFs) - 1, T: f.T, Name: f.Name}, true
		})
	}
}

// outputColumns fills out's targets and describes the visible ones (name,
// type, and the table column a plain column reference comes from).
func outputColumns(targets []target, nvis int, out *Select) {
	for _, t := range targets {
		out.Targets = append(out.Targets, t.e)
		out.targetLocs = append(out.targetLocs, t.loc)
	}
	out.NVisible = nvis
	for _, t := range targets[:nvis] {
		rc := ResultCol{Name: t.name, T: t.e.Type()}
		if c, ok := t.e.(*ColRef); ok && !out.Grouped {
			rc.TableOID, rc.AttNum = out.source(c.Idx)
		} else if out.Grouped {
			if c, ok := t.e.(*ColRef); ok && c.Idx < len(out.Group) {
				if g, ok := out.Group[c.Idx].(*ColRef); ok {
					rc.TableOID, rc.AttNum = out.source(g.Idx)
				}
			}
		}
		out.Columns = append(out.Columns, rc)
	}
}

// limitClause binds LIMIT (LIMIT NULL and LIMIT ALL are none) and OFFSET.
func (b *binder) limitClause(s *pg_query.SelectStmt, out *Select) error {
	var err error
	if s.LimitCount != nil {
		if c := s.LimitCount.GetAConst(); c == nil || !c.Isnull {
			if out.Limit, err = b.limitExpr(s.LimitCount, "LIMIT"); err != nil {
				return err
			}
		}
	}
	if s.LimitOffset != nil {
		if out.Offset, err = b.limitExpr(s.LimitOffset, "OFFSET"); err != nil {
			return err
		}
	}
	if s.LimitOption == pg_query.LimitOption_LIMIT_OPTION_WITH_TIES {
		return pgerr.New(pgerr.FeatureNotSupported, "FETCH ... WITH TIES is not supported")
	}
	return nil
}

// lockingClause binds FOR UPDATE / FOR SHARE, refused with DISTINCT,
// GROUP BY, HAVING and aggregates as CheckSelectLocking does.
func lockingClause(s *pg_query.SelectStmt, out *Select) error {
	for _, lc := range s.LockingClause {
		l := lc.GetLockingClause()
		if l.WaitPolicy != pg_query.LockWaitPolicy_LockWaitBlock {
			return pgerr.New(pgerr.FeatureNotSupported, "NOWAIT and SKIP LOCKED are not supported")
		}
		if out.Table == nil {
			return pgerr.New(pgerr.FeatureNotSupported, "FOR UPDATE without a table is not supported")
		}
		if out.Join != nil {
			return pgerr.New(pgerr.FeatureNotSupported, "FOR UPDATE with joins is not supported")
		}
		// CheckSelectLocking's checks, in its order and words.
		strength := map[pg_query.LockClauseStrength]string{pg_query.LockClauseStrength_LCS_FORKEYSHARE: "FOR KEY SHARE",
			pg_query.LockClauseStrength_LCS_FORSHARE: "FOR SHARE", pg_query.LockClauseStrength_LCS_FORNOKEYUPDATE: "FOR NO KEY UPDATE",
		}[l.Strength]
		if strength == "" {
			strength = "FOR UPDATE"
		}
		switch {
		case out.Distinct:
			return pgerr.New(pgerr.FeatureNotSupported, "%s is not allowed with DISTINCT clause", strength)
		case len(out.Group) > 0:
			return pgerr.New(pgerr.FeatureNotSupported, "%s is not allowed with GROUP BY clause", strength)
		case out.Having != nil:
			return pgerr.New(pgerr.FeatureNotSupported, "%s is not allowed with HAVING clause", strength)
		case out.Grouped:
			return pgerr.New(pgerr.FeatureNotSupported, "%s is not allowed with aggregate functions", strength)
		case len(out.WinFuncs) > 0:
			return pgerr.New(pgerr.FeatureNotSupported, "%s is not allowed with window functions", strength)
		}
		out.ForUpdate = true
		out.LockStrength = strength
	}
	return nil
}

// limitExpr binds the argument of LIMIT or OFFSET, converted to bigint;
// it may not refer to columns or aggregates.
func (b *binder) limitExpr(n *pg_query.Node, clause string) (Expr, error) {
	saved := b.agg
	b.agg, b.aggErr = nil, clause
	defer func() { b.agg = saved }()
	savedSc := b.sc
	b.sc = nil
	defer func() { b.sc = savedSc }()
	e, err := b.expr(n)
	if err != nil {
		return nil, err
	}
	if e.Type().Category() != 'N' && !isUnknown(e) {
		return nil, b.errAt(exprLocation(n), pgerr.DatatypeMismatch, "argument of %s must be type bigint, not type %s", clause, baseName(e.Type()))
	}
	return b.coerce(e, types.TInt8, types.CastAssignment, 0)
}

// groupOrSortExpr binds a GROUP BY / ORDER BY item: an integer constant is a
// 1-based target position (any other constant is 42601); a bare name not
// found among the input columns matches an output column name.
func (b *binder) groupOrSortExpr(n *pg_query.Node, targets []target, clause string) (Expr, error) {
	e, _, err := b.groupOrSortTarget(n, targets, clause)
	return e, err
}

// groupOrSortTarget is groupOrSortExpr that also returns the index of the
// select-list entry n names by position or output name (-1 if it names
// none).
func (b *binder) groupOrSortTarget(n *pg_query.Node, targets []target, clause string) (Expr, int, error) {
	if c := n.GetAConst(); c != nil {
		if c.GetIval() == nil {
			return nil, -1, b.errAt(c.Location, pgerr.SyntaxError, "non-integer constant in %s", clause)
		}
		pos := int(c.GetIval().Ival)
		if pos < 1 || pos > len(targets) {
			return nil, -1, b.errAt(c.Location, pgerr.InvalidColumnReference, "%s position %d is not in select list", clause, pos)
		}
		return targets[pos-1].e, pos - 1, nil
	}
	e, err := b.expr(n)
	if err != nil {
		if pgerr.CodeOf(err) == pgerr.UndefinedColumn && clause == "GROUP BY" {
			if cr := n.GetColumnRef(); cr != nil && len(cr.Fields) == 1 && cr.Fields[0].GetString_() != nil {
				for i, t := range targets {
					if t.name == cr.Fields[0].GetString_().Sval {
						return t.e, i, nil
					}
				}
			}
		}
		return nil, -1, err
	}
	return e, -1, nil
}

// toGroupRow rewrites an expression over the scan row into one over the
// group row (group keys, then aggregate results).
func (b *binder) toGroupRow(e Expr, s *Select) (Expr, error) {
	k := exprKey(e)
	for i, g := range s.Group {
		if exprKey(g) == k {
			return &ColRef{Idx: i, T: g.Type(), Name: colName(g)}, nil
		}
	}
	switch x := e.(type) {
	case *GroupingFunc:
		return b.resolveGrouping(x, s)
	case *Agg:
		for i, a := range s.Aggs {
			if a == x {
				return &ColRef{Idx: len(s.Group) + i, T: a.T, Name: a.Name}, nil
			}
		}
		return nil, pgerr.New(pgerr.InternalError, "aggregate not found")
	case *ColRef:
		name := x.Name
		if s.Table != nil {
			name = s.Table.Name + "." + x.Name
		}
		return nil, pgerr.New(pgerr.GroupingError, "column \"%s\" must appear in the GROUP BY clause or be used in an aggregate function", name)
	case *SubPlan:
		if x.Correlated {
			c := *x
			if b.regrouped == nil {
				b.regrouped = map[*Select]bool{}
			}
			if !b.regrouped[c.Select] {
				b.regrouped[c.Select] = true
				if err := b.regroupOuter(c.Select, 1, s); err != nil {
					return nil, err
				}
			}
			if c.X != nil {
				var err error
				if c.X, err = b.toGroupRow(c.X, s); err != nil {
					return nil, err
				}
			}
			return &c, nil
		}
	case *Const, *Param, *OuterRef:
		return e, nil
	}
	return mapChildren(e, func(c Expr) (Expr, error) { return b.toGroupRow(c, s) })
}

// regroupOuter rewrites the references of subquery sel (at depth below the
// aggregate query s) to s's scan row into references to its group row: a
// column must be a group key, as PostgreSQL requires (42803 otherwise).
// sel is rewritten in place; it belongs to this statement alone.
func (b *binder) regroupOuter(sel *Select, depth int, s *Select) error {
	var err error
	fix := func(e Expr) Expr {
		if e == nil || err != nil {
			return e
		}
		return Rewrite(e, func(x Expr) (Expr, bool) {
			switch r := x.(type) {
			case *OuterRef:
				if r.Level != depth {
					return nil, false
				}
				for i, g := range s.Group {
					if c, ok := g.(*ColRef); ok && c.Idx == r.Idx {
						return &OuterRef{Level: depth, Idx: i, T: r.T, Name: r.Name}, true
					}
				}
				if err == nil {
					err = b.errAt(r.loc, pgerr.GroupingError, "subquery uses ungrouped column \"%s\" from outer query", r.Name)
				}
				return x, true
			case *SubPlan:
				// Its own query is one level further down; its X is
				// evaluated here and is rewritten with the children.
				if r.Correlated {
					if e := b.regroupOuter(r.Select, depth+1, s); e != nil && err == nil {
						err = e
					}
				}
			}
			return nil, false
		})
	}
	var walkSel func(q *Select, d int)
	walkSel = func(q *Select, d int) {
		saved := depth
		depth = d
		defer func() { depth = saved }()
		for _, arm := range q.Union {
			walkSel(arm, d)
		}
		q.Where, q.Having, q.Limit, q.Offset = fix(q.Where), fix(q.Having), fix(q.Limit), fix(q.Offset)
		for i := range q.Targets {
			q.Targets[i] = fix(q.Targets[i])
		}
		for i := range q.Group {
			q.Group[i] = fix(q.Group[i])
		}
		for _, a := range q.Aggs {
			a.Arg = fix(a.Arg)
			for i := range a.Extra {
				a.Extra[i] = fix(a.Extra[i])
			}
			for i := range a.Direct {
				a.Direct[i] = fix(a.Direct[i])
			}
			for i := range a.Order {
				a.Order[i].X = fix(a.Order[i].X)
			}
			a.Filter = fix(a.Filter)
		}
		for _, f := range q.SRFs {
			for i := range f.Args {
				f.Args[i] = fix(f.Args[i])
			}
		}
		q.mapWindowExprs(fix)
		for _, f := range q.From {
			if f.Sub != nil {
				walkSel(f.Sub, d)
			}
			if f.Func != nil {
				for i := range f.Func.Args {
					f.Func.Args[i] = fix(f.Func.Args[i])
				}
			}
		}
		var walkJoin func(j *JoinNode)
		walkJoin = func(j *JoinNode) {
			if j != nil {
				j.On = fix(j.On)
				walkJoin(j.L)
				walkJoin(j.R)
			}
		}
		walkJoin(q.Join)
	}
	walkSel(sel, depth)
	return err
}

// colName is the name a group key column takes in the group row.
func colName(e Expr) string {
	if c, ok := e.(*ColRef); ok {
		return c.Name
	}
	return "?column?"
}

// source returns the table OID and attribute number of scan-row slot idx
// (0, 0 for ctid or no table).
func (s *Select) source(idx int) (uint32, int16) {
	for _, f := range s.From {
		if f.Table != nil && idx >= f.Base && idx < f.Base+len(f.Table.Columns) {
			return f.Table.OID, int16(idx - f.Base + 1)
		}
		if f.Sub != nil && idx >= f.Base && idx < f.Base+f.Width {
			return f.Sub.Columns[idx-f.Base].TableOID, f.Sub.Columns[idx-f.Base].AttNum
		}
	}
	return 0, 0
}
