package sql

import (
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"minipg/pgerr"
)

// WITH queries (common table expressions), non-recursive ones. Each
// reference to a CTE in a FROM list becomes the CTE's query as a subquery
// in FROM, before binding, as PostgreSQL 12 and later inline a CTE that is
// referenced once and has no side effects. The references to a CTE
// referenced more than once share one evaluation per statement
// (FromTable.Shared), as PostgreSQL materializes such a CTE, so that a
// volatile function in it (random(), nextval()) gives every reference the
// same rows; a reference inside a subquery of the statement still runs the
// CTE on its own.
// WITH RECURSIVE: see cte_recursive.go. INSERT, UPDATE or DELETE inside
// WITH: see with_dml.go. Not supported: SEARCH and CYCLE clauses (0A000).

// inlineCTEs rewrites every WITH clause in the statement n. The copies of
// a CTE referenced more than once are marked (cteShared) so that their
// FROM items read one evaluation, as PostgreSQL materializes such a CTE.
func (b *binder) inlineCTEs(n *pg_query.Node) error {
	if err := b.inlineIn(n.ProtoReflect(), nil); err != nil {
		return err
	}
	for _, refs := range b.cteRefs {
		if len(refs) < 2 {
			continue
		}
		if b.cteShared == nil {
			b.cteShared = map[*pg_query.SelectStmt]int{}
		}
		id := len(b.cteShared) + 1
		for _, q := range refs {
			b.cteShared[q] = id
		}
	}
	return nil
}

// cteEnv maps the CTE names visible at a point of the tree to their
// definitions, innermost last.
type cteEnv []*pg_query.CommonTableExpr

func (env cteEnv) lookup(name string) *pg_query.CommonTableExpr {
	for i := len(env) - 1; i >= 0; i-- {
		if env[i].Ctename == name {
			return env[i]
		}
	}
	return nil
}

// inlineIn walks m: a WITH clause found on the way is taken off its
// statement and its CTEs are visible below it; a FROM item naming a
// visible CTE is replaced.
func (b *binder) inlineIn(m protoreflect.Message, env cteEnv) error {
	if w := withClauseOf(m.Interface()); w != nil && *w != nil {
		with := *w
		env = append(cteEnv(nil), env...)
		var ctes []*pg_query.CommonTableExpr
		for i, c := range with.Ctes {
			cte := c.GetCommonTableExpr()
			if cte == nil {
				return pgerr.New(pgerr.FeatureNotSupported, "this WITH query is not supported")
			}
			if dml := isDML(cte.Ctequery); dml || cte.Ctequery.GetSelectStmt() == nil {
				if err := b.noteWithDML(m.Interface(), cte); err != nil {
					return err
				}
			}
			if cte.SearchClause != nil || cte.CycleClause != nil {
				return pgerr.New(pgerr.FeatureNotSupported, "SEARCH and CYCLE clauses are not supported")
			}
			for _, prev := range with.Ctes[:i] {
				if prev.GetCommonTableExpr().Ctename == cte.Ctename {
					return b.errAt(cte.Location, pgerr.DuplicateAlias, "WITH query name %q specified more than once", cte.Ctename)
				}
			}
			ctes = append(ctes, cte)
		}
		if with.Recursive {
			// Every CTE of the list is visible in all of them: each
			// comes after those it names (cte_recursive.go).
			var err error
			if ctes, err = b.orderRecursiveWith(ctes); err != nil {
				return err
			}
		}
		for i, cte := range ctes {
			// A CTE sees the ones before it. A recursive one names itself
			// as its work table, left for the binder: an outer CTE of the
			// same name is hidden from it.
			inner := env
			if b.recursiveCTE[cte] {
				inner = nil
				for _, o := range env {
					if o.Ctename != cte.Ctename {
						inner = append(inner, o)
					}
				}
			}
			saved := b.hiddenCTENames
			if !with.Recursive {
				for _, later := range ctes[i:] {
					b.hiddenCTENames = append(b.hiddenCTENames, later.Ctename)
				}
			}
			err := b.inlineIn(cte.Ctequery.ProtoReflect(), inner)
			b.hiddenCTENames = saved
			if err != nil {
				return err
			}
			env = append(env, cte)
		}
		*w = nil
	}
	var err error
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			l := v.List()
			for i := 0; i < l.Len() && err == nil; i++ {
				err = b.inlineNode(l.Get(i).Message(), env)
			}
		case fd.Message() != nil && !fd.IsMap():
			err = b.inlineNode(v.Message(), env)
		}
		return err == nil
	})
	return err
}

