package executor

import (
	"fmt"
	"testing"

	"minipg/pgerr"
	"minipg/sql"
)

// planIndex returns the index the planner picks for a SELECT (""
// for a sequential scan).
func planIndex(t *testing.T, e *Engine, s *Session, q string) string {
	t.Helper()
	p, err := s.Prepare(q, nil)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	st := p.bound.Stmt.(*sql.Select)
	r, err := e.rel(st.Table.OID)
	if err != nil {
		t.Fatal(err)
	}
	if plan := chooseIndex(r, st.Where); plan != nil {
		return plan.ri.def.Name
	}
	return ""
}

// TestAlterConstraintPlan: a primary key or unique constraint added by
// ALTER TABLE is an index the planner probes, and a statement prepared
// before the ALTER is re-planned; after DROP CONSTRAINT the table is
// scanned again.
func TestAlterConstraintPlan(t *testing.T) {
	e := openTestEngine(t, "")
	s := e.NewSession(nil)
	mustExec(t, s, "CREATE TABLE p (w int, d int, v text)")
	mustExec(t, s, "INSERT INTO p VALUES (1, 1, 'a'), (1, 2, 'b'), (2, 1, 'c')")
	const q = "SELECT v FROM p WHERE w = $1 AND d = $2"
	prepared, err := s.Prepare(q, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := planIndex(t, e, s, q); got != "" {
		t.Fatalf("before ALTER: index %q", got)
	}
	mustExec(t, s, "ALTER TABLE p ADD CONSTRAINT p_pkey PRIMARY KEY (w, d), ADD UNIQUE (v)")
	if got := planIndex(t, e, s, q); got != "p_pkey" {
		t.Fatalf("after ADD PRIMARY KEY: index %q", got)
	}
	if got := planIndex(t, e, s, "SELECT w FROM p WHERE v = 'b'"); got != "p_v_key" {
		t.Fatalf("after ADD UNIQUE: index %q", got)
	}
	pt, err := s.Bind(prepared, []any{int64(1), int64(2)})
	if err != nil {
		t.Fatal(err)
	}
	var got []any
	if _, _, err := pt.Run(t.Context(), 0, func(row []any) error { got = append(got, row[0]); return nil }); err != nil {
		t.Fatal(err)
	}
	pt.Close()
	s.Sync()
	if len(got) != 1 || got[0] != "b" {
		t.Fatalf("prepared before ALTER: %v", got)
	}
	mustExec(t, s, "ALTER TABLE p DROP CONSTRAINT p_pkey")
	if got := planIndex(t, e, s, q); got != "" {
		t.Fatalf("after DROP CONSTRAINT: index %q", got)
	}
}

// TestAlterConstraintWaitsForWriters: rows of a transaction still running
// decide whether the key is unique and NOT NULL, so ALTER TABLE waits for
// that transaction (as PostgreSQL waits for its table lock) instead of
// ignoring its rows or failing on them.
func TestAlterConstraintWaitsForWriters(t *testing.T) {
	e := openTestEngine(t, "")
	s := e.NewSession(nil)
	for i, tc := range []struct {
		name  string
		setup string // rows committed before
		write string // by the other transaction
		end   string
		code  pgerr.Code // "" = the ALTER succeeds
	}{
		{"duplicate committed", "(1, 'a'), (2, 'b')", "INSERT INTO %s VALUES (1, 'dup')", "COMMIT", pgerr.UniqueViolation},
		{"duplicate rolled back", "(1, 'a'), (2, 'b')", "INSERT INTO %s VALUES (1, 'dup')", "ROLLBACK", ""},
		{"null committed", "(1, 'a'), (2, 'b')", "INSERT INTO %s VALUES (NULL, 'null')", "COMMIT", pgerr.NotNullViolation},
		{"null rolled back", "(1, 'a'), (2, 'b')", "INSERT INTO %s VALUES (NULL, 'null')", "ROLLBACK", ""},
		{"delete committed", "(1, 'a'), (1, 'b')", "DELETE FROM %s WHERE v = 'b'", "COMMIT", ""},
		{"delete rolled back", "(1, 'a'), (1, 'b')", "DELETE FROM %s WHERE v = 'b'", "ROLLBACK", pgerr.UniqueViolation},
	} {
		t.Run(tc.name, func(t *testing.T) {
			table := fmt.Sprintf("w%d", i)
			mustExec(t, s, "CREATE TABLE "+table+" (id int, v text)")
			mustExec(t, s, "INSERT INTO "+table+" VALUES "+tc.setup)
			other := e.NewSession(nil)
			defer other.Close()
			mustExec(t, other, "BEGIN")
			mustExec(t, other, fmt.Sprintf(tc.write, table))
			done := make(chan error, 1)
			go func() {
				_, _, err := exec(t, s, "ALTER TABLE "+table+" ADD PRIMARY KEY (id)")
				s.Sync()
				done <- err
			}()
			mustExec(t, other, tc.end)
			err := <-done
			if pgerr.CodeOf(err) != tc.code && !(tc.code == "" && err == nil) {
				t.Fatalf("ALTER: %v, want %q", err, tc.code)
			}
		})
	}
}
