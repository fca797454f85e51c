package tpcc

import (
	"sort"
	"testing"
)

func TestLastName(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{
		{0, "BARBARBAR"},
		{371, "PRICALLYOUGHT"},
		{999, "EINGEINGEING"},
		{40, "BARPRESBAR"},
		{400, "PRESBARBAR"},
		{123, "OUGHTABLEPRI"},
	} {
		if got := LastName(tc.n); got != tc.want {
			t.Errorf("LastName(%d) = %q, want %q", tc.n, got, tc.want)
		}
		if !IsLastName(tc.want) {
			t.Errorf("IsLastName(%q) = false", tc.want)
		}
	}
	if IsLastName("BARBAR") || IsLastName("BARBARBARX") {
		t.Error("IsLastName accepts a non-name")
	}
	seen := map[string]bool{}
	for n := 0; n < 1000; n++ {
		s := LastName(n)
		if len(s) > 16 {
			t.Fatalf("LastName(%d) = %q longer than c_last varchar(16)", n, s)
		}
		seen[s] = true
	}
	if len(seen) != 1000 {
		t.Errorf("%d distinct names for 0..999, want 1000", len(seen))
	}
}

func TestNURandFormula(t *testing.T) {
	// (((A-draw | xy-draw) + C) % (y - x + 1)) + x
	for _, tc := range []struct{ ra, rxy, c, x, y, want int }{
		{0, 0, 0, 0, 999, 0},
		{255, 0, 0, 0, 999, 255},
		{0x0f, 0xf0, 0, 0, 999, 0xff},
		{200, 900, 123, 0, 999, (200 | 900 + 123) % 1000},
		{1023, 3000, 0, 1, 3000, (1023|3000)%3000 + 1},
		{8191, 100000, 7, 1, 100000, (8191|100000+7)%100000 + 1},
	} {
		if got := nurand(tc.ra, tc.rxy, tc.c, tc.x, tc.y); got != tc.want {
			t.Errorf("nurand(%d,%d,%d,%d,%d) = %d, want %d", tc.ra, tc.rxy, tc.c, tc.x, tc.y, got, tc.want)
		}
	}
}

func TestNURandRangeAndSkew(t *testing.T) {
	r := NewRand(42)
	counts := make([]int, 1000)
	const n = 200000
	for i := 0; i < n; i++ {
		v := r.NURand(255, 0, 999)
		if v < 0 || v > 999 {
			t.Fatalf("NURand(255,0,999) = %d out of range", v)
		}
		counts[v]++
		if c := r.NURand(1023, 1, 3000); c < 1 || c > 3000 {
			t.Fatalf("NURand(1023,1,3000) = %d out of range", c)
		}
		if it := r.NURand(8191, 1, 100000); it < 1 || it > 100000 {
			t.Fatalf("NURand(8191,1,100000) = %d out of range", it)
		}
	}
	// Non-uniform: the most popular tenth of the values gets far more than a
	// tenth of the draws (a uniform draw would give ~10%).
	sort.Sort(sort.Reverse(sort.IntSlice(counts)))
	top := 0
	for _, c := range counts[:100] {
		top += c
	}
	if share := float64(top) / n; share < 0.2 {
		t.Errorf("top 10%% of C_LAST values get %.1f%% of draws; NURand should be skewed", 100*share)
	}
}

func TestCLastDelta(t *testing.T) {
	for load := 0; load <= 255; load++ {
		r := NewRunRand(uint64(load), load, 1, 2)
		if !ValidCLastDelta(load, r.CLast) {
			t.Fatalf("load C %d, run C %d: invalid delta", load, r.CLast)
		}
		if r.CID != 1 || r.IID != 2 {
			t.Fatalf("run constants for C_ID/OL_I_ID changed")
		}
	}
	for _, tc := range []struct {
		load, run int
		ok        bool
	}{{0, 65, true}, {0, 64, false}, {0, 119, true}, {0, 120, false}, {100, 4, false}, {200, 104, false}, {200, 88, false}, {200, 90, true}} {
		if got := ValidCLastDelta(tc.load, tc.run); got != tc.ok {
			t.Errorf("ValidCLastDelta(%d, %d) = %v, want %v", tc.load, tc.run, got, tc.ok)
		}
	}
}

func TestPerm(t *testing.T) {
	r := NewRand(1)
	p := r.Perm(3000)
	seen := make([]bool, 3001)
	inPlace := 0
	for i, v := range p {
		if v < 1 || v > 3000 || seen[v] {
			t.Fatalf("Perm: bad or repeated value %d", v)
		}
		seen[v] = true
		if v == i+1 {
			inPlace++
		}
	}
	if inPlace > 30 {
		t.Errorf("Perm left %d of 3000 values in place; not shuffled", inPlace)
	}
}

func TestStrings(t *testing.T) {
	r := NewRand(7)
	orig := 0
	for i := 0; i < 2000; i++ {
		if s := r.AString(8, 16); len(s) < 8 || len(s) > 16 {
			t.Fatalf("AString(8,16) = %q", s)
		}
		if s := r.NString(16, 16); len(s) != 16 || s[0] < '0' || s[0] > '9' {
			t.Fatalf("NString(16,16) = %q", s)
		}
		if z := r.Zip(); len(z) != 9 || z[4:] != "11111" {
			t.Fatalf("Zip() = %q", z)
		}
		if s := r.State(); len(s) != 2 || s[0] < 'A' || s[0] > 'Z' {
			t.Fatalf("State() = %q", s)
		}
		d := r.Data()
		if len(d) < 26 || len(d) > 50 {
			t.Fatalf("Data() length %d", len(d))
		}
		for j := 0; j+8 <= len(d); j++ {
			if d[j:j+8] == "ORIGINAL" {
				orig++
				break
			}
		}
	}
	if orig < 100 || orig > 300 {
		t.Errorf("%d of 2000 data strings contain ORIGINAL, want about 10%%", orig)
	}
}

func TestPickTx(t *testing.T) {
	var got [numTxTypes]int
	for n := 1; n <= 100; n++ {
		got[PickTx(n)]++
	}
	if got != Mix {
		t.Errorf("mix over 1..100 = %v, want %v", got, Mix)
	}
}

func TestScale(t *testing.T) {
	full := ScaleOf(1)
	if full.Items != 100000 || full.Customers != 3000 || full.NewOrders != 900 || full.FirstUndelivered() != 2101 {
		t.Errorf("ScaleOf(1) = %+v, first undelivered %d", full, full.FirstUndelivered())
	}
	s := ScaleOf(0.01)
	if s.Items != 1000 || s.Customers != 30 || s.NewOrders != 9 || s.FirstUndelivered() != 22 {
		t.Errorf("ScaleOf(0.01) = %+v", s)
	}
	if tiny := ScaleOf(1e-9); tiny.Items < 1 || tiny.Customers < 1 || tiny.NewOrders < 1 {
		t.Errorf("ScaleOf(tiny) = %+v", tiny)
	}
}

func TestInsertSQL(t *testing.T) {
	got := insertSQL("t", []string{"a", "b"}, 2)
	if want := "INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4)"; got != want {
		t.Errorf("insertSQL = %q, want %q", got, want)
	}
}
