package executor

// Data-modifying WITH queries (sql.WithDML): each runs to completion, in
// order, before the statement, through the same routines as the statement
// would be, its RETURNING rows kept in Portal.withRows for the
// statement's references (sql.FromTable.WithRows). They and the statement
// share the transaction's current command id, so the statement does not
// see their changes, nor they each other's, as in PostgreSQL where they
// all run with one snapshot; a row two of them change is changed by the
// first only (the second finds it TM_SelfModified and skips it).

import (
	"context"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// cteScanIter reads the RETURNING rows of data-modifying WITH query name
// (EXPLAIN's CTE Scan).
type cteScanIter struct {
	sliceIter
	name string
}

// runWithDML runs the statement's data-modifying WITH queries.
func (pt *Portal) runWithDML(ctx context.Context) error {
	s := pt.s
	// A read-only transaction refuses the statement, named as a whole.
	what := "SELECT"
	if _, ok := pt.p.bound.Stmt.(*sql.Select); !ok {
		what = readOnlyName(pt.p.bound.Stmt)
	}
	if err := s.checkReadOnly(what); err != nil {
		return err
	}
	for i, w := range pt.p.bound.With {
		x, err := pt.newExecCtx(ctx, w.Table, true)
		if err != nil {
			return err
		}
		var rows [][]types.Datum
		if w.Columns != nil {
			x.emitReturning = func(row []types.Datum) { rows = append(rows, row) }
		}
		switch st := w.Stmt.(type) {
		case *sql.Insert:
			_, err = x.insert(st)
		case *sql.Update:
			_, err = x.update(st)
		case *sql.Delete:
			_, err = x.delete(st)
		default:
			err = pgerr.New(pgerr.InternalError, "unexpected WITH statement %T", st)
		}
		if err != nil {
			return err
		}
		if _, err := s.mem.chargeRows(rows); err != nil {
			return err
		}
		if pt.withRows == nil {
			pt.withRows = map[int][][]types.Datum{}
		}
		pt.withRows[i+1] = rows
	}
	return nil
}
