package executor

import (
	"fmt"
	"testing"

	"minipg/sql"
)

// TestIndexResidualFilter checks which conjuncts an index scan still
// evaluates on its rows: the equalities the range applies exactly are
// dropped, the others (other types, ranges, other columns) stay.
func TestIndexResidualFilter(t *testing.T) {
	e := openTestEngine(t, "")
	defer e.Close()
	s := e.NewSession(nil)
	mustExec(t, s, "CREATE TABLE rf (w int, d smallint, k text, vc varchar(10), n numeric, v int, PRIMARY KEY (w, d, k))")
	mustExec(t, s, "CREATE INDEX rf_vc ON rf (vc, n)")
	tests := []struct {
		where string
		left  int // conjuncts the scan still evaluates
	}{
		{"w = $1 AND d = $2 AND k = $3", 0},
		{"w = 1 AND d = 2::smallint AND k = 'a'", 0},
		{"w = 1 AND d = 2 AND k = 'a'", 1},       // d = 2 compares smallint with int
		{"w = 1::bigint AND d = 2::smallint", 1}, // int with bigint
		{"w = 1 AND d = 2::smallint AND v = 3", 1},
		{"w = 1 AND d = 2::smallint AND k > 'a'", 1},
		{"vc = 'x'::varchar AND n = 1.5", 1}, // numeric equality is not equality of the stored values
		{"vc = $1", 0},
	}
	for _, tc := range tests {
		p, err := s.Prepare("SELECT v FROM rf WHERE "+tc.where, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.where, err)
		}
		st := p.bound.Stmt.(*sql.Select)
		r, _ := e.rel(st.Table.OID)
		plan := chooseIndex(r, st.Where)
		if plan == nil {
			t.Fatalf("%s: no index", tc.where)
		}
		if got := len(conjuncts(residual(st.Where, plan.exact), nil)); got != tc.left {
			t.Errorf("%s: %d conjuncts left, want %d", tc.where, got, tc.left)
		}
	}
}

// TestIndexScanWithoutRecheck compares index scans whose equalities are
// not rechecked with sequential scans of the same rows, after HOT and
// non-HOT updates, deletes and VACUUM.
func TestIndexScanWithoutRecheck(t *testing.T) {
	e := openTestEngine(t, "")
	defer e.Close()
	s := e.NewSession(nil)
	mustExec(t, s, "CREATE TABLE rs (w int, k text, v int, PRIMARY KEY (w, k))")
	mustExec(t, s, "INSERT INTO rs SELECT i % 5, 'k' || (i % 7), i FROM generate_series(1, 35) i")
	mustExec(t, s, "UPDATE rs SET v = v + 100 WHERE v % 3 = 0")  // HOT
	mustExec(t, s, "UPDATE rs SET k = k || 'x' WHERE v % 4 = 0") // key changes
	mustExec(t, s, "UPDATE rs SET w = w + 10 WHERE v % 5 = 0")   // key changes
	mustExec(t, s, "DELETE FROM rs WHERE v % 7 = 0")
	mustExec(t, s, "VACUUM rs")
	mustExec(t, s, "UPDATE rs SET v = v + 1000 WHERE w = 1")
	for w := 0; w < 16; w++ {
		for _, k := range []string{"k0", "k3", "k4x", "k6"} {
			idx, _ := mustExec(t, s, fmt.Sprintf("SELECT v FROM rs WHERE w = %d AND k = '%s' ORDER BY v", w, k))
			seq, _ := mustExec(t, s, fmt.Sprintf("SELECT v FROM rs WHERE w + 0 = %d AND k || '' = '%s' ORDER BY v", w, k))
			if fmt.Sprint(idx) != fmt.Sprint(seq) {
				t.Errorf("w=%d k=%s: index scan %v, sequential scan %v", w, k, idx, seq)
			}
		}
		idx, _ := mustExec(t, s, fmt.Sprintf("SELECT k, v FROM rs WHERE w = %d ORDER BY k, v", w))
		seq, _ := mustExec(t, s, fmt.Sprintf("SELECT k, v FROM rs WHERE w + 0 = %d ORDER BY k, v", w))
		if fmt.Sprint(idx) != fmt.Sprint(seq) {
			t.Errorf("w=%d: index scan %v, sequential scan %v", w, idx, seq)
		}
	}
}

