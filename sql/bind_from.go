package sql

import (
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/types"
)

// fromClause binds FROM into out.From and out.Join and leaves its scope in
// b.sc: tables, subqueries and set-returning functions, joined by commas,
// CROSS JOIN, [INNER] / LEFT / RIGHT / FULL JOIN with ON, USING or
// NATURAL. ON conditions are bound where they stand (a function's
// arguments may read the items before it); WHERE is bound by the caller.
// fromFunctions is the clause a function in FROM is bound in (aggErr).
const fromFunctions = "functions in FROM"

func (b *binder) fromClause(from []*pg_query.Node, out *Select) error {
	b.sc = nil
	if len(from) == 0 {
		return nil
	}
	fb := &fromBuilder{b: b, sc: &scope{}, out: out}
	root, err := fb.items(from)
	if err != nil {
		return err
	}
	b.sc = fb.sc
	if out.From[0].Table != nil {
		out.Table = out.From[0].Table
	}
	if len(out.From) > 1 || out.From[0].Table == nil {
		out.Join = root
	}
	return nil
}

// items binds the items of a FROM list, joined as by commas, and returns
// their tree; fb.sc.exposed is their columns.
func (fb *fromBuilder) items(from []*pg_query.Node) (*JoinNode, error) {
	var root *JoinNode
	var exposed []scopeCol
	for _, n := range from {
		node, cols, err := fb.item(n)
		if err != nil {
			return nil, err
		}
		exposed = append(exposed, cols...)
		if root == nil {
			root = node
		} else {
			root = &JoinNode{Kind: JoinInner, L: root, R: node}
		}
		fb.sc.exposed = exposed
	}
	fb.sc.exposed = exposed
	return root, nil
}

// fromBuilder binds the items of one FROM clause.
type fromBuilder struct {
	b   *binder
	sc  *scope // items so far; exposed: the columns of the finished top-level items
	out *Select
	// refused are ranges [from, to) of sc.tables that a LATERAL item may
	// not read: the left side of the RIGHT or FULL join it is the right
	// side of.
	refused [][2]int
}

// lateralScope is the scope a LATERAL item (a subquery, or a function's
// arguments) reads: every item before it, those of refused marked.
func (fb *fromBuilder) lateralScope() *scope {
	sc := &scope{tables: slices.Clone(fb.sc.tables), width: fb.sc.width}
	for i := range sc.tables {
		for _, r := range fb.refused {
			if i >= r[0] && i < r[1] {
				sc.tables[i].lateralRefused = true
			}
		}
		if !sc.tables[i].lateralRefused {
			sc.exposed = append(sc.exposed, sc.tables[i].cols...)
		}
	}
	return sc
}

// leaf adds a FROM item with its alias and columns.
func (fb *fromBuilder) leaf(ft FromTable, st scopeTable) (*JoinNode, []scopeCol, error) {
	for _, o := range fb.sc.tables {
		if o.alias == st.alias {
			return nil, nil, pgerr.New(pgerr.Code("42712"), "table name \"%s\" specified more than once", st.alias)
		}
	}
	for i := range st.cols {
		st.cols[i].qual = st.alias
	}
	fb.sc.tables = append(fb.sc.tables, st)
	fb.out.From = append(fb.out.From, ft)
	fb.sc.width = ft.Base + ft.Width
	return &JoinNode{Item: len(fb.out.From) - 1}, st.cols, nil
}

// aliasCols renames the first columns of an item after its alias's column
// list (more names than columns is 42P10).
func (fb *fromBuilder) aliasCols(cols []scopeCol, alias *pg_query.Alias) error {
	if alias == nil {
		return nil
	}
	if len(alias.Colnames) > len(cols) {
		if cte := fb.b.cteAliases[alias]; cte != nil {
			return fb.b.errAt(cte.Location, pgerr.Code("42P10"), "WITH query \"%s\" has %d columns available but %d columns specified",
				cte.Ctename, len(cols), len(alias.Colnames))
		}
		return pgerr.New(pgerr.Code("42P10"), "table \"%s\" has %d columns available but %d columns specified", alias.Aliasname, len(cols), len(alias.Colnames))
	}
	for i, cn := range alias.Colnames {
		name := cn.GetString_().GetSval()
		cols[i].name = name
		if r, ok := cols[i].e.(*ColRef); ok {
			cols[i].e = &ColRef{Idx: r.Idx, T: r.T, Name: name}
		}
	}
	return nil
}

