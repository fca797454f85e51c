package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/reflect/protoreflect"

	"minipg/pgerr"
	"minipg/types"
)

// WITH RECURSIVE. A CTE whose query names itself is recursive: its query
// must be "non-recursive term UNION [ALL] recursive term", the recursive
// term naming the CTE exactly once, outside subqueries in expressions,
// outer joins' nullable sides, INTERSECT ALL and EXCEPT's right side
// (PostgreSQL's checkWellFormedRecursion, 42P19), and the UNION carrying
// no ORDER BY, LIMIT, OFFSET or FOR UPDATE (0A000). The other CTEs of a
// WITH RECURSIVE list may name the ones after them: the list is taken in
// an order where every CTE comes after those it names (mutual recursion
// is 0A000, as in PostgreSQL).
//
// Each reference to a recursive CTE becomes a copy of its query in FROM,
// as the other CTEs do; selectStmt binds such a copy as a recursive union
// (a Select with SetOp SetOpRecursive): the non-recursive term first,
// whose column types are the CTE's, then the recursive term, in which the
// self-reference is a FromTable reading the work table (WorkTable). The
// executor evaluates the non-recursive term, then the recursive term over
// the rows the previous round produced, until a round produces none;
// UNION without ALL drops rows already produced.

// recursionContext is where a self-reference stands in the recursive
// term, as PostgreSQL's RecursionContext.
type recursionContext int

const (
	recursionOK recursionContext = iota
	recursionNonRecursiveTerm
	recursionSublink
	recursionOuterJoin
	recursionIntersect
	recursionExcept
)

var recursionErrors = map[recursionContext]string{
	recursionNonRecursiveTerm: "recursive reference to query \"%s\" must not appear within its non-recursive term",
	recursionSublink:          "recursive reference to query \"%s\" must not appear within a subquery",
	recursionOuterJoin:        "recursive reference to query \"%s\" must not appear within an outer join",
	recursionIntersect:        "recursive reference to query \"%s\" must not appear within INTERSECT",
	recursionExcept:           "recursive reference to query \"%s\" must not appear within EXCEPT",
}

// namesIn reports which of the given CTE names the tree m names as a
// table (an unqualified RangeVar), a name hidden where a WITH inside m
// defines a CTE of its own by that name.
func namesIn(m protoreflect.Message, names map[string]bool, found map[string]bool) {
	if rv, ok := m.Interface().(*pg_query.RangeVar); ok {
		if rv.Schemaname == "" && rv.Catalogname == "" && names[rv.Relname] {
			found[rv.Relname] = true
		}
		return
	}
	if sel, ok := m.Interface().(*pg_query.SelectStmt); ok && sel.WithClause != nil {
		with := sel.WithClause
		ctes := innerCTEs(with)
		for i, c := range ctes {
			namesIn(c.Ctequery.ProtoReflect(), visibleNames(names, ctes, i, with.Recursive), found)
		}
		sel.WithClause = nil
		namesIn(m, visibleNames(names, ctes, len(ctes), true), found)
		sel.WithClause = with
		return
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				namesIn(l.Get(i).Message(), names, found)
			}
		case fd.Message() != nil && !fd.IsMap():
			namesIn(v.Message(), names, found)
		}
		return true
	})
}

// innerCTEs are the CTEs of a WITH clause.
func innerCTEs(with *pg_query.WithClause) []*pg_query.CommonTableExpr {
	var out []*pg_query.CommonTableExpr
	for _, c := range with.Ctes {
		if cte := c.GetCommonTableExpr(); cte != nil {
			out = append(out, cte)
		}
	}
	return out
}

// visibleNames is names without those the CTEs of an inner WITH hide
// from the query of its CTE i (all of them when the WITH is recursive,
// else the ones before it; i = len(ctes) with all: its statement's body).
func visibleNames(names map[string]bool, ctes []*pg_query.CommonTableExpr, i int, all bool) map[string]bool {
	hidden := ctes[:i]
	if all {
		hidden = ctes
	}
	out := map[string]bool{}
	for n := range names {
		out[n] = true
	}
	for _, c := range hidden {
		delete(out, c.Ctename)
	}
	return out
}

