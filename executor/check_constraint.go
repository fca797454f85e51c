package executor

// CHECK constraints (sql/bind_check.go): evaluated on each row INSERT,
// UPDATE and COPY store, and, for ALTER TABLE ... ADD CHECK without NOT
// VALID, on every row stored before.

import (
	"context"
	"slices"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// checkConstraints fails a row for which a CHECK constraint of r is false
// (23514); NULL passes.
func (x *execCtx) checkConstraints(r *relation, row []types.Datum) error {
	for i, e := range r.checks {
		v, err := x.ev.eval(e, row)
		if err != nil {
			return err
		}
		if v == false {
			name := r.def.Checks[i].Name
			return pgerr.New(pgerr.CheckViolation, "new row for relation \"%s\" violates check constraint \"%s\"", r.def.Name, name).
				WithDetail("Failing row contains (%s).", r.formatRow(row)).
				WithTable(publicSchema, r.def.Name).WithConstraint(name)
		}
	}
	return nil
}

// checkViewOptions fails a new row of x.rel, written through views, that
// does not meet the condition of one with CHECK OPTION (44000; NULL fails
// too, as in PostgreSQL's ExecWithCheckOptions). It runs once the row is
// stored and indexed, as PostgreSQL's does, before the foreign-key checks.
func (x *execCtx) checkViewOptions(row []types.Datum) error {
	for _, c := range x.viewChecks {
		ok, err := x.ev.evalBool(c.Expr, row)
		if err != nil {
			return err
		}
		if !ok {
			return pgerr.New(pgerr.WithCheckOptionViolation, "new row violates check option for view \"%s\"", c.View).
				WithDetail("Failing row contains (%s).", x.rel.formatRow(row))
		}
	}
	return nil
}

// alterChecks adds and drops CHECK constraints; an added one that is
// valid is first checked against the stored rows, after the transactions
// still writing the table end.
func (s *Session) alterChecks(ctx context.Context, st *sql.AlterChecks) (string, error) {
	if err := s.underTableLock(ctx, st.Table.OID, func() (uint32, error) { return s.alterChecksLocked(ctx, st) }); err != nil {
		return "", err
	}
	return "ALTER TABLE", nil
}

func (s *Session) alterChecksLocked(ctx context.Context, st *sql.AlterChecks) (uint32, error) {
	e := s.e
	r, err := e.rel(st.Table.OID)
	if err != nil {
		return 0, err
	}
	if len(st.Add) > 0 {
		probe := r.def.Clone()
		probe.Checks = st.Add
		exprs, err := sql.CheckExprs(probe)
		if err != nil {
			return 0, err
		}
		for i, ck := range st.Add {
			if ck.NotValid {
				continue
			}
			// A row fails when the expression is false: NOT expr is true.
			found, wait, err := s.someRow(ctx, r, &sql.BoolOp{Op: "NOT", Args: []sql.Expr{exprs[i]}})
			if err != nil || wait != 0 {
				return wait, err
			}
			if found {
				return 0, pgerr.New(pgerr.CheckViolation, "check constraint \"%s\" of relation \"%s\" is violated by some row", ck.Name, r.def.Name).
					WithTable(publicSchema, r.def.Name).WithConstraint(ck.Name)
			}
		}
	}
	t, err := e.cat.SetChecks(r.def.OID, st.Drop, st.Add)
	if err != nil {
		return 0, err
	}
	nr := *r
	nr.def = t
	if nr.checks, err = sql.CheckExprs(t); err != nil {
		return 0, err
	}
	e.replaceRel(&nr)
	return 0, nil
}

// checkOID is the pg_constraint OID of CHECK constraint i of table t: in
// the foreign keys' range, from its top down (a table with more than 31
// foreign keys may share one).
func checkOID(t *catalog.Table, i int) uint32 {
	return fkeyOIDFlag | (t.OID%(1<<24))<<6 | uint32(fkeyPerTableLimit-1-i%32)
}

// checkDef is pg_get_constraintdef of a CHECK constraint (minipg keeps
// the expression as pg_query deparses it, not PostgreSQL's ruleutils
// layout).
func checkDef(c catalog.Check) string {
	def := "CHECK (" + c.Expr + ")"
	if c.NoInherit {
		def += " NO INHERIT"
	}
	if c.NotValid {
		def += " NOT VALID"
	}
	return def
}

// checkColumns are the columns (attribute numbers) CHECK constraint i of
// table t reads, for pg_constraint.conkey.
func (e *Engine) checkColumns(t *catalog.Table, i int) []int16 {
	r, err := e.rel(t.OID)
	if err != nil || i >= len(r.checks) {
		return nil
	}
	var out []int16
	sql.Walk(r.checks[i], func(x sql.Expr) {
		if c, ok := x.(*sql.ColRef); ok && c.Idx < len(t.Columns) && !slices.Contains(out, int16(c.Idx+1)) {
			out = append(out, int16(c.Idx+1))
		}
	})
	return out
}
