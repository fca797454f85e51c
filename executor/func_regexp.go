package executor

import (
	"minipg/sql"
	"minipg/types"
)

func startRegexpSeq(f *sql.SRFCall, args []types.Datum) (seq, bool, error) {
	return nil, false, nil
}