// item binds one FROM item and returns its tree and the columns it shows.
func (fb *fromBuilder) item(n *pg_query.Node) (*JoinNode, []scopeCol, error) {
	b := fb.b
	base := fb.sc.width
	switch {
	case n.GetRangeVar() != nil:
		rv := n.GetRangeVar()
		if i, name, ok := withMarked(rv); ok {
			return fb.withRef(rv, i, name, base)
		}
		if wt := b.lookupWorkTable(rv); wt != nil {
			return fb.workTable(rv, wt, base)
		}
		if v, ok := b.view(rv); ok {
			b.noteRelation(v.OID)
			return fb.viewRef(v, rv, base)
		}
		t, err := b.table(rv)
		if err != nil {
			return nil, nil, err
		}
		if ct, ok := b.cat.Table(t.Name); ok && ct == t {
			b.noteRelation(t.OID)
		}
		st := scopeTable{table: t, alias: t.Name, base: base, cols: tableCols(t, base)}
		if rv.Alias != nil && rv.Alias.Aliasname != "" {
			st.alias = rv.Alias.Aliasname
		}
		if err := fb.aliasCols(st.cols, rv.Alias); err != nil {
			return nil, nil, err
		}
		return fb.leaf(FromTable{Table: t, Base: base, Width: len(t.Columns) + 1}, st)
	case n.GetJoinExpr() != nil:
		return fb.join(n.GetJoinExpr())
	case n.GetRangeSubselect() != nil:
		return fb.subselect(n.GetRangeSubselect(), base)
	case n.GetRangeFunction() != nil:
		return fb.function(n.GetRangeFunction(), base)
	}
	return nil, nil, pgerr.New(pgerr.FeatureNotSupported, "this FROM item is not supported")
}

