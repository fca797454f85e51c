package executor

import (
	"fmt"
	"testing"

	"minipg/sql"
	"minipg/types"
)

// testPartition is a partition of one ORDER BY column (ascending, NULLs
// last) holding vals, under frame f.
func testPartition(f sql.WindowFrame, vals ...types.Datum) *winPartition {
	w := &sql.WindowDef{Order: []sql.WinOrder{{X: &sql.ColRef{T: types.TInt4}}}, Frame: f}
	rows := make([][]types.Datum, len(vals))
	keys := make([][]types.Datum, len(vals))
	for i, v := range vals {
		rows[i] = []types.Datum{v}
		keys[i] = []types.Datum{v}
	}
	_, order := windowSortKeys(w)
	return newWinPartition(&windowIter{ev: &evalCtx{}}, w, rows, keys, order)
}

// TestWindowFrameBounds checks each row's frame (its rows and the ones
// EXCLUDE leaves out) over the ORDER BY values 1 1 2 4 4 NULL.
func TestWindowFrameBounds(t *testing.T) {
	off := func(n int64) sql.Expr { return &sql.Const{T: types.TInt8, Val: n} }
	off4 := func(n int64) sql.Expr { return &sql.Const{T: types.TInt4, Val: n} }
	tests := []struct {
		name  string
		frame sql.WindowFrame
		want  string // each row's frame rows
	}{
		{"default: peers", sql.WindowFrame{End: sql.FrameBound{Kind: sql.BoundCurrentRow}},
			"[0 1] [0 1] [0 1 2] [0 1 2 3 4] [0 1 2 3 4] [0 1 2 3 4 5]"},
		{"rows 1 preceding", sql.WindowFrame{Mode: sql.FrameRows, Start: sql.FrameBound{Kind: sql.BoundPreceding, Offset: off(1)}, End: sql.FrameBound{Kind: sql.BoundCurrentRow}},
			"[0] [0 1] [1 2] [2 3] [3 4] [4 5]"},
		{"rows 1 following and 2 following", sql.WindowFrame{Mode: sql.FrameRows, Start: sql.FrameBound{Kind: sql.BoundFollowing, Offset: off(1)}, End: sql.FrameBound{Kind: sql.BoundFollowing, Offset: off(2)}},
			"[1 2] [2 3] [3 4] [4 5] [5] []"},
		{"rows huge offsets", sql.WindowFrame{Mode: sql.FrameRows, Start: sql.FrameBound{Kind: sql.BoundPreceding, Offset: off(1 << 62)}, End: sql.FrameBound{Kind: sql.BoundFollowing, Offset: off(1 << 62)}},
			"[0 1 2 3 4 5] [0 1 2 3 4 5] [0 1 2 3 4 5] [0 1 2 3 4 5] [0 1 2 3 4 5] [0 1 2 3 4 5]"},
		{"groups 1 preceding exclude group", sql.WindowFrame{Mode: sql.FrameGroups, Start: sql.FrameBound{Kind: sql.BoundPreceding, Offset: off(1)}, End: sql.FrameBound{Kind: sql.BoundCurrentRow}, Exclude: sql.ExcludeGroup},
			"[] [] [0 1] [2] [2] [3 4]"},
		{"range 1 preceding and 1 following", sql.WindowFrame{Start: sql.FrameBound{Kind: sql.BoundPreceding, Offset: off4(1)}, End: sql.FrameBound{Kind: sql.BoundFollowing, Offset: off4(1)}},
			"[0 1 2] [0 1 2] [0 1 2] [3 4] [3 4] [5]"},
		{"range 2 following to unbounded, exclude ties", sql.WindowFrame{Start: sql.FrameBound{Kind: sql.BoundFollowing, Offset: off4(2)}, End: sql.FrameBound{Kind: sql.BoundUnboundedFollowing}, Exclude: sql.ExcludeTies},
			"[3 4 5] [3 4 5] [3 4 5] [5] [5] [5]"},
		{"rows exclude current row", sql.WindowFrame{Mode: sql.FrameRows, End: sql.FrameBound{Kind: sql.BoundUnboundedFollowing}, Exclude: sql.ExcludeCurrentRow},
			"[1 2 3 4 5] [0 2 3 4 5] [0 1 3 4 5] [0 1 2 4 5] [0 1 2 3 5] [0 1 2 3 4]"},
	}
	for _, tc := range tests {
		p := testPartition(tc.frame, int64(1), int64(1), int64(2), int64(4), int64(4), nil)
		var got []string
		for i := range p.rows {
			fr, err := p.frame(i)
			if err != nil {
				t.Fatalf("%s: row %d: %v", tc.name, i, err)
			}
			var in []int
			for j := fr.start; j < fr.end; j++ {
				if !fr.excluded(j) {
					in = append(in, j)
				}
			}
			got = append(got, fmt.Sprint(in))
		}
		if s := fmt.Sprint(got); s != "["+tc.want+"]" {
			t.Errorf("%s: frames %s, want [%s]", tc.name, s, tc.want)
		}
	}
}