// orderRecursiveWith checks the CTEs of a WITH RECURSIVE list, marks the
// recursive ones in b.recursiveCTE and returns the list in an order where
// each CTE follows those it names.
func (b *binder) orderRecursiveWith(ctes []*pg_query.CommonTableExpr) ([]*pg_query.CommonTableExpr, error) {
	names := map[string]bool{}
	byName := map[string]int{}
	for i, c := range ctes {
		names[c.Ctename] = true
		byName[c.Ctename] = i
	}
	deps := make([][]int, len(ctes))
	for i, c := range ctes {
		found := map[string]bool{}
		namesIn(c.Ctequery.ProtoReflect(), names, found)
		for name := range found {
			if name == c.Ctename {
				if isDML(c.Ctequery) {
					return nil, b.errAt(c.Location, pgerr.InvalidRecursion, "recursive query \"%s\" must not contain data-modifying statements", c.Ctename)
				}
				if err := b.checkRecursion(c); err != nil {
					return nil, err
				}
				if b.recursiveCTE == nil {
					b.recursiveCTE = map[*pg_query.CommonTableExpr]bool{}
				}
				b.recursiveCTE[c] = true
				continue
			}
			deps[i] = append(deps[i], byName[name])
		}
	}
	// Depth-first, dependencies first; a cycle through two or more CTEs
	// is mutual recursion.
	state := make([]int, len(ctes)) // 0 new, 1 on the path, 2 done
	var order []*pg_query.CommonTableExpr
	var visit func(i int) error
	visit = func(i int) error {
		switch state[i] {
		case 1:
			return b.errAt(ctes[i].Location, pgerr.FeatureNotSupported, "mutual recursion between WITH items is not implemented")
		case 2:
			return nil
		}
		state[i] = 1
		for _, d := range deps[i] {
			if err := visit(d); err != nil {
				return err
			}
		}
		state[i] = 2
		order = append(order, ctes[i])
		return nil
	}
	for i := range ctes {
		if err := visit(i); err != nil {
			return nil, err
		}
	}
	return order, nil
}

// checkRecursion is PostgreSQL's checkWellFormedRecursion for one
// recursive CTE.
func (b *binder) checkRecursion(cte *pg_query.CommonTableExpr) error {
	q := cte.Ctequery.GetSelectStmt()
	if q == nil || q.Op != pg_query.SetOperation_SETOP_UNION {
		return b.errAt(cte.Location, pgerr.InvalidRecursion,
			"recursive query \"%s\" does not have the form non-recursive-term UNION [ALL] recursive-term", cte.Ctename)
	}
	w := &recursionWalker{b: b, name: cte.Ctename}
	if err := w.walk(q.Larg.ProtoReflect(), recursionNonRecursiveTerm); err != nil {
		return err
	}
	if q.WithClause != nil {
		// A WITH on the union itself may not name the CTE either.
		for _, c := range q.WithClause.Ctes {
			if err := w.walk(c.ProtoReflect(), recursionSublink); err != nil {
				return err
			}
		}
	}
	if err := w.walk(q.Rarg.ProtoReflect(), recursionOK); err != nil {
		return err
	}
	if len(q.SortClause) > 0 {
		return b.errAt(exprLocation(q.SortClause[0].GetSortBy().GetNode()), pgerr.FeatureNotSupported, "ORDER BY in a recursive query is not implemented")
	}
	if q.LimitOffset != nil {
		return b.errAt(exprLocation(q.LimitOffset), pgerr.FeatureNotSupported, "OFFSET in a recursive query is not implemented")
	}
	if q.LimitCount != nil {
		return b.errAt(exprLocation(q.LimitCount), pgerr.FeatureNotSupported, "LIMIT in a recursive query is not implemented")
	}
	if len(q.LockingClause) > 0 {
		return pgerr.New(pgerr.FeatureNotSupported, "FOR UPDATE/SHARE in a recursive query is not implemented")
	}
	return nil
}

