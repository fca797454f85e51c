package sql

import (
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/types"
)

// Views. CREATE VIEW binds its query once, to check it and to learn its
// output columns and the relations it reads, and stores the query as SQL
// text (pg_query's deparse of the statement as written). A reference to
// the view in FROM parses and binds that text again in place of the
// reference, as a subquery in FROM with the view's name as its alias and
// the view's column names: PostgreSQL's rewriter does the same with the
// view's stored query tree. INSERT, UPDATE and DELETE on an automatically
// updatable view change its base table (bind_viewdml.go); WITH CHECK
// OPTION and the security options are refused (0A000).

// ViewCatalog is what binding needs from the catalog for views; a Catalog
// that does not implement it has none.
type ViewCatalog interface {
	View(name string) (*catalog.View, bool)
}

// CreateView is a bound CREATE [OR REPLACE] VIEW.
type CreateView struct {
	Def     catalog.View // Name, Columns, Query and Relations
	Replace bool
}

// DropView is a bound DROP VIEW.
type DropView struct {
	Names    []string
	IfExists bool
	Cascade  bool
}

func (*CreateView) stmt() {}
func (*DropView) stmt()   {}

// view returns the view rv names, if the catalog has views and one is
// called so (only in schema public or unqualified).
func (b *binder) view(rv *pg_query.RangeVar) (*catalog.View, bool) {
	vc, ok := b.cat.(ViewCatalog)
	if !ok || rv.Schemaname != "" && rv.Schemaname != "public" {
		return nil, false
	}
	return vc.View(rv.Relname)
}

// noteRelation records that the statement reads relation oid, for a
// view's dependencies.
func (b *binder) noteRelation(oid uint32) {
	if b.deps != nil {
		b.deps[oid] = true
	}
}

// createView binds CREATE [OR REPLACE] VIEW.
func (b *binder) createView(s *pg_query.ViewStmt) (*CreateView, error) {
	rv := s.View
	if rv.Relpersistence == "t" {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "temporary views are not supported")
	}
	if rv.Schemaname != "" && rv.Schemaname != "public" {
		return nil, b.errAt(rv.Location, pgerr.Code("3F000"), "schema \"%s\" does not exist", rv.Schemaname)
	}
	if len(s.Options) > 0 {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "view options are not supported")
	}
	sel := s.Query.GetSelectStmt()
	if sel == nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "this view query is not supported")
	}
	if sel.IntoClause != nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "views must not contain SELECT INTO")
	}
	// The text is taken before binding, which rewrites the tree (CTEs).
	text, err := pg_query.Deparse(&pg_query.ParseResult{Stmts: []*pg_query.RawStmt{{Stmt: s.Query}}})
	if err != nil {
		return nil, pgerr.New(pgerr.InternalError, "cannot deparse view query: %v", err)
	}
	b.deps = map[uint32]bool{}
	if err := b.inlineCTEs(s.Query); err != nil {
		return nil, err
	}
	q, err := b.selectStmt(sel)
	if err != nil {
		return nil, err
	}
	if len(b.params) > 0 {
		return nil, pgerr.New(pgerr.UndefinedParameter, "there is no parameter $1")
	}
	names := make([]string, q.NVisible)
	for i := range names {
		names[i] = q.Columns[i].Name
	}
	if len(s.Aliases) > len(names) {
		return nil, pgerr.New(pgerr.SyntaxError, "CREATE VIEW specifies more column names than columns")
	}
	for i, a := range s.Aliases {
		names[i] = a.GetString_().GetSval()
	}
	def := catalog.View{Name: rv.Relname, Query: text}
	for i, n := range names {
		if slices.Contains(names[:i], n) {
			return nil, pgerr.New(pgerr.DuplicateColumn, "column \"%s\" specified more than once", n)
		}
		t := q.Targets[i].Type()
		if t.OID == types.Unknown {
			t = types.TText
		}
		def.Columns = append(def.Columns, catalog.Column{Name: n, TypeOID: uint32(t.OID), Typmod: t.Typmod})
	}
	for oid := range b.deps {
		def.Relations = append(def.Relations, oid)
	}
	slices.Sort(def.Relations)
	b.deps = nil
	switch s.WithCheckOption {
	case pg_query.ViewCheckOption_LOCAL_CHECK_OPTION:
		def.CheckOption = "local"
	case pg_query.ViewCheckOption_CASCADED_CHECK_OPTION:
		def.CheckOption = "cascaded"
	}
	if def.CheckOption != "" {
		// Only an automatically updatable view can check its new rows.
		if _, err := b.updatableView(&def, "insert into"); err != nil {
			var hint string
			if pe, ok := err.(*pgerr.Error); ok {
				hint = pe.Detail
			}
			return nil, pgerr.New(pgerr.FeatureNotSupported, "WITH CHECK OPTION is supported only on automatically updatable views").
				WithHint("%s", hint)
		}
	}
	return &CreateView{Def: def, Replace: s.Replace}, nil
}