// inlineNode replaces m, when it is a Node holding a reference to a
// visible CTE, by the CTE's query as a subquery in FROM, and walks it.
func (b *binder) inlineNode(m protoreflect.Message, env cteEnv) error {
	if n, ok := m.Interface().(*pg_query.Node); ok && len(b.hiddenCTENames) > 0 {
		if rv := n.GetRangeVar(); rv != nil && rv.Schemaname == "" && env.lookup(rv.Relname) == nil &&
			slices.Contains(b.hiddenCTENames, rv.Relname) {
			if b.hiddenCTERefs == nil {
				b.hiddenCTERefs = map[*pg_query.RangeVar]bool{}
			}
			b.hiddenCTERefs[rv] = true
		}
	}
	if n, ok := m.Interface().(*pg_query.Node); ok && len(env) > 0 {
		if rv := n.GetRangeVar(); rv != nil && rv.Schemaname == "" && rv.Catalogname == "" {
			if cte := env.lookup(rv.Relname); cte != nil {
				alias := rv.Alias
				if alias == nil {
					alias = &pg_query.Alias{Aliasname: rv.Relname}
				}
				if len(alias.Colnames) == 0 && len(cte.Aliascolnames) > 0 {
					alias = &pg_query.Alias{Aliasname: alias.Aliasname, Colnames: cte.Aliascolnames}
					if b.cteAliases == nil {
						b.cteAliases = map[*pg_query.Alias]*pg_query.CommonTableExpr{}
					}
					b.cteAliases[alias] = cte
				}
				if i := slices.Index(b.withCTEs, cte); i >= 0 {
					// A data-modifying query: the reference reads its
					// RETURNING rows (withRef).
					rv.Relname = withMarker(i+1, cte.Ctename)
					rv.Alias = alias
					return nil
				}
				// The CTE's query is already inlined (its own references
				// replaced); each reference gets a copy.
				q := proto.Clone(cte.Ctequery).(*pg_query.Node)
				if len(b.recursiveQueries) > 0 || len(b.hiddenCTERefs) > 0 {
					// Copies of recursive CTEs already inlined in the
					// query stay recursive in its copy.
					b.copyCTEMarks(cte.Ctequery.ProtoReflect(), q.ProtoReflect())
				}
				n.Node = &pg_query.Node_RangeSubselect{RangeSubselect: &pg_query.RangeSubselect{Subquery: q, Alias: alias}}
				if b.cteRefs == nil {
					b.cteRefs = map[*pg_query.CommonTableExpr][]*pg_query.SelectStmt{}
				}
				b.cteRefs[cte] = append(b.cteRefs[cte], q.GetSelectStmt())
				if b.recursiveCTE[cte] {
					if b.recursiveQueries == nil {
						b.recursiveQueries = map[*pg_query.SelectStmt]*pg_query.CommonTableExpr{}
					}
					b.recursiveQueries[q.GetSelectStmt()] = cte
				}
				return nil
			}
		}
	}
	return b.inlineIn(m, env)
}

// withClauseOf returns the WITH clause field of a statement that can have
// one, or nil.
func withClauseOf(m proto.Message) **pg_query.WithClause {
	switch s := m.(type) {
	case *pg_query.SelectStmt:
		return &s.WithClause
	case *pg_query.InsertStmt:
		return &s.WithClause
	case *pg_query.UpdateStmt:
		return &s.WithClause
	case *pg_query.DeleteStmt:
		return &s.WithClause
	case *pg_query.MergeStmt:
		return &s.WithClause
	}
	return nil
}
