package executor

// Transaction-id functions that heap studies read xmin and xmax with:
// txid_current(), txid_current_if_assigned() and age(xid), as PostgreSQL
// 15 defines them (minipg's xids have no epoch: it is 0).

import (
	"math"

	"minipg/sql"
	"minipg/types"
)

func init() {
	sql.RegisterBuiltin(sql.Builtin{Name: "txid_current", Result: types.Int8, Volatility: sql.Stable,
		Fn: func(env any, _ []types.Datum, _ *sql.Func) (types.Datum, error) {
			tx := session(env).ensureTx()
			if _, err := tx.Xid(); err != nil {
				return nil, err
			}
			return int64(tx.TopXid()), nil
		}})
	sql.RegisterBuiltin(sql.Builtin{Name: "txid_current_if_assigned", Result: types.Int8, Volatility: sql.Stable,
		Fn: func(env any, _ []types.Datum, _ *sql.Func) (types.Datum, error) {
			s := session(env)
			if s.tx == nil || s.tx.TopXid() == 0 {
				return nil, nil
			}
			return int64(s.tx.TopXid()), nil
		}})
	// age(xid): how many xids were assigned since xid, counted from the
	// transaction's own xid, else from the next one to be assigned
	// (GetStableLatestTransactionId); the permanent xids (0, 1 and 2) are
	// infinitely old.
	builtin("age", oids(types.Xid), types.Int4, sql.Stable, func(env any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
		xid := uint32(a[0].(int64))
		if xid < 3 {
			return int64(math.MaxInt32), nil
		}
		s := session(env)
		now := s.e.txns.NextXid()
		if s.tx != nil && s.tx.TopXid() != 0 {
			now = s.tx.TopXid()
		}
		return int64(int32(now - xid)), nil
	})
}
