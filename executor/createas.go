package executor

import (
	"context"

	"minipg/sql"
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
	return pt.startDML(ctx, t.OID, func(x *execCtx) (int64, error) { return x.insert(ins) }, "SELECT %d", false)
}
