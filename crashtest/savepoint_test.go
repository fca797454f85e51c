package crashtest

import (
	"testing"
)

// TestSavepointCrash: after kill -9, a committed transaction's rows are
// there as its savepoints left them (rows of released subtransactions
// kept, of rolled-back ones gone, tables created in a rolled-back one
// gone, dropped in a released one dropped), and an open transaction's
// released subtransactions are gone with it.
func TestSavepointCrash(t *testing.T) {
	dir := t.TempDir()
	settings := []string{"checkpoint_timeout=1h", "max_wal_size=1GB"}
	s := startServer(t, dir, settings...)
	c := connect(t, s)
	for _, q := range []string{
		"CREATE TABLE sp_rows (id int PRIMARY KEY, v text)",
		"CREATE TABLE sp_doomed (a int)",
		"INSERT INTO sp_rows SELECT g, 'loaded' FROM generate_series(1, 100) g",
		"BEGIN",
		"UPDATE sp_rows SET v = 'top' WHERE id <= 10",
		"SAVEPOINT a",
		"INSERT INTO sp_rows SELECT g, 'released' FROM generate_series(101, 150) g",
		"DROP TABLE sp_doomed",
		"SAVEPOINT b",
		"DELETE FROM sp_rows WHERE id > 50",
		"CREATE TABLE sp_gone (a int)",
		"ROLLBACK TO b",
		"UPDATE sp_rows SET v = 'in b again' WHERE id = 11",
		"RELEASE a",
		"SAVEPOINT c",
		"UPDATE sp_rows SET v = 'rolled back' WHERE id <= 20",
		"ROLLBACK TO c",
		"COMMIT",
	} {
		exec1(t, c, q)
	}
	c2 := connect(t, s)
	for _, q := range []string{
		"BEGIN",
		"SAVEPOINT x",
		"INSERT INTO sp_rows SELECT g, 'open' FROM generate_series(201, 220) g",
		"RELEASE x",
	} {
		exec1(t, c2, q)
	}
	s.kill()

	s = startServer(t, dir, settings...)
	c = connect(t, s)
	for q, want := range map[string]int{
		"SELECT count(*) FROM sp_rows":                            150,
		"SELECT count(*) FROM sp_rows WHERE v = 'top'":            10,
		"SELECT count(*) FROM sp_rows WHERE v = 'released'":       50,
		"SELECT count(*) FROM sp_rows WHERE v = 'in b again'":     1,
		"SELECT count(*) FROM sp_rows WHERE v = 'rolled back'":    0,
		"SELECT count(*) FROM sp_rows WHERE id > 200":             0,
		"SELECT count(*) FROM pg_class WHERE relname LIKE 'sp_%'": 2, // sp_rows and its key
	} {
		if n := queryInt(t, c, q); n != want {
			t.Errorf("%s after the crash: %d, want %d", q, n, want)
		}
	}
	exec1(t, c, "INSERT INTO sp_rows VALUES (201, 'key free')")
	s.stop(t)
}
