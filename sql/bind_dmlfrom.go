package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/catalog"
	"minipg/pgerr"
)

// UPDATE ... FROM and DELETE ... USING: the statement's FROM (USING) list
// is bound as SELECT's FROM clause is (fromBuilder), then the target table
// is joined to it, by WHERE alone, as PostgreSQL does. The target is in
// scope for SET, WHERE and RETURNING, but not for the FROM items
// themselves, not even LATERAL ones (b.hidden gives PostgreSQL's errors
// for a reference to it there); a FROM item named like the target is
// 42712. Its columns come first in RETURNING *, then those of the FROM
// items.

// dmlFrom binds the FROM items of UPDATE ... FROM or DELETE ... USING,
// joins target table t (under alias) to them and leaves the joined scope
// in b.sc, the target's columns first. The statement's WHERE (where, still
// raw) only decides where the target goes in the row; the caller binds it
// and sets Source.Where.
func (b *binder) dmlFrom(t *catalog.Table, alias string, from []*pg_query.Node, where *pg_query.Node) (*DMLFrom, error) {
	src := &Select{}
	fb := &fromBuilder{b: b, sc: &scope{}, out: src}
	width := len(t.Columns) + 1
	last := joinsIndexedColumn(t, alias, where)
	if !last {
		fb.sc.width = width // the target's slots come first
	}
	target := scopeTable{table: t, alias: alias}
	target.cols = tableCols(t, 0)
	b.hidden, b.allowVirtual = &target, true
	root, err := fb.items(from)
	b.hidden, b.allowVirtual = nil, false
	if err != nil {
		return nil, err
	}
	exposed := fb.sc.exposed
	out := &DMLFrom{Source: src}
	if last {
		target.base = fb.sc.width
		target.cols = tableCols(t, target.base)
		leaf, _, err := fb.leaf(FromTable{Table: t, Base: target.base, Width: width}, target)
		if err != nil {
			return nil, err
		}
		out.Target = leaf.Item
		root = &JoinNode{Kind: JoinInner, L: root, R: leaf}
	} else {
		// Put the target first in From: the other items move up one.
		for _, o := range fb.sc.tables {
			if o.alias == target.alias {
				return nil, pgerr.New(pgerr.Code("42712"), "table name \"%s\" specified more than once", target.alias)
			}
		}
		for i := range target.cols {
			target.cols[i].qual = target.alias
		}
		renumberItems(root)
		src.From = append([]FromTable{{Table: t, Base: 0, Width: width}}, src.From...)
		fb.sc.tables = append([]scopeTable{target}, fb.sc.tables...)
		root = &JoinNode{Kind: JoinInner, L: &JoinNode{Item: 0}, R: root}
	}
	src.Join = root
	b.sc = &scope{tables: fb.sc.tables, exposed: append(append([]scopeCol(nil), target.cols...), exposed...), width: fb.sc.width}
	return out, nil
}

// renumberItems moves the leaves of j one item up.
func renumberItems(j *JoinNode) {
	if j.L == nil {
		j.Item++
		return
	}
	renumberItems(j.L)
	renumberItems(j.R)
}

// joinsIndexedColumn reports whether a top-level conjunct of where is
// col = expr with col a column of the target t (under alias) that leads
// one of its indexes and expr not a constant or parameter: the join the target is
// best looked up by, once per row of the other items.
func joinsIndexedColumn(t *catalog.Table, alias string, where *pg_query.Node) bool {
	if where == nil {
		return false
	}
	if be := where.GetBoolExpr(); be != nil {
		if be.Boolop != pg_query.BoolExprType_AND_EXPR {
			return false
		}
		for _, a := range be.Args {
			if joinsIndexedColumn(t, alias, a) {
				return true
			}
		}
		return false
	}
	ae := where.GetAExpr()
	if ae == nil || ae.Kind != pg_query.A_Expr_Kind_AEXPR_OP || len(ae.Name) != 1 || ae.Name[0].GetString_().GetSval() != "=" {
		return false
	}
	leads := func(n *pg_query.Node) bool {
		cr := n.GetColumnRef()
		if cr == nil {
			return false
		}
		var col string
		switch len(cr.Fields) {
		case 1:
			col = cr.Fields[0].GetString_().GetSval()
		case 2:
			if cr.Fields[0].GetString_().GetSval() != alias {
				return false
			}
			col = cr.Fields[1].GetString_().GetSval()
		default:
			return false
		}
		idx := colIndex(t, col)
		for _, ix := range t.Indexes {
			if idx >= 0 && len(ix.Columns) > 0 && int(ix.Columns[0]) == idx+1 {
				return true
			}
		}
		return false
	}
	readsColumn := func(n *pg_query.Node) bool {
		return n.GetAConst() == nil && n.GetParamRef() == nil && n.GetTypeCast() == nil
	}
	return (leads(ae.Lexpr) && readsColumn(ae.Rexpr)) || (leads(ae.Rexpr) && readsColumn(ae.Lexpr))
}
