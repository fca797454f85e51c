package sql

// GROUP BY GROUPING SETS, ROLLUP and CUBE, and GROUPING().
//
// The GROUP BY clause is expanded into grouping sets as PostgreSQL's
// expand_grouping_sets does: a plain expression is the one set holding it,
// () the empty set, ROLLUP (a, b) the sets (a, b), (a) and (), CUBE (a, b)
// every subset, GROUPING SETS the sets of its items one after the other,
// and the items of the clause combine as a cross product (GROUP BY a,
// ROLLUP (b) is (a, b) and (a)). Every distinct expression becomes one
// entry of Select.Group; a set lists the entries it groups by. GROUP BY
// DISTINCT drops repeated sets. The executor groups each scan row once per
// set (aggIter), the keys the set lacks NULL, and a hidden last key, the
// GroupingSetID, tells the sets' rows apart for GROUPING().

import (
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/pgerr"
)

// maxGroupingSets is PostgreSQL's limit on the expanded sets.
const maxGroupingSets = 4096

// hasGroupingSet reports whether GROUP BY uses GROUPING SETS, ROLLUP, CUBE
// or ().
func hasGroupingSet(clause []*pg_query.Node) bool {
	for _, n := range clause {
		if n.GetGroupingSet() != nil {
			return true
		}
	}
	return false
}

// groupingSets binds the items of a GROUP BY clause with grouping sets
// into out.Group and out.GroupingSets; key binds one expression and
// returns its index in out.Group (an equal expression's, if bound
// before).
func (b *binder) groupingSets(s *pg_query.SelectStmt, key func(n *pg_query.Node) (int, error), out *Select) error {
	sets := [][]int{{}}
	for _, item := range s.GroupClause {
		part, err := b.expandGroupItem(item, key, false)
		if err != nil {
			return err
		}
		var next [][]int
		for _, a := range sets {
			for _, p := range part {
				next = append(next, unionSet(a, p))
				if len(next) > maxGroupingSets {
					return pgerr.New(pgerr.StatementTooComplex, "too many grouping sets present (maximum %d)", maxGroupingSets)
				}
			}
		}
		sets = next
	}
	if s.GroupDistinct {
		var kept [][]int
		for _, set := range sets {
			if !slices.ContainsFunc(kept, func(k []int) bool { return slices.Equal(k, set) }) {
				kept = append(kept, set)
			}
		}
		sets = kept
	}
	out.GroupingSets = sets
	out.Group = append(out.Group, &GroupingSetID{})
	return nil
}

// expandGroupItem expands one item of GROUP BY, or (nested) of GROUPING
// SETS' content, into its grouping sets.
func (b *binder) expandGroupItem(n *pg_query.Node, key func(n *pg_query.Node) (int, error), nested bool) ([][]int, error) {
	gs := n.GetGroupingSet()
	if items, ok := implicitRow(n); ok && nested {
		set, err := b.simpleSet(items, key)
		return [][]int{set}, err
	}
	if gs == nil {
		i, err := key(n)
		if err != nil {
			return nil, err
		}
		return [][]int{{i}}, nil
	}
	switch gs.Kind {
	case pg_query.GroupingSetKind_GROUPING_SET_EMPTY:
		return [][]int{{}}, nil
	case pg_query.GroupingSetKind_GROUPING_SET_SIMPLE:
		set, err := b.simpleSet(gs.Content, key)
		return [][]int{set}, err
	case pg_query.GroupingSetKind_GROUPING_SET_ROLLUP, pg_query.GroupingSetKind_GROUPING_SET_CUBE:
		// The elements: a parenthesized list counts as one.
		elems := make([][]int, len(gs.Content))
		for i, c := range gs.Content {
			var err error
			if inner := c.GetGroupingSet(); inner != nil && inner.Kind == pg_query.GroupingSetKind_GROUPING_SET_SIMPLE {
				elems[i], err = b.simpleSet(inner.Content, key)
			} else if items, ok := implicitRow(c); ok {
				elems[i], err = b.simpleSet(items, key)
			} else {
				elems[i], err = b.simpleSet([]*pg_query.Node{c}, key)
			}
			if err != nil {
				return nil, err
			}
		}
		var sets [][]int
		if gs.Kind == pg_query.GroupingSetKind_GROUPING_SET_ROLLUP {
			for k := len(elems); k >= 0; k-- {
				var set []int
				for _, e := range elems[:k] {
					set = unionSet(set, e)
				}
				sets = append(sets, set)
			}
			return sets, nil
		}
		if len(elems) > 12 {
			return nil, b.errAt(gs.Location, pgerr.Code("54011"), "CUBE is limited to 12 elements")
		}
		for mask := (1 << len(elems)) - 1; mask >= 0; mask-- {
			var set []int
			for i, e := range elems {
				if mask&(1<<(len(elems)-1-i)) != 0 {
					set = unionSet(set, e)
				}
			}
			sets = append(sets, set)
		}
		return sets, nil
	}
	// GROUPING SETS (...): each item's sets in turn.
	var sets [][]int
	for _, c := range gs.Content {
		part, err := b.expandGroupItem(c, key, true)
		if err != nil {
			return nil, err
		}
		sets = append(sets, part...)
	}
	return sets, nil
}

