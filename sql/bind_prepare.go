package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/pgerr"
	"minipg/types"
)

// SQL-level prepared statements: PREPARE, EXECUTE and DEALLOCATE. The
// session keeps them (the executor); binding EXECUTE asks the Catalog,
// which the executor makes the session's (PreparedCatalog), for the named
// statement's parameter types and result columns.

// PrepareSQL is a bound PREPARE name [(types)] AS statement: Query is the
// statement's text (pg_query's deparse), prepared by the executor with
// ParamTypes (0: inferred) when PREPARE runs.
type PrepareSQL struct {
	Name       string
	Query      string
	ParamTypes []types.OID
}

// ExecuteSQL is a bound EXECUTE name [(args)]: the arguments, already
// converted to the statement's parameter types, are evaluated and the
// statement runs with them as its parameters.
type ExecuteSQL struct {
	Name string
	Args []Expr
}

// Deallocate is a bound DEALLOCATE [PREPARE] name | ALL.
type Deallocate struct {
	Name string // "" for ALL
}

func (*PrepareSQL) stmt() {}
func (*ExecuteSQL) stmt() {}
func (*Deallocate) stmt() {}

// PreparedCatalog is what binding EXECUTE needs: a prepared statement's
// parameter types and result columns (ok false if none has the name).
type PreparedCatalog interface {
	PreparedStatement(name string) (params []types.OID, cols []ResultCol, ok bool)
}

func (b *binder) prepareStmt(s *pg_query.PrepareStmt) (*PrepareSQL, error) {
	out := &PrepareSQL{Name: s.Name}
	for _, n := range s.Argtypes {
		t, serial, err := b.columnType(n.GetTypeName())
		if err != nil {
			return nil, err
		}
		if serial {
			names := n.GetTypeName().Names
			return nil, pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", names[len(names)-1].GetString_().GetSval())
		}
		out.ParamTypes = append(out.ParamTypes, t.OID)
	}
	text, err := pg_query.Deparse(&pg_query.ParseResult{Stmts: []*pg_query.RawStmt{{Stmt: s.Query}}})
	if err != nil {
		return nil, pgerr.New(pgerr.InternalError, "cannot deparse prepared statement: %v", err)
	}
	out.Query = text
	return out, nil
}

// executeStmt binds EXECUTE: each argument is an expression (no column in
// scope) converted to its parameter's type, as PostgreSQL's
// EvaluateParams does; the result columns are the statement's.
func (b *binder) executeStmt(s *pg_query.ExecuteStmt) (*ExecuteSQL, []ResultCol, error) {
	pc, ok := b.cat.(PreparedCatalog)
	var params []types.OID
	var cols []ResultCol
	if ok {
		params, cols, ok = pc.PreparedStatement(s.Name)
	}
	if !ok {
		return nil, nil, pgerr.New(pgerr.Code("26000"), "prepared statement \"%s\" does not exist", s.Name)
	}
	if len(s.Params) != len(params) {
		return nil, nil, pgerr.New(pgerr.SyntaxError, "wrong number of parameters for prepared statement \"%s\"", s.Name).
			WithDetail("Expected %d parameters but got %d.", len(params), len(s.Params))
	}
	out := &ExecuteSQL{Name: s.Name}
	b.sc = &scope{}
	for i, n := range s.Params {
		e, err := b.expr(n)
		if err != nil {
			return nil, nil, err
		}
		want := types.T{OID: params[i], Typmod: -1}
		if e.Type().OID != want.OID {
			c, err := b.coerce(e, want, types.CastAssignment, exprLoc(e, -1))
			if err != nil {
				if pgerr.CodeOf(err) == pgerr.DatatypeMismatch || pgerr.CodeOf(err) == pgerr.UndefinedFunction {
					return nil, nil, b.errAt(exprLoc(e, -1), pgerr.DatatypeMismatch, "parameter $%d of type %s cannot be coerced to the expected type %s", i+1, e.Type(), want).
						WithHint("You will need to rewrite or cast the expression.")
				}
				return nil, nil, err
			}
			e = c
		}
		out.Args = append(out.Args, e)
	}
	return out, cols, nil
}

func (b *binder) deallocateStmt(s *pg_query.DeallocateStmt) *Deallocate {
	return &Deallocate{Name: s.Name}
}