// recursionWalker finds the self-references of a recursive CTE's query
// and refuses those in places PostgreSQL refuses.
type recursionWalker struct {
	b     *binder
	name  string
	count int
}

func (w *recursionWalker) walk(m protoreflect.Message, ctx recursionContext) error {
	switch n := m.Interface().(type) {
	case *pg_query.RangeVar:
		if n.Schemaname != "" || n.Catalogname != "" || n.Relname != w.name {
			return nil
		}
		if ctx != recursionOK {
			return w.b.errAt(n.Location, pgerr.InvalidRecursion, recursionErrors[ctx], w.name)
		}
		w.count++
		if w.count > 1 {
			return w.b.errAt(n.Location, pgerr.InvalidRecursion, "recursive reference to query \"%s\" must not appear more than once", w.name)
		}
		return nil
	case *pg_query.SelectStmt:
		if with := n.WithClause; with != nil {
			// A CTE of an inner WITH by the same name hides the
			// recursive one where it is visible.
			ctes := innerCTEs(with)
			self := map[string]bool{w.name: true}
			for i, c := range ctes {
				if visibleNames(self, ctes, i, with.Recursive)[w.name] {
					if err := w.walk(c.Ctequery.ProtoReflect(), ctx); err != nil {
						return err
					}
				}
			}
			if !visibleNames(self, ctes, len(ctes), true)[w.name] {
				return nil
			}
			n.WithClause = nil
			err := w.walk(m, ctx)
			n.WithClause = with
			return err
		}
		switch n.Op {
		case pg_query.SetOperation_SETOP_INTERSECT:
			inner := ctx
			if n.All {
				inner = recursionIntersect
			}
			return w.walkAll(inner, n.Larg, n.Rarg)
		case pg_query.SetOperation_SETOP_EXCEPT:
			left := ctx
			if n.All {
				left = recursionExcept
			}
			if err := w.walkAll(left, n.Larg); err != nil {
				return err
			}
			return w.walkAll(recursionExcept, n.Rarg)
		}
	case *pg_query.JoinExpr:
		l, r := ctx, ctx
		switch n.Jointype {
		case pg_query.JoinType_JOIN_LEFT:
			r = recursionOuterJoin
		case pg_query.JoinType_JOIN_RIGHT:
			l = recursionOuterJoin
		case pg_query.JoinType_JOIN_FULL:
			l, r = recursionOuterJoin, recursionOuterJoin
		}
		if err := w.walkAll(l, n.Larg); err != nil {
			return err
		}
		if err := w.walkAll(r, n.Rarg); err != nil {
			return err
		}
		return w.walkAll(ctx, n.Quals)
	case *pg_query.SubLink:
		if err := w.walkAll(ctx, n.Testexpr); err != nil {
			return err
		}
		return w.walkAll(recursionSublink, n.Subselect)
	}
	var err error
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			l := v.List()
			for i := 0; i < l.Len() && err == nil; i++ {
				err = w.walk(l.Get(i).Message(), ctx)
			}
		case fd.Message() != nil && !fd.IsMap():
			err = w.walk(v.Message(), ctx)
		}
		return err == nil
	})
	return err
}

// walkAll walks the given parts (nil ones skipped) in context in.
func (w *recursionWalker) walkAll(in recursionContext, parts ...protoreflect.ProtoMessage) error {
	for _, p := range parts {
		if p == nil || !p.ProtoReflect().IsValid() {
			continue
		}
		if err := w.walk(p.ProtoReflect(), in); err != nil {
			return err
		}
	}
	return nil
}