// TestReusedOutputRow runs statements whose top projection reuses its row
// next to pipelines that keep rows (sort, DISTINCT, subqueries, UNION),
// with a portal suspended between rows.
func TestReusedOutputRow(t *testing.T) {
	e := openTestEngine(t, "")
	defer e.Close()
	s := e.NewSession(nil)
	mustExec(t, s, "CREATE TABLE ro (id int PRIMARY KEY, g int, t text)")
	mustExec(t, s, "INSERT INTO ro SELECT i, i % 3, 't' || i FROM generate_series(1, 20) i")
	for _, tc := range []struct{ q, want string }{
		{"SELECT id, t FROM ro WHERE id <= 3", "[[1 t1] [2 t2] [3 t3]]"},
		{"SELECT id, t FROM ro WHERE id <= 3 ORDER BY id DESC", "[[3 t3] [2 t2] [1 t1]]"},
		{"SELECT DISTINCT g FROM ro ORDER BY g", "[[0] [1] [2]]"},
		{"SELECT id FROM ro WHERE id IN (SELECT id + 1 FROM ro WHERE id <= 2) ORDER BY id", "[[2] [3]]"},
		{"SELECT id FROM ro WHERE id = 1 UNION ALL SELECT id FROM ro WHERE id = 2", "[[1] [2]]"},
		{"SELECT id, t FROM ro WHERE id > 17 LIMIT 2", "[[18 t18] [19 t19]]"},
	} {
		rows, _ := mustExec(t, s, tc.q)
		if got := fmt.Sprint(rows); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.q, got, tc.want)
		}
	}
}

// TestPlanCache checks that a cached index plan is reused for the same
// WHERE clause and relation, and chosen again once DDL has installed a new
// relation with other indexes.
func TestPlanCache(t *testing.T) {
	e := openTestEngine(t, "")
	defer e.Close()
	s := e.NewSession(nil)
	mustExec(t, s, "CREATE TABLE pc (a int, b int)")
	p, err := s.Prepare("SELECT b FROM pc WHERE a = $1", nil)
	if err != nil {
		t.Fatal(err)
	}
	where := p.bound.Stmt.(*sql.Select).Where
	oid := p.bound.Stmt.(*sql.Select).Table.OID
	var c planCache
	r1, _ := e.rel(oid)
	if c.choose(r1, where) != nil {
		t.Fatal("an index plan without an index")
	}
	mustExec(t, s, "CREATE INDEX pc_a ON pc (a)")
	r2, _ := e.rel(oid)
	p2 := c.choose(r2, where)
	if p2 == nil || p2.ri.def.Name != "pc_a" {
		t.Fatalf("after CREATE INDEX: plan %v", p2)
	}
	if c.choose(r2, where) != p2 {
		t.Error("the cached plan was not reused")
	}
	for i := 0; i < 2*maxCachedPlans; i++ {
		q, err := s.Prepare(fmt.Sprintf("SELECT b FROM pc WHERE a = %d", i), nil)
		if err != nil {
			t.Fatal(err)
		}
		c.choose(r2, q.bound.Stmt.(*sql.Select).Where)
		if len(c.m) > maxCachedPlans {
			t.Fatalf("%d plans cached", len(c.m))
		}
	}
	// Through SQL: the prepared statement finds the index it did not have.
	mustExec(t, s, "INSERT INTO pc SELECT i, i * 10 FROM generate_series(1, 50) i")
	mustExec(t, s, "DROP INDEX pc_a")
	rows, _ := mustExec(t, s, "SELECT b FROM pc WHERE a = 7")
	mustExec(t, s, "CREATE INDEX pc_a2 ON pc (a)")
	rows2, _ := mustExec(t, s, "SELECT b FROM pc WHERE a = 7")
	if fmt.Sprint(rows) != "[[70]]" || fmt.Sprint(rows2) != "[[70]]" {
		t.Errorf("got %v and %v", rows, rows2)
	}
}
