package executor

import (
	"fmt"
	"strings"
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

// TestPGIncrementalSort checks the incremental sort against PostgreSQL
// 15's order for rows sorted by (g, v) that come in g's order: small
// groups are sorted in batches of at least 32 rows, groups of more than
// 64 rows by v alone.
func TestPGIncrementalSort(t *testing.T) {
	type row struct{ id, g, v int }
	tests := []struct {
		rows []row
		want string
	}{
		// 1..150 with g = i / 40, v = i % 7, then 201..220 with g = 9,
		// v = i % 2.
		{func() (rs []row) {
			for i := 1; i <= 150; i++ {
				rs = append(rs, row{i, i / 40, i % 7})
			}
			for i := 1; i <= 20; i++ {
				rs = append(rs, row{200 + i, 9, i % 2})
			}
			return rs
		}(), "7,28,14,21,35,1,22,36,15,29,8,23,30,9,37,16,2,24,3,31,10,38,17,39,4,11,18,25,32,26,5,33,19,12,6,20,13,27,34," +
			"42,56,77,49,70,63,43,57,64,71,78,50,51,65,44,79,72,58,66,59,52,45,73,60,46,53,67,74,68,61,40,54,75,47,41,69,62,76,55,48," +
			"91,112,84,119,105,98,92,113,99,106,85,100,86,93,107,114,94,87,115,108,80,101,95,102,88,109,81,116,117,110,82,96,103,89,118,111,83,97,90,104," +
			"147,126,133,140,134,127,120,148,141,121,135,149,142,128,150,129,122,136,143,123,130,144,137,138,145,131,124,139,125,132,146," +
			"206,212,204,214,208,216,202,218,210,220,211,203,205,207,209,201,213,215,217,219"},
		// 1..250 with g = i / 100, v = i % 7: groups of 99, 100 and 51.
		{func() (rs []row) {
			for i := 1; i <= 250; i++ {
				rs = append(rs, row{i, i / 100, i % 7})
			}
			return rs
		}(), "28,84,70,49,98,35,56,21,63,14,42,7,91,77,29,85,78,71,22,57,8,1,50,43,15,64,36,99,92,44,37,30,23,16,2,9,72,93,86,79,51,58,65,87,10,31,17,24,52,59,45,38,3,66,73,80,94,32,60,74,88,46,39,95,67,11,81,18,25,4,53,89,96,68,47,12,40,75,61,33,19,82,54,5,26,69,6,55,48,90,27,34,41,13,62,20,83,76,97," +
			"175,147,189,168,161,126,105,140,112,154,119,182,133,196,190,183,176,169,134,162,141,127,155,113,106,148,120,197,163,128,156,100,107,135,114,170,191,184,177,198,149,121,142,199,108,101,115,122,129,136,143,150,157,164,171,178,185,192,172,102,158,186,165,193,144,179,123,130,137,151,109,116,194,166,103,159,138,173,124,152,117,180,131,187,145,110,118,132,188,160,104,125,139,111,153,195,146,181,174,167," +
			"231,203,238,210,224,217,245,246,225,204,239,211,232,218,233,219,240,205,226,212,247,206,213,220,227,234,241,248,228,200,242,214,207,249,221,235,201,229,215,250,236,208,243,222,244,237,202,223,230,209,216"},
	}
	for n, tc := range tests {
		rows := tc.rows
		a := make([]int, len(rows))
		for i := range a {
			a[i] = i
		}
		cmpG := func(x, y int) int { return compareInt(int64(rows[x].g), int64(rows[y].g)) }
		cmpV := func(x, y int) int { return compareInt(int64(rows[x].v), int64(rows[y].v)) }
		cmp := func(x, y int) int {
			if c := cmpG(x, y); c != 0 {
				return c
			}
			return cmpV(x, y)
		}
		got := pgIncrementalSort(a, cmp, cmpV, func(x, y int) bool { return cmpG(x, y) == 0 })
		ids := make([]string, len(got))
		for i, j := range got {
			ids[i] = fmt.Sprint(rows[j].id)
		}
		if s := strings.Join(ids, ","); s != tc.want {
			t.Errorf("case %d: order\n%s\nwant\n%s", n, s, tc.want)
		}
	}
}