// simpleSet binds a parenthesized list of expressions into one set.
func (b *binder) simpleSet(list []*pg_query.Node, key func(n *pg_query.Node) (int, error)) ([]int, error) {
	var set []int
	for _, n := range list {
		if n.GetGroupingSet() != nil {
			return nil, b.errAt(n.GetGroupingSet().Location, pgerr.SyntaxError, "syntax error at or near \"(\"")
		}
		i, err := key(n)
		if err != nil {
			return nil, err
		}
		set = unionSet(set, []int{i})
	}
	return set, nil
}

// unionSet returns the sorted union of two sets of key indexes.
func unionSet(a, b []int) []int {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}

// groupingFunc binds GROUPING(args) over the scan row; toGroupRow
// resolves it once GROUP BY is known.
func (b *binder) groupingFunc(g *pg_query.GroupingFunc) (Expr, error) {
	if b.agg == nil {
		clause := b.aggErr
		if clause == "" {
			clause = "this context"
		}
		return nil, b.errAt(g.Location, pgerr.GroupingError, "grouping operations are not allowed in %s", clause)
	}
	if len(g.Args) > 31 {
		return nil, b.errAt(g.Location, pgerr.Code("54023"), "GROUPING must have fewer than 32 arguments")
	}
	out := &GroupingFunc{}
	for _, a := range g.Args {
		e, err := b.expr(a)
		if err != nil {
			return nil, err
		}
		out.Args = append(out.Args, e)
		out.argLocs = append(out.argLocs, exprLocation(a))
	}
	return out, nil
}

// notGrouped is the error for GROUPING's argument i, not a key of GROUP
// BY.
func (g *GroupingFunc) notGrouped(b *binder, i int) error {
	return b.errAt(g.argLocs[i], pgerr.GroupingError, "arguments to GROUPING must be grouping expressions of the associated query level")
}

// implicitRow returns the items of n if it is a parenthesized list, (a,
// b), which in a grouping set is one set of keys, as in PostgreSQL's
// flatten_grouping_sets.
func implicitRow(n *pg_query.Node) ([]*pg_query.Node, bool) {
	r := n.GetRowExpr()
	if r == nil || r.RowFormat != pg_query.CoercionForm_COERCE_IMPLICIT_CAST {
		return nil, false
	}
	return r.Args, true
}

// resolveGrouping rewrites GROUPING(args) over the scan row into its form
// over s's group row: each argument must be a key of GROUP BY.
func (b *binder) resolveGrouping(g *GroupingFunc, s *Select) (Expr, error) {
	out := &GroupingFunc{argLocs: g.argLocs}
	idx := make([]int, len(g.Args))
	for i, a := range g.Args {
		k := exprKey(a)
		idx[i] = slices.IndexFunc(s.Group, func(x Expr) bool { return exprKey(x) == k })
		if idx[i] < 0 {
			return nil, g.notGrouped(b, i)
		}
		out.Args = append(out.Args, &ColRef{Idx: idx[i], T: a.Type(), Name: colName(a)})
	}
	if s.GroupingSets == nil {
		out.Values = []int32{0}
		return out, nil
	}
	out.Set = &ColRef{Idx: len(s.Group) - 1, T: (&GroupingSetID{}).Type(), Name: "grouping"}
	for _, set := range s.GroupingSets {
		var v int32
		for _, i := range idx {
			v <<= 1
			if !slices.Contains(set, i) {
				v |= 1
			}
		}
		out.Values = append(out.Values, v)
	}
	return out, nil
}
