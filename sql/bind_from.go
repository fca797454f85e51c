package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/catalog"
	"minipg/pgerr"
)

// fromClause binds FROM: nothing, or tables joined by commas, CROSS JOIN
// or [INNER] JOIN ... ON (the ON conditions are returned, to be ANDed into
// WHERE).
func (b *binder) fromClause(from []*pg_query.Node) ([]*pg_query.Node, error) {
	b.sc = nil
	if len(from) == 0 {
		return nil, nil
	}
	sc := &scope{}
	var quals []*pg_query.Node
	var add func(n *pg_query.Node) error
	add = func(n *pg_query.Node) error {
		switch {
		case n.GetRangeVar() != nil:
			rv := n.GetRangeVar()
			t, err := b.table(rv)
			if err != nil {
				return err
			}
			alias := t.Name
			if rv.Alias != nil && rv.Alias.Aliasname != "" {
				alias = rv.Alias.Aliasname
			}
			base := 0
			for _, st := range sc.tables {
				if st.alias == alias {
					return b.errAt(rv.Location, pgerr.Code("42712"), "table name \"%s\" specified more than once", alias)
				}
				base = st.base + len(st.table.Columns) + 1
			}
			sc.tables = append(sc.tables, scopeTable{table: t, alias: alias, base: base})
			return nil
		case n.GetJoinExpr() != nil:
			j := n.GetJoinExpr()
			left := j.Jointype == pg_query.JoinType_JOIN_LEFT
			if j.Jointype != pg_query.JoinType_JOIN_INNER && !left {
				return pgerr.New(pgerr.FeatureNotSupported, "RIGHT and FULL joins are not supported").
					WithHint("minipg supports inner joins and LEFT JOIN; write a RIGHT JOIN as a LEFT JOIN.")
			}
			if left && j.Rarg.GetRangeVar() == nil {
				return pgerr.New(pgerr.FeatureNotSupported, "the right side of a LEFT JOIN must be a table")
			}
			if j.IsNatural || len(j.UsingClause) > 0 {
				return pgerr.New(pgerr.FeatureNotSupported, "NATURAL JOIN and JOIN ... USING are not supported").
					WithHint("Write the join condition with ON.")
			}
			if j.Alias != nil {
				return pgerr.New(pgerr.FeatureNotSupported, "aliases of joins are not supported")
			}
			if err := add(j.Larg); err != nil {
				return err
			}
			if err := add(j.Rarg); err != nil {
				return err
			}
			if j.Quals != nil {
				if left {
					st := &sc.tables[len(sc.tables)-1]
					st.left, st.on = true, append(st.on, j.Quals)
				} else {
					quals = append(quals, j.Quals)
				}
			}
			if left && j.Quals == nil {
				sc.tables[len(sc.tables)-1].left = true
			}
			return nil
		case n.GetRangeSubselect() != nil:
			return pgerr.New(pgerr.FeatureNotSupported, "subqueries in FROM are not supported")
		case n.GetRangeFunction() != nil:
			return pgerr.New(pgerr.FeatureNotSupported, "functions in FROM are not supported")
		}
		return pgerr.New(pgerr.FeatureNotSupported, "this FROM item is not supported")
	}
	for _, n := range from {
		if err := add(n); err != nil {
			return nil, err
		}
	}
	b.sc = sc
	return quals, nil
}

// table resolves a table name; virtual tables only where allowed, and
// PostgreSQL's catalogs are 0A000 with a hint.
func (b *binder) table(rv *pg_query.RangeVar) (*catalog.Table, error) {
	sysCatalog := func() error {
		name := rv.Relname
		if rv.Schemaname != "" {
			name = rv.Schemaname + "." + name
		}
		return b.errAt(rv.Location, pgerr.FeatureNotSupported, "system catalog \"%s\" is not supported", name).
			WithHint("minipg keeps no PostgreSQL system catalogs: psql's \\d commands and catalog queries do not work.")
	}
	if rv.Schemaname == "information_schema" {
		return nil, sysCatalog()
	}
	if rv.Schemaname != "" && rv.Schemaname != "public" && rv.Schemaname != "pg_catalog" {
		return nil, b.errAt(rv.Location, pgerr.UndefinedTable, "relation \"%s.%s\" does not exist", rv.Schemaname, rv.Relname)
	}
	t, ok := b.cat.Table(rv.Relname)
	if !ok {
		if v := lookupVirtual(rv.Relname); v != nil && b.allowVirtual {
			return v.Table, nil
		}
		if rv.Schemaname == "pg_catalog" || pgCatalogNames[rv.Relname] {
			return nil, sysCatalog()
		}
		return nil, b.errAt(rv.Location, pgerr.UndefinedTable, "relation \"%s\" does not exist", rv.Relname)
	}
	return t, nil
}

// pgCatalogNames are PostgreSQL catalogs and system views that clients
// (psql's \d, drivers, tools) query by their unqualified names.
var pgCatalogNames = map[string]bool{
	"pg_class": true, "pg_namespace": true, "pg_attribute": true, "pg_type": true, "pg_index": true,
	"pg_database": true, "pg_tables": true, "pg_indexes": true, "pg_settings": true, "pg_roles": true,
	"pg_user": true, "pg_proc": true, "pg_am": true, "pg_constraint": true, "pg_description": true,
	"pg_views": true, "pg_locks": true, "pg_stat_activity": true, "pg_stat_user_tables": true,
	"pg_attrdef": true, "pg_inherits": true, "pg_extension": true, "pg_collation": true,
}