// join binds a JoinExpr: both sides, then ON, USING or NATURAL. The
// columns it shows are the merged USING columns (the left one for inner
// and LEFT joins, the right one for RIGHT, coalesce of both for FULL),
// then the other columns of the left and of the right side.
func (fb *fromBuilder) join(j *pg_query.JoinExpr) (*JoinNode, []scopeCol, error) {
	b := fb.b
	kind, ok := map[pg_query.JoinType]JoinKind{pg_query.JoinType_JOIN_INNER: JoinInner, pg_query.JoinType_JOIN_LEFT: JoinLeft,
		pg_query.JoinType_JOIN_RIGHT: JoinRight, pg_query.JoinType_JOIN_FULL: JoinFull}[j.Jointype]
	if !ok {
		return nil, nil, pgerr.New(pgerr.FeatureNotSupported, "this kind of join is not supported")
	}
	if j.Alias != nil {
		return nil, nil, pgerr.New(pgerr.FeatureNotSupported, "aliases of joins are not supported")
	}
	if j.JoinUsingAlias != nil {
		return nil, nil, pgerr.New(pgerr.FeatureNotSupported, "JOIN ... USING ... AS is not supported")
	}
	lbase, ltables := fb.sc.width, len(fb.sc.tables)
	l, lcols, err := fb.item(j.Larg)
	if err != nil {
		return nil, nil, err
	}
	rbase := fb.sc.width
	nref := len(fb.refused)
	if kind == JoinRight || kind == JoinFull {
		fb.refused = append(fb.refused, [2]int{ltables, len(fb.sc.tables)})
	}
	r, rcols, err := fb.item(j.Rarg)
	fb.refused = fb.refused[:nref]
	if err != nil {
		return nil, nil, err
	}
	node := &JoinNode{Kind: kind, L: l, R: r}
	var using []string
	for _, u := range j.UsingClause {
		using = append(using, u.GetString_().GetSval())
	}
	if j.IsNatural {
		for _, lc := range lcols {
			for _, rc := range rcols {
				if lc.name == rc.name {
					using = append(using, lc.name)
					break
				}
			}
		}
	}
	savedSc := b.sc
	defer func() { b.sc = savedSc }()
	b.sc = &scope{tables: fb.sc.tables, exposed: append(append([]scopeCol(nil), lcols...), rcols...), width: fb.sc.width}
	if j.Quals != nil {
		on, err := b.condition(j.Quals, "JOIN conditions", "JOIN/ON")
		if err != nil {
			return nil, nil, err
		}
		node.On = on
		if kind == JoinFull && !fullJoinable(on, lbase, rbase, fb.sc.width) {
			return nil, nil, pgerr.New(pgerr.FeatureNotSupported, "FULL JOIN is only supported with merge-joinable or hash-joinable join conditions")
		}
		return node, b.sc.exposed, nil
	}
	if len(using) == 0 {
		return node, b.sc.exposed, nil
	}
	var merged []scopeCol
	var conds []Expr
	used := map[string]bool{}
	for _, name := range using {
		if used[name] {
			return nil, nil, pgerr.New(pgerr.Code("42701"), "column name \"%s\" appears more than once in USING clause", name)
		}
		used[name] = true
		le, err := b.usingCol(lcols, name, "left")
		if err != nil {
			return nil, nil, err
		}
		re, err := b.usingCol(rcols, name, "right")
		if err != nil {
			return nil, nil, err
		}
		ct, ok := commonType(le.Type(), re.Type())
		if !ok {
			return nil, nil, pgerr.New(pgerr.DatatypeMismatch, "JOIN/USING types %s and %s cannot be matched", baseName(le.Type()), baseName(re.Type()))
		}
		cond, err := b.binary("=", le, re, -1)
		if err != nil {
			return nil, nil, err
		}
		conds = append(conds, cond)
		var m Expr
		switch kind {
		case JoinRight:
			m, err = b.castTo(re, ct, -1)
		case JoinFull:
			var lc, rc Expr
			if lc, err = b.castTo(le, ct, -1); err == nil {
				if rc, err = b.castTo(re, ct, -1); err == nil {
					m = &Coalesce{Args: []Expr{lc, rc}, T: ct}
				}
			}
		default:
			m, err = b.castTo(le, ct, -1)
		}
		if err != nil {
			return nil, nil, err
		}
		merged = append(merged, scopeCol{name: name, e: m})
	}
	node.On = AndAll(conds)
	for _, c := range lcols {
		if !used[c.name] {
			merged = append(merged, c)
		}
	}
	for _, c := range rcols {
		if !used[c.name] {
			merged = append(merged, c)
		}
	}
	return node, merged, nil
}

// fullJoinable reports whether every conjunct of on that reads both sides
// of a FULL JOIN (left slots [lbase, rbase), right [rbase, end)) is an
// equality, as PostgreSQL's planner requires.
func fullJoinable(on Expr, lbase, rbase, end int) bool {
	var conj []Expr
	var split func(e Expr)
	split = func(e Expr) {
		if a, ok := e.(*BoolOp); ok && a.Op == "AND" {
			for _, x := range a.Args {
				split(x)
			}
			return
		}
		conj = append(conj, e)
	}
	split(on)
	for _, c := range conj {
		left, right := false, false
		Walk(c, func(x Expr) {
			if r, ok := x.(*ColRef); ok {
				left = left || (r.Idx >= lbase && r.Idx < rbase)
				right = right || (r.Idx >= rbase && r.Idx < end)
			}
		})
		if cmp, ok := c.(*Cmp); left && right && (!ok || cmp.Op != "=") {
			return false
		}
	}
	return true
}

// usingCol finds the one column name of a join side for USING.
func (b *binder) usingCol(cols []scopeCol, name, side string) (Expr, error) {
	var e Expr
	for _, c := range cols {
		if c.name == name {
			if e != nil {
				return nil, pgerr.New(pgerr.AmbiguousColumn, "common column name \"%s\" appears more than once in %s table", name, side)
			}
			e = b.useCol(c)
		}
	}
	if e == nil {
		return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" specified in USING clause does not exist in %s table", name, side)
	}
	return e, nil
}

