package executor

import (
	"context"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// createTableAs runs CREATE TABLE ... AS and SELECT ... INTO: the table is
// created as CREATE TABLE creates it (owned by the transaction, so that an
// abort drops it), then the query's rows go in through INSERT ... SELECT's
// path (heap inserts placed by the table's free-space policy and
// WAL-logged, the session's statistics counting them). PostgreSQL's
// intorel_receive inserts with a bulk-insert state and without consulting
// the free space map; into a new table that places the rows as plain
// inserts do (each on the last page while it has room, then on a new
// one), which is what minipg's insert path does for a table without free
// space recorded.
func (pt *Portal) createTableAs(ctx context.Context, st *sql.CreateTableAs) (string, error) {
	s := pt.s
	fresh := s.tx == nil
	s.ensureTx()
	t, err := s.createTableDef(ctx, st.Create)
	if err != nil {
		return "", err
	}
	if t == nil || st.SkipData {
		// IF NOT EXISTS found the table, or WITH NO DATA.
		return "CREATE TABLE AS", nil
	}
	n := len(t.Columns)
	ins := &sql.Insert{Table: t, Source: st.Query, Defaults: make([]sql.Expr, n)}
	for i := 0; i < n; i++ {
		ins.Cols = append(ins.Cols, i)
		ins.ColTypes = append(ins.ColTypes, st.Query.Columns[i].T)
	}
	return pt.startDML(ctx, t.OID, func(x *execCtx) (int64, error) {
		if fresh {
			// The statement began the transaction: statement_timestamp()
			// is its start, as now() is.
			x.start = s.txStart
		}
		return x.insert(ins)
	}, "SELECT %d", false)
}

// explainCreateAs runs EXPLAIN of CREATE TABLE AS or SELECT INTO as
// PostgreSQL's ExplainOneUtility does: the plan is the query's. Without
// ANALYZE nothing is created, but a table of that name already there is
// still 42P07 (a notice and no plan with IF NOT EXISTS); with ANALYZE the
// table is created and filled through the insert path while the query's
// nodes count their rows (WITH NO DATA: created, the query never run).
// It returns a nil plan when IF NOT EXISTS found the table.
func (pt *Portal) explainCreateAs(ctx context.Context, st *sql.CreateTableAs, ex *sql.Explain) (*planNode, execRun, error) {
	s := pt.s
	name := st.Create.Def.Name
	if !ex.Analyze {
		if s.e.cat.RelationExists(name) {
			if st.Create.IfNotExists {
				s.notice(pgerr.SeverityNotice, pgerr.DuplicateTable, "relation \"%s\" already exists, skipping", name)
				return nil, execRun{}, nil
			}
			return nil, execRun{}, pgerr.New(pgerr.DuplicateTable, "relation \"%s\" already exists", name)
		}
		return pt.explainSelect(ctx, st.Query, ex)
	}
	s.ensureTx()
	t, err := s.createTableDef(ctx, st.Create)
	if err != nil || t == nil {
		return nil, execRun{}, err
	}
	if st.SkipData {
		return pt.explainQuery(ctx, st.Query, ex, nil, true)
	}
	ix, err := pt.newExecCtx(ctx, t.OID, true)
	if err != nil {
		return nil, execRun{}, err
	}
	n := len(t.Columns)
	var rows int64
	sink := func(vals []types.Datum) error {
		row := make([]types.Datum, n+1)
		copy(row, vals[:n])
		if _, err := ix.insertRow(row); err != nil {
			return err
		}
		rows++
		if rows%checkEvery == 0 {
			return canceled(ctx)
		}
		return nil
	}
	return pt.explainQuery(ctx, st.Query, ex, sink, false)
}
