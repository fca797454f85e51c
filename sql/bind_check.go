package sql

import (
	"fmt"
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/reflect/protoreflect"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/types"
)

// CHECK constraints. CREATE TABLE and ALTER TABLE ... ADD bind the
// expression once over the table's columns, to check it, name the
// constraint as PostgreSQL does and keep it as SQL text
// (catalog.Check); the executor binds the text again when it opens the
// table (CheckExprs) and evaluates it on every row INSERT, UPDATE and
// COPY store: false fails the row (23514), NULL passes.

// checkDef is a CHECK constraint as written.
type checkDef struct {
	name      string
	raw       *pg_query.Node
	notValid  bool
	noInherit bool
}

func newCheckDef(c *pg_query.Constraint) checkDef {
	return checkDef{name: c.Conname, raw: c.RawExpr, notValid: c.SkipValidation, noInherit: c.IsNoInherit}
}

// bindCheck binds a CHECK expression over table t's columns: it must be
// boolean and hold no subquery, aggregate, window function, set-returning
// function or parameter. It returns the expression's SQL text and the
// columns it reads, each once, in the order met.
func (b *binder) bindCheck(t *catalog.Table, raw *pg_query.Node) (string, []string, error) {
	savedSc, savedAgg, savedErr, savedSub, savedSRF := b.sc, b.agg, b.aggErr, b.noSubquery, b.srfOK
	defer func() { b.sc, b.agg, b.aggErr, b.noSubquery, b.srfOK = savedSc, savedAgg, savedErr, savedSub, savedSRF }()
	b.sc, b.agg, b.aggErr, b.noSubquery, b.srfOK = singleScope(t, t.Name), nil, "check constraints", "check constraint", false
	b.checkTable = t
	defer func() { b.checkTable = nil }()
	// The system columns but tableoid are no row's values to check.
	var sysErr error
	walkProto(raw.ProtoReflect(), func(m protoreflect.Message) {
		if cr, ok := m.Interface().(*pg_query.ColumnRef); ok && sysErr == nil {
			if n := len(cr.Fields); n > 0 && IsSystemColumnName(cr.Fields[n-1].GetString_().GetSval()) {
				name := cr.Fields[n-1].GetString_().GetSval()
				if name == "tableoid" {
					return // PostgreSQL allows tableoid
				}
				sysErr = b.errAt(cr.Location, pgerr.InvalidColumnReference, "system column \"%s\" reference in check constraint is invalid", name)
			}
		}
	})
	if sysErr != nil {
		return "", nil, sysErr
	}
	nparams := len(b.params)
	e, err := b.expr(raw)
	if err != nil {
		return "", nil, err
	}
	if len(b.params) > nparams {
		return "", nil, pgerr.New(pgerr.UndefinedParameter, "there is no parameter $%d", len(b.params))
	}
	if _, err := b.requireBool(e, "CHECK", exprLocation(raw)); err != nil {
		return "", nil, err
	}
	var cols []string
	Walk(e, func(x Expr) {
		if c, ok := x.(*ColRef); ok && c.Idx < len(t.Columns) && !slices.Contains(cols, t.Columns[c.Idx].Name) {
			cols = append(cols, t.Columns[c.Idx].Name)
		}
	})
	text, err := deparseExpr(raw)
	if err != nil {
		return "", nil, err
	}
	return text, cols, nil
}

// bindChecks binds the CHECK constraints of table t (being created, or
// altered: t's own constraints then take their names first) and names
// those without one as PostgreSQL's ChooseConstraintName does:
// table_column_check when the expression reads exactly one column,
// table_check otherwise, with a number after "check" until the name is
// free among the table's constraints.
func (b *binder) bindChecks(t *catalog.Table, defs []checkDef) ([]catalog.Check, error) {
	var out []catalog.Check
	taken := func(name string) bool {
		return t.HasConstraint(name) || slices.ContainsFunc(out, func(c catalog.Check) bool { return c.Name == name })
	}
	for i, d := range defs {
		if d.name != "" && taken(d.name) {
			return nil, pgerr.New(pgerr.DuplicateObject, "constraint \"%s\" for relation \"%s\" already exists", d.name, t.Name)
		}
		if d.name != "" && slices.ContainsFunc(defs[:i], func(o checkDef) bool { return o.name == d.name }) {
			return nil, pgerr.New(pgerr.DuplicateObject, "check constraint \"%s\" already exists", d.name)
		}
	}
	for _, d := range defs {
		text, cols, err := b.bindCheck(t, d.raw)
		if err != nil {
			return nil, err
		}
		name := d.name
		if name == "" {
			col := ""
			if len(cols) == 1 {
				col = cols[0]
			}
			label := "check"
			for pass := 1; ; pass++ {
				name = catalog.MakeObjectName(t.Name, col, label)
				if !taken(name) && !slices.ContainsFunc(defs, func(o checkDef) bool { return o.name == name }) {
					break
				}
				label = fmt.Sprintf("check%d", pass)
			}
		}
		out = append(out, catalog.Check{Name: name, Expr: text, NotValid: d.notValid, NoInherit: d.noInherit})
	}
	return out, nil
}

// CheckExprs binds the CHECK constraints of table t over its row, for the
// executor.
func CheckExprs(t *catalog.Table) ([]Expr, error) {
	if len(t.Checks) == 0 {
		return nil, nil
	}
	out := make([]Expr, len(t.Checks))
	for i, c := range t.Checks {
		tree, err := pg_query.Parse("SELECT " + c.Expr)
		if err != nil {
			return nil, pgerr.New(pgerr.DataCorrupted, "check constraint \"%s\" of table \"%s\": %v", c.Name, t.Name, err)
		}
		raw := tree.Stmts[0].Stmt.GetSelectStmt().TargetList[0].GetResTarget().Val
		b := &binder{query: "SELECT " + c.Expr, checkTable: t}
		b.sc, b.aggErr, b.noSubquery = singleScope(t, t.Name), "check constraints", "check constraint"
		e, err := b.expr(raw)
		if err != nil {
			return nil, err
		}
		if e.Type().OID != types.Bool {
			return nil, pgerr.New(pgerr.DataCorrupted, "check constraint \"%s\" of table \"%s\" is not boolean", c.Name, t.Name)
		}
		out[i] = e
	}
	return out, nil
}

// AlterChecks is ALTER TABLE ... ADD [CONSTRAINT name] CHECK (...) [NOT
// VALID] or DROP CONSTRAINT of CHECK constraints: the executor checks
// the stored rows against each added one that is valid.
type AlterChecks struct {
	Table    *catalog.Table
	Add      []catalog.Check
	Drop     []string
	IfExists bool // DROP CONSTRAINT IF EXISTS (of a name the table has no constraint of)
}

func (*AlterChecks) stmt() {}