// subselect binds a subquery in FROM. It sees the enclosing queries and,
// with LATERAL, the FROM items before it (as an enclosing query's row: the
// executor runs it again for each of their rows).
func (fb *fromBuilder) subselect(rs *pg_query.RangeSubselect, base int) (*JoinNode, []scopeCol, error) {
	b := fb.b
	sel := rs.Subquery.GetSelectStmt()
	if sel == nil {
		return nil, nil, pgerr.New(pgerr.FeatureNotSupported, "this subquery in FROM is not supported")
	}
	if rs.Alias == nil {
		return nil, nil, b.errAt(openParen(b.query, sel), pgerr.SyntaxError, "subquery in FROM must have an alias").
			WithHint("For example, FROM (SELECT ...) [AS] foo.")
	}
	savedSc, savedAgg, savedErr, savedVirt, savedSRF := b.sc, b.agg, b.aggErr, b.allowVirtual, b.srfOK
	lateral, savedHL := false, b.hiddenLateral
	if rs.Lateral {
		b.outer = append(b.outer, outerScope{sc: fb.lateralScope(), correlated: &lateral})
		b.hiddenLateral = true
	}
	sub, err := b.selectStmt(sel)
	if rs.Lateral {
		b.outer = b.outer[:len(b.outer)-1]
	}
	b.hiddenLateral = savedHL
	b.sc, b.agg, b.aggErr, b.allowVirtual, b.srfOK = savedSc, savedAgg, savedErr, savedVirt, savedSRF
	if err != nil {
		return nil, nil, err
	}
	cols := make([]scopeCol, sub.NVisible)
	for i := range cols {
		name := sub.Columns[i].Name
		cols[i] = scopeCol{name: name, e: &ColRef{Idx: base + i, T: sub.Targets[i].Type(), Name: name}}
	}
	if err := fb.aliasCols(cols, rs.Alias); err != nil {
		return nil, nil, err
	}
	st := scopeTable{alias: rs.Alias.Aliasname, base: base, cols: cols}
	shared := 0
	if id, ok := b.cteShared[sel]; ok && !lateral && len(b.outer) == 0 && len(b.workTables) == 0 {
		// The statement's own FROM: one evaluation for every reference
		// (not in a recursive term, which runs again every round).
		shared = id
	}
	return fb.leaf(FromTable{Sub: sub, Lateral: lateral, Shared: shared, Base: base, Width: len(cols)}, st)
}