// TestWindowOffsetParams runs frame offsets and lag's offset given as
// parameters (the extended protocol), and a negative one.
func TestWindowOffsetParams(t *testing.T) {
	e := openTestEngine(t, "")
	defer e.Close()
	s := e.NewSession(map[string]string{"user": "postgres"})
	defer s.Close()
	mustExec(t, s, "CREATE TABLE wp (v int)")
	mustExec(t, s, "INSERT INTO wp SELECT generate_series(1, 5)")
	q := "SELECT v, sum(v) OVER (ORDER BY v ROWS $1 PRECEDING), lag(v, $2) OVER (ORDER BY v), " +
		"count(*) OVER (ORDER BY v RANGE BETWEEN $3 PRECEDING AND CURRENT ROW) FROM wp ORDER BY v"
	rows, _ := mustExec(t, s, q, int64(1), int64(2), int64(2))
	if got := fmt.Sprint(rows); got != "[[1 1 <nil> 1] [2 3 <nil> 2] [3 5 1 3] [4 7 2 3] [5 9 3 3]]" {
		t.Errorf("rows %s", got)
	}
	_, _, err := exec(t, s, q, int64(-1), int64(2), int64(2))
	if err == nil || err.Error() != "frame starting offset must not be negative" {
		t.Errorf("negative ROWS offset: %v", err)
	}
	s.Sync()
	_, _, err = exec(t, s, q, int64(1), int64(2), int64(-2))
	if err == nil || err.Error() != "invalid preceding or following size in window function" {
		t.Errorf("negative RANGE offset: %v", err)
	}
	s.Sync()
}

// TestPGQsort checks that ties come out in PostgreSQL's order: the
// orders are PostgreSQL 15's for ORDER BY x % 3 over 1..50 and ORDER BY
// x % 4 DESC over 1..12 (the same quicksort sorts its tuples).
func TestPGQsort(t *testing.T) {
	tests := []struct {
		n    int
		key  func(x int) int
		want string
	}{
		{50, func(x int) int { return x % 3 }, "[18 39 45 21 36 9 24 15 48 27 42 3 30 6 12 33 31 1 13 37 40 43 16 46 7 49 34 19 4 22 25 10 28 50 2 5 8 11 14 17 20 23 26 29 32 35 38 41 44 47]"},
		{12, func(x int) int { return -(x % 4) }, "[7 3 11 10 2 6 1 5 9 8 4 12]"},
	}
	for _, tc := range tests {
		a := make([]int, tc.n)
		for i := range a {
			a[i] = i + 1
		}
		pgQsort(a, func(x, y int) int { return compareInt(int64(tc.key(x)), int64(tc.key(y))) })
		if got := fmt.Sprint(a); got != tc.want {
			t.Errorf("n=%d: %s, want %s", tc.n, got, tc.want)
		}
	}
}