// workTable is the self-reference of a recursive CTE while its recursive
// term is bound.
type workTable struct {
	name string
	id   int
	cols []ResultCol
}

// lookupWorkTable returns the work table an unqualified table name in
// FROM names, or nil.
func (b *binder) lookupWorkTable(rv *pg_query.RangeVar) *workTable {
	if rv.Schemaname != "" || rv.Catalogname != "" {
		return nil
	}
	for i := len(b.workTables) - 1; i >= 0; i-- {
		if b.workTables[i].name == rv.Relname {
			return b.workTables[i]
		}
	}
	return nil
}

// recursiveUnion binds a copy of a recursive CTE's query (see above).
func (b *binder) recursiveUnion(s *pg_query.SelectStmt, cte *pg_query.CommonTableExpr) (*Select, error) {
	b.insertSource = false
	nonrec, err := b.selectStmt(s.Larg)
	if err != nil {
		return nil, err
	}
	n := nonrec.NVisible
	if len(cte.Aliascolnames) > n {
		return nil, b.errAt(cte.Location, pgerr.Code("42P10"), "WITH query \"%s\" has %d columns available but %d columns specified",
			cte.Ctename, n, len(cte.Aliascolnames))
	}
	b.nextWorkTable++
	wt := &workTable{name: cte.Ctename, id: b.nextWorkTable}
	for i := 0; i < n; i++ {
		name := nonrec.Columns[i].Name
		if i < len(cte.Aliascolnames) {
			name = cte.Aliascolnames[i].GetString_().GetSval()
		}
		wt.cols = append(wt.cols, ResultCol{Name: name, T: nonrec.Targets[i].Type()})
	}
	b.workTables = append(b.workTables, wt)
	rec, err := b.setOpArm(s.Rarg)
	b.workTables = b.workTables[:len(b.workTables)-1]
	if err != nil {
		return nil, err
	}
	if rec.NVisible != n {
		loc := int32(-1)
		if rec.NVisible > 0 {
			loc = rec.targetLoc(0)
		}
		return nil, b.errAt(loc, pgerr.SyntaxError, "each UNION query must have the same number of columns")
	}
	u := &Select{Union: []*Select{nonrec, rec}, UnionAll: s.All, SetOp: SetOpRecursive, WorkTable: wt.id, NVisible: n,
		targetLocs: nonrec.targetLocs}
	for i := 0; i < n; i++ {
		nt := wt.cols[i].T
		es := []Expr{nonrec.Targets[i], rec.Targets[i]}
		t, bad, ok := selectCommonType(es)
		if !ok {
			return nil, b.errAt(rec.targetLoc(i), pgerr.DatatypeMismatch, "UNION types %s and %s cannot be matched", t.Name(), bad.Name())
		}
		// The typmod survives only when both terms have it
		// (select_common_typmod: an unknown literal has none).
		if t.OID == nt.OID && !isUnknown(es[1]) && es[1].Type().Typmod == nt.Typmod {
			t = nt
		}
		if t != nt {
			return nil, b.errAt(nonrec.targetLoc(i), pgerr.DatatypeMismatch,
				"recursive query \"%s\" column %d has type %s in non-recursive term but type %s overall", cte.Ctename, i+1, nt.Name(), t.Name()).
				WithHint("Cast the output of the non-recursive term to the correct type.")
		}
		x, err := b.coerce(rec.Targets[i], t, types.CastImplicit, rec.targetLoc(i))
		if err == errMismatch {
			return nil, b.errAt(rec.targetLoc(i), pgerr.DatatypeMismatch, "UNION could not convert type %s to %s", rec.Targets[i].Type().Name(), t.Name())
		}
		if err != nil {
			return nil, err
		}
		rec.Targets[i] = x
		rec.Columns[i].T = t
		name := nonrec.Columns[i].Name
		u.Targets = append(u.Targets, &ColRef{Idx: i, T: t, Name: name})
		u.Columns = append(u.Columns, ResultCol{Name: name, T: t})
	}
	return u, nil
}

