package executor

import (
	"testing"

	"minipg/sql"
)

// TestSetOpCopies checks the copies of a row INTERSECT and EXCEPT give
// for m copies in the left arm and n in the right, as nodeSetOp counts.
func TestSetOpCopies(t *testing.T) {
	tests := []struct {
		op         sql.SetOpKind
		all        bool
		m, n, want int64
	}{
		{sql.SetOpIntersect, false, 3, 2, 1},
		{sql.SetOpIntersect, false, 3, 0, 0},
		{sql.SetOpIntersect, false, 0, 2, 0},
		{sql.SetOpIntersect, true, 3, 2, 2},
		{sql.SetOpIntersect, true, 1, 5, 1},
		{sql.SetOpIntersect, true, 4, 0, 0},
		{sql.SetOpExcept, false, 3, 0, 1},
		{sql.SetOpExcept, false, 3, 1, 0},
		{sql.SetOpExcept, false, 0, 1, 0},
		{sql.SetOpExcept, true, 3, 1, 2},
		{sql.SetOpExcept, true, 2, 2, 0},
		{sql.SetOpExcept, true, 1, 4, 0},
		{sql.SetOpExcept, true, 5, 0, 5},
	}
	for _, tc := range tests {
		if got := setOpCopies(tc.op, tc.all, tc.m, tc.n); got != tc.want {
			t.Errorf("%s all=%v m=%d n=%d: %d copies, want %d", tc.op, tc.all, tc.m, tc.n, got, tc.want)
		}
	}
}
