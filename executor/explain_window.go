package executor

import (
	"strings"

	"minipg/sql"
)

// windowNode describes the window stage as PostgreSQL's plan shows it: a
// WindowAgg per window, in the order they are evaluated, each over a Sort
// (or Incremental Sort) by its PARTITION BY and ORDER BY unless the rows
// are already in that order. With ANALYZE the inner nodes show the figures of the stage's
// input (they hand on every row).
func (e *explainer) windowNode(it *windowIter) *planNode {
	child := e.describe(&it.in)
	steps := windowSortSteps(it.st)
	for i := range it.st.Windows {
		if s := steps[i]; s.sort {
			keys := make([]string, len(s.keys))
			for j, k := range s.keys {
				keys[j] = e.windowKey(it.st, k.x) + sortSuffix(sql.SortKey{Desc: k.desc, NullsFirst: k.nullsFirst})
			}
			n := &planNode{name: "Sort", props: []string{"Sort Key: " + strings.Join(keys, ", ")},
				children: []*planNode{child}, st: child.st}
			if s.presorted > 0 {
				n.name = "Incremental Sort"
				n.props = append(n.props, "Presorted Key: "+strings.Join(keys[:s.presorted], ", "))
			}
			child = n
		}
		n := &planNode{name: "WindowAgg", children: []*planNode{child}}
		if i < len(it.st.Windows)-1 {
			n.st = child.st
		}
		child = n
	}
	return child
}

// windowKey deparses a window's key; in an aggregate query it reads the
// group row, whose slots are shown as the GROUP BY expression or, for an
// aggregate's result, as the call in parentheses.
func (e *explainer) windowKey(st *sql.Select, x sql.Expr) string {
	if !st.Grouped {
		return e.deparse(x)
	}
	return e.deparse(sql.Rewrite(x, func(y sql.Expr) (sql.Expr, bool) {
		c, ok := y.(*sql.ColRef)
		switch {
		case !ok:
			return nil, false
		case c.Idx < len(st.Group):
			return st.Group[c.Idx], true
		case c.Idx < len(st.Group)+len(st.Aggs):
			a := st.Aggs[c.Idx-len(st.Group)]
			arg := "*"
			if a.Arg != nil {
				arg = e.deparse(a.Arg)
			}
			return &sql.ColRef{Name: "(" + a.Name + "(" + arg + "))", T: a.T}, true
		}
		return nil, false
	}))
}

// sortSuffix is how EXPLAIN writes a sort key's direction.
func sortSuffix(k sql.SortKey) string {
	if k.Desc {
		if !k.NullsFirst {
			return " DESC NULLS LAST"
		}
		return " DESC"
	}
	if k.NullsFirst {
		return " NULLS FIRST"
	}
	return ""
}
