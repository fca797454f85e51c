package executor

import "testing"

// TestRelationFilepath: pg_relation_filepath names the main fork's file
// of a table and of an index kept on disk, base/<relfilenode>, and is NULL
// for a relation without a file of its own.
func TestRelationFilepath(t *testing.T) {
	e := openTestEngine(t, "")
	s := e.NewSession(map[string]string{"user": "postgres"})
	defer s.Close()
	mustExec(t, s, "CREATE TABLE fpt (a int PRIMARY KEY)")
	mustExec(t, s, "CREATE VIEW fpv AS SELECT 1 AS one")
	rows, _ := mustExec(t, s, "SELECT pg_relation_filepath('fpt') = 'base/' || pg_relation_filenode('fpt'), "+
		"pg_relation_filepath('fpv') IS NULL, pg_relation_filepath('pg_class') IS NULL")
	if rows[0][0] != true || rows[0][1] != true || rows[0][2] != true {
		t.Fatalf("pg_relation_filepath: %v", rows[0])
	}
	rows, _ = mustExec(t, s, "SELECT pg_relation_filepath('fpt_pkey') = 'base/' || pg_relation_filenode('fpt_pkey')")
	if e.indexStorageDisk() && rows[0][0] != true {
		t.Fatalf("pg_relation_filepath of a disk index: %v", rows[0])
	}
}