// workTable binds the self-reference of a recursive CTE in FROM.
func (fb *fromBuilder) workTable(rv *pg_query.RangeVar, wt *workTable, base int) (*JoinNode, []scopeCol, error) {
	cols := make([]scopeCol, len(wt.cols))
	for i, c := range wt.cols {
		cols[i] = scopeCol{name: c.Name, e: &ColRef{Idx: base + i, T: c.T, Name: c.Name}}
	}
	st := scopeTable{alias: wt.name, base: base, cols: cols}
	if rv.Alias != nil && rv.Alias.Aliasname != "" {
		st.alias = rv.Alias.Aliasname
	}
	if err := fb.aliasCols(st.cols, rv.Alias); err != nil {
		return nil, nil, err
	}
	return fb.leaf(FromTable{WorkTable: wt.id, Base: base, Width: len(cols)}, st)
}

// checkRecursiveTermAggs refuses aggregates in the query level of a
// recursive term that reads the work table (42P19, at the first
// aggregate call, as PostgreSQL's parseCheckAggregates).
func (b *binder) checkRecursiveTermAggs(s *pg_query.SelectStmt, out *Select) error {
	if len(out.Aggs) == 0 {
		return nil
	}
	for _, f := range out.From {
		if f.WorkTable != 0 {
			names := map[string]bool{}
			for _, a := range out.Aggs {
				names[a.Name] = true
			}
			return b.errAt(firstAggCall(s, names), pgerr.InvalidRecursion, "aggregate functions are not allowed in a recursive query's recursive term")
		}
	}
	return nil
}

// firstAggCall is the location of the first call of a function named in
// names in the select list or HAVING of s (the aggregate call
// checkRecursiveTermAggs reports), -1 if none.
func firstAggCall(s *pg_query.SelectStmt, names map[string]bool) int32 {
	loc := int32(-1)
	var find func(m protoreflect.Message)
	find = func(m protoreflect.Message) {
		if loc >= 0 {
			return
		}
		if fc, ok := m.Interface().(*pg_query.FuncCall); ok && len(fc.Funcname) > 0 &&
			names[fc.Funcname[len(fc.Funcname)-1].GetString_().GetSval()] {
			loc = fc.Location
			return
		}
		m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			switch {
			case fd.IsList() && fd.Message() != nil:
				l := v.List()
				for i := 0; i < l.Len(); i++ {
					find(l.Get(i).Message())
				}
			case fd.Message() != nil && !fd.IsMap():
				find(v.Message())
			}
			return loc < 0
		})
	}
	for _, t := range s.TargetList {
		find(t.ProtoReflect())
	}
	if s.HavingClause != nil {
		find(s.HavingClause.ProtoReflect())
	}
	return loc
}

// copyCTEMarks gives clone, a copy of orig, the marks inlining put on
// orig's nodes: the SelectStmts that are copies of recursive CTEs, and
// the table names that name a WITH item they may not see.
func (b *binder) copyCTEMarks(orig, clone protoreflect.Message) {
	switch s := orig.Interface().(type) {
	case *pg_query.SelectStmt:
		if cte := b.recursiveQueries[s]; cte != nil {
			b.recursiveQueries[clone.Interface().(*pg_query.SelectStmt)] = cte
		}
	case *pg_query.RangeVar:
		if b.hiddenCTERefs[s] {
			b.hiddenCTERefs[clone.Interface().(*pg_query.RangeVar)] = true
		}
		return
	}
	orig.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			l, cl := v.List(), clone.Get(fd).List()
			for i := 0; i < l.Len() && i < cl.Len(); i++ {
				b.copyCTEMarks(l.Get(i).Message(), cl.Get(i).Message())
			}
		case fd.Message() != nil && !fd.IsMap():
			b.copyCTEMarks(v.Message(), clone.Get(fd).Message())
		}
		return true
	})
}