// dropView binds DROP VIEW [IF EXISTS] names [CASCADE].
func (b *binder) dropView(s *pg_query.DropStmt) (*DropView, error) {
	names, err := dropNames(s)
	if err != nil {
		return nil, err
	}
	return &DropView{Names: names, IfExists: s.MissingOk, Cascade: s.Behavior == pg_query.DropBehavior_DROP_CASCADE}, nil
}

// viewRef binds a reference to view v in FROM: its stored query, bound on
// its own (it sees no enclosing query), becomes a subquery in FROM named
// after the view or the reference's alias.
func (fb *fromBuilder) viewRef(v *catalog.View, rv *pg_query.RangeVar, base int) (*JoinNode, []scopeCol, error) {
	b := fb.b
	sub, err := b.bindView(v)
	if err != nil {
		return nil, nil, err
	}
	cols := make([]scopeCol, len(v.Columns))
	for i, c := range v.Columns {
		cols[i] = scopeCol{name: c.Name, e: &ColRef{Idx: base + i, T: sub.Targets[i].Type(), Name: c.Name}}
	}
	if err := fb.aliasCols(cols, rv.Alias); err != nil {
		return nil, nil, err
	}
	alias := v.Name
	if rv.Alias != nil && rv.Alias.Aliasname != "" {
		alias = rv.Alias.Aliasname
	}
	st := scopeTable{alias: alias, base: base, cols: cols}
	return fb.leaf(FromTable{Sub: sub, Base: base, Width: len(cols)}, st)
}

// bindView parses and binds view v's query with a binder state of its
// own, then checks that its output still matches the view's columns.
func (b *binder) bindView(v *catalog.View) (*Select, error) {
	if slices.Contains(b.viewStack, v.OID) {
		// CREATE OR REPLACE VIEW can make a view read itself, as in
		// PostgreSQL, whose rewriter fails so when the view is used.
		return nil, pgerr.New(pgerr.Code("42P17"), "infinite recursion detected in rules for relation \"%s\"", v.Name)
	}
	tree, err := pg_query.Parse(v.Query)
	if err != nil || len(tree.Stmts) != 1 || tree.Stmts[0].Stmt.GetSelectStmt() == nil {
		return nil, pgerr.New(pgerr.InternalError, "view \"%s\" has a bad stored query", v.Name)
	}
	n := tree.Stmts[0].Stmt
	saved := *b
	b.query, b.outer, b.cteRefs, b.cteAliases, b.deps, b.colDeps = v.Query, nil, nil, nil, nil, nil
	b.viewStack = append(slices.Clip(b.viewStack), v.OID)
	b.insertSource, b.noSubquery = false, ""
	sub, err := func() (*Select, error) {
		if err := b.inlineCTEs(n); err != nil {
			return nil, err
		}
		return b.selectStmt(n.GetSelectStmt())
	}()
	shared, params, seen := b.cteShared, b.params, b.paramSeen
	*b = saved
	b.cteShared, b.params, b.paramSeen = shared, params, seen
	if err != nil {
		return nil, err
	}
	if sub.NVisible != len(v.Columns) {
		return nil, pgerr.New(pgerr.Code("42P16"), "view \"%s\" no longer matches its definition: %d columns instead of %d", v.Name, sub.NVisible, len(v.Columns))
	}
	for i, c := range v.Columns {
		t := sub.Targets[i].Type()
		if t.OID == types.Unknown {
			t = types.TText
		}
		if uint32(t.OID) != c.TypeOID {
			return nil, pgerr.New(pgerr.Code("42P16"), "view \"%s\" no longer matches its definition: column \"%s\" has type %s", v.Name, c.Name, types.T{OID: types.OID(c.TypeOID), Typmod: c.Typmod})
		}
	}
	return sub, nil
}