// function binds a function in FROM: a set-returning function or a scalar
// one (one row). Its arguments may read the FROM items before it, as
// PostgreSQL's implicit LATERAL for functions allows. Without a column
// alias its column is named after the alias, else after the function.
func (fb *fromBuilder) function(rf *pg_query.RangeFunction, base int) (*JoinNode, []scopeCol, error) {
	b := fb.b
	if rf.IsRowsfrom || len(rf.Functions) != 1 {
		return nil, nil, pgerr.New(pgerr.FeatureNotSupported, "ROWS FROM is not supported")
	}
	items := rf.Functions[0].GetList().GetItems()
	if len(items) == 0 || items[0].GetFuncCall() == nil {
		return nil, nil, pgerr.New(pgerr.FeatureNotSupported, "this function in FROM is not supported")
	}
	if len(items) > 1 && items[1] != nil && items[1].GetList() != nil {
		return nil, nil, pgerr.New(pgerr.FeatureNotSupported, "column definition lists are not supported")
	}
	fc := items[0].GetFuncCall()
	if len(rf.Coldeflist) > 0 {
		// No function of minipg's returns record without OUT columns.
		return nil, nil, b.errAt(rf.Coldeflist[0].GetColumnDef().GetLocation(), pgerr.SyntaxError,
			"a column definition list is only allowed for functions returning \"record\"")
	}
	name := opName(fc.Funcname)
	savedSc, savedAgg, savedErr, savedSRF, savedHL := b.sc, b.agg, b.aggErr, b.srfOK, b.hiddenLateral
	b.sc = fb.lateralScope()
	b.agg, b.aggErr, b.srfOK, b.hiddenLateral = nil, fromFunctions, true, true
	call, err := b.funcCall(fc)
	b.sc, b.agg, b.aggErr, b.srfOK, b.hiddenLateral = savedSc, savedAgg, savedErr, savedSRF, savedHL
	if err != nil {
		return nil, nil, err
	}
	srf, ok := call.(*SRFCall)
	if !ok {
		if in := findSRF(call); in != nil {
			return nil, nil, b.errAt(in.Loc, pgerr.FeatureNotSupported, "set-returning functions must appear at top level of FROM")
		}
		srf = &SRFCall{Args: []Expr{call}, T: call.Type()}
	}
	if srf.T.OID == types.Unknown {
		srf.T = types.TText
	}
	alias, colName := name, name
	if rf.Alias != nil {
		alias, colName = rf.Alias.Aliasname, rf.Alias.Aliasname
	}
	if srf.OutName != "" {
		colName = srf.OutName
	}
	cols := []scopeCol{{name: colName, e: &ColRef{Idx: base, T: srf.T, Name: colName}}}
	if srf.Table != nil {
		cols = cols[:0]
		for i, tc := range srf.Table.Cols {
			cols = append(cols, scopeCol{name: tc.Name, e: &ColRef{Idx: base + i, T: tc.T, Name: tc.Name}})
		}
	}
	if rf.Ordinality {
		cols = append(cols, scopeCol{name: "ordinality", e: &ColRef{Idx: base + len(cols), T: types.TInt8, Name: "ordinality"}})
	}
	if err := fb.aliasCols(cols, rf.Alias); err != nil {
		return nil, nil, err
	}
	st := scopeTable{alias: alias, base: base, cols: cols}
	return fb.leaf(FromTable{Func: srf, Ordinality: rf.Ordinality, Base: base, Width: len(cols)}, st)
}

// table resolves a table name: a table of the catalog, else (where
// allowed) a virtual table: a system view or one of PostgreSQL's system
// catalogs (pg_catalog.pg_class, information_schema.tables, ...).
func (b *binder) table(rv *pg_query.RangeVar) (*catalog.Table, error) {
	switch rv.Schemaname {
	case "", "public", "pg_catalog", "information_schema":
	default:
		return nil, b.errAt(rv.Location, pgerr.UndefinedTable, "relation \"%s.%s\" does not exist", rv.Schemaname, rv.Relname)
	}
	qualified := rv.Schemaname + "." + rv.Relname
	if rv.Schemaname == "information_schema" {
		if v := lookupVirtual(qualified); v != nil && b.allowVirtual {
			return v.Table, nil
		}
		return nil, b.errAt(rv.Location, pgerr.UndefinedTable, "relation \"%s\" does not exist", qualified)
	}
	if rv.Schemaname != "pg_catalog" {
		if t, ok := b.cat.Table(rv.Relname); ok {
			return t, nil
		}
	}
	if v := lookupVirtual(rv.Relname); v != nil && b.allowVirtual {
		return v.Table, nil
	}
	if rv.Schemaname != "pg_catalog" {
		if _, ok := b.view(rv); ok {
			return nil, b.notAView(rv, "")
		}
	}
	if rv.Schemaname != "" {
		return nil, b.errAt(rv.Location, pgerr.UndefinedTable, "relation \"%s\" does not exist", qualified)
	}
	err := b.errAt(rv.Location, pgerr.UndefinedTable, "relation \"%s\" does not exist", rv.Relname)
	if b.hiddenCTERefs[rv] {
		err = err.WithDetail("There is a WITH item named \"%s\", but it cannot be referenced from this part of the query.", rv.Relname).
			WithHint("Use WITH RECURSIVE, or re-order the WITH items to remove forward references.")
	}
	return nil, err
}

// openParen is the offset of the parenthesis that opens subquery sel: the
// last '(' before its first target (-1 if not found).
func openParen(query string, sel *pg_query.SelectStmt) int32 {
	if len(sel.TargetList) == 0 {
		return -1
	}
	loc := int(sel.TargetList[0].GetResTarget().Location)
	for i := loc - 1; i >= 0 && i < len(query); i-- {
		if query[i] == '(' {
			return int32(i)
		}
	}
	return -1
}
