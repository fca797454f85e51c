package executor

import (
	"fmt"
	"testing"
)

// TestAlterTypeWaitsForWriters: the rows of a transaction still running
// that inserted, deleted or locked rows of the table are what it leaves
// behind, so a rewrite waits for it (as PostgreSQL's ALTER TABLE waits
// for its lock) and copies the outcome: a committed insert is copied, a
// rolled-back one not; a committed delete drops the row, a rolled-back one
// keeps it.
func TestAlterTypeWaitsForWriters(t *testing.T) {
	e := openTestEngine(t, "")
	s := e.NewSession(nil)
	for i, tc := range []struct {
		name  string
		write string // by the other transaction
		end   string
		want  string // the ids after the ALTER
	}{
		{"insert committed", "INSERT INTO %s VALUES (4, 'd')", "COMMIT", "1,2,3,4"},
		{"insert rolled back", "INSERT INTO %s VALUES (4, 'd')", "ROLLBACK", "1,2,3"},
		{"delete committed", "DELETE FROM %s WHERE id = 2", "COMMIT", "1,3"},
		{"delete rolled back", "DELETE FROM %s WHERE id = 2", "ROLLBACK", "1,2,3"},
		{"update committed", "UPDATE %s SET id = 5 WHERE id = 2", "COMMIT", "1,3,5"},
		{"lock", "SELECT * FROM %s WHERE id = 2 FOR UPDATE", "COMMIT", "1,2,3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			table := fmt.Sprintf("aw%d", i)
			mustExec(t, s, "CREATE TABLE "+table+" (id int PRIMARY KEY, v text)")
			mustExec(t, s, "INSERT INTO "+table+" VALUES (1, 'a'), (2, 'b'), (3, 'c')")
			other := e.NewSession(nil)
			defer other.Close()
			mustExec(t, other, "BEGIN")
			mustExec(t, other, fmt.Sprintf(tc.write, table))
			done := make(chan error, 1)
			go func() {
				_, _, err := exec(t, s, "ALTER TABLE "+table+" ALTER COLUMN id TYPE bigint")
				s.Sync()
				done <- err
			}()
			mustExec(t, other, tc.end)
			if err := <-done; err != nil {
				t.Fatalf("ALTER: %v", err)
			}
			rows, _ := mustExec(t, s, "SELECT string_agg(id::text, ',' ORDER BY id), pg_typeof(min(id))::text FROM "+table)
			if got := fmt.Sprint(rows[0][0]); got != tc.want || rows[0][1] != "bigint" {
				t.Fatalf("after the ALTER: ids %s, type %v; want %s, bigint", got, rows[0][1], tc.want)
			}
			mustExec(t, s, "SET enable_seqscan = off")
			if rows, _ := mustExec(t, s, "SELECT count(*) FROM "+table+" WHERE id = 3"); rows[0][0] != int64(1) {
				t.Fatalf("index probe after the ALTER: %v", rows)
			}
			mustExec(t, s, "RESET enable_seqscan")
		})
	}
}