// ColumnDep is a column of a table that a view reads: the view must go
// with it (DROP COLUMN ... CASCADE), and its type cannot change.
type ColumnDep struct {
	Table  uint32
	AttNum int16 // 1-based
}

// ViewColumnDeps binds view v's stored query against cat and returns the
// table columns the query itself reads (by name, through * or in JOIN ...
// USING), as PostgreSQL's column dependencies of the view's rule: the
// columns the views it reads read are theirs, not v's.
func ViewColumnDeps(cat Catalog, v *catalog.View) (map[ColumnDep]bool, error) {
	tree, err := pg_query.Parse(v.Query)
	if err != nil || len(tree.Stmts) != 1 || tree.Stmts[0].Stmt.GetSelectStmt() == nil {
		return nil, pgerr.New(pgerr.InternalError, "view \"%s\" has a bad stored query", v.Name)
	}
	n := tree.Stmts[0].Stmt
	b := &binder{cat: cat, query: v.Query, viewStack: []uint32{v.OID}, colDeps: map[ColumnDep]bool{}}
	if err := b.inlineCTEs(n); err != nil {
		return nil, err
	}
	if _, err := b.selectStmt(n.GetSelectStmt()); err != nil {
		return nil, err
	}
	return b.colDeps, nil
}

// notAView fails a statement that needs a table when rv names a view, with
// PostgreSQL's error for it (what: "insert into", "update", ...).
func (b *binder) notAView(rv *pg_query.RangeVar, what string) error {
	v, ok := b.view(rv)
	if !ok {
		return nil
	}
	switch what {
	case "copy from":
		return pgerr.New(pgerr.WrongObjectType, "cannot copy from view \"%s\"", v.Name).
			WithHint("Try the COPY (SELECT ...) TO variant.")
	case "copy to":
		return pgerr.New(pgerr.WrongObjectType, "cannot copy to view \"%s\"", v.Name).
			WithHint("To enable copying to a view, provide an INSTEAD OF INSERT trigger.")
	case "create index":
		return pgerr.New(pgerr.WrongObjectType, "cannot create index on relation \"%s\"", v.Name).
			WithDetail("This operation is not supported for views.")
	}
	return pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a table", v.Name)
}

// viewTarget fails a statement whose target relation is a view where
// minipg needs a table: INSERT, UPDATE, DELETE, COPY and CREATE INDEX.
func (b *binder) viewTarget(n *pg_query.Node) error {
	switch {
	case n.GetCopyStmt() != nil && n.GetCopyStmt().Relation != nil:
		if n.GetCopyStmt().IsFrom {
			return b.notAView(n.GetCopyStmt().Relation, "copy to")
		}
		return b.notAView(n.GetCopyStmt().Relation, "copy from")
	case n.GetIndexStmt() != nil:
		return b.notAView(n.GetIndexStmt().Relation, "create index")
	}
	return nil
}
