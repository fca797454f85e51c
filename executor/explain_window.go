package executor

import (
	"strings"

	"minipg/sql"
)

// windowNode describes the window stage as PostgreSQL's plan shows it: a
// WindowAgg per window, in the order they are evaluated, each over a Sort
// by its PARTITION BY and ORDER BY unless the rows are already in that
// order. With ANALYZE the inner nodes show the figures of the stage's
// input (they hand on every row).
func (e *explainer) windowNode(it *windowIter) *planNode {
	child := e.describe(&it.in)
	var sorted []string
	for i, w := range it.st.Windows {
		var keys []string
		seen := map[string]bool{}
		add := func(s string) {
			if !seen[s] {
				seen[s] = true
				keys = append(keys, s)
			}
		}
		for _, p := range w.Partition {
			add(e.deparse(p))
		}
		for _, o := range w.Order {
			add(e.deparse(o.X) + sortSuffix(sql.SortKey{Desc: o.Desc, NullsFirst: o.NullsFirst}))
		}
		if len(keys) > 0 && !keyPrefix(keys, sorted) {
			child = &planNode{name: "Sort", props: []string{"Sort Key: " + strings.Join(keys, ", ")},
				children: []*planNode{child}, st: child.st}
			sorted = keys
		}
		n := &planNode{name: "WindowAgg", children: []*planNode{child}}
		if i < len(it.st.Windows)-1 {
			n.st = child.st
		}
		child = n
	}
	return child
}

// keyPrefix reports whether keys lead sorted.
func keyPrefix(keys, sorted []string) bool {
	if len(keys) > len(sorted) {
		return false
	}
	for i, k := range keys {
		if sorted[i] != k {
			return false
		}
	}
	return true
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
