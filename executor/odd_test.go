package executor

import (
	"strings"
	"testing"

	"minipg/pgerr"
)

// TestOddStatements runs unusual statements: each must succeed or fail
// with a proper SQLSTATE, never an internal error.
func TestOddStatements(t *testing.T) {
	e := openTestEngine(t, "")
	defer e.Close()
	s := e.NewSession(nil)
	mustExec(t, s, "CREATE TABLE o (id int PRIMARY KEY, t text, n numeric(6,2), f float8, b bool, d date, ts timestamp, c char(3))")
	mustExec(t, s, "INSERT INTO o VALUES (1, 'a', 1.5, 2.5, true, '2024-01-01', '2024-01-01 00:00:00', 'x'), (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL)")
	for _, q := range []string{
		"SELECT * FROM o WHERE id = NULL",
		"SELECT NULL, NULL::int, NULL + 1",
		"SELECT id FROM o WHERE b",
		"SELECT id FROM o WHERE NOT b",
		"SELECT 'a' || 1, 1 || 'a'",
		"SELECT count(*) FROM o GROUP BY b ORDER BY count(*) DESC",
		"SELECT t FROM o ORDER BY n NULLS FIRST",
		"SELECT sum(f), avg(f), min(d), max(ts), min(c), max(b::text) FROM o",
		"SELECT sum(b) FROM o",
		"SELECT id FROM o WHERE d > '2023-12-31' AND ts < '2025-01-01'",
		"SELECT id FROM o WHERE c = 'x'",
		"SELECT id FROM o WHERE c = 'x  '",
		"SELECT 1 FROM o HAVING count(*) > 1",
		"SELECT DISTINCT b FROM o",
		"SELECT id, count(*) FROM o GROUP BY 1 HAVING id > 0",
		"SELECT id FROM o GROUP BY 2",
		"SELECT id FROM o ORDER BY 3",
		"SELECT * FROM o LIMIT -1",
		"SELECT * FROM o OFFSET -1",
		"SELECT * FROM o LIMIT NULL",
		"SELECT * FROM o WHERE 1",
		"SELECT * FROM o WHERE id IN ()",
		"SELECT count(*, id) FROM o",
		"SELECT count(DISTINCT *) FROM o",
		"SELECT sum(id) OVER () FROM o",
		"SELECT max(max(id)) FROM o",
		"SELECT * FROM o WHERE id = (SELECT 1)",
		"SELECT CASE WHEN id = 1 THEN 'a' END FROM o",
		"SELECT id::bool FROM o",
		"SELECT t::int FROM o",
		"SELECT 1/0.0",
		"SELECT -9223372036854775808::int8 - 1",
		"SELECT 32767::int2 + 1::int2",
		"SELECT '1e400'::float8",
		"SELECT 'NaN'::numeric + 1",
		"SELECT $1",
		"SELECT ctid FROM o WHERE ctid > '(0,1)'",
		"UPDATE o SET id = id WHERE ctid = '(0,1)'",
		"UPDATE o SET ctid = '(0,1)'",
		"INSERT INTO o (id, id) VALUES (3, 3)",
		"INSERT INTO o DEFAULT VALUES",
		"INSERT INTO o (id) SELECT id + 10 FROM o RETURNING id, ctid",
		"DELETE FROM o WHERE id > 10 RETURNING *",
		"COPY o TO STDOUT",
		"COPY o FROM '/etc/passwd'",
		"VACUUM FULL o",
		"VACUUM o, nosuch",
		"ANALYZE o",
		"EXPLAIN SELECT 1",
		"PREPARE x AS SELECT 1",
		"SAVEPOINT a",
		"BEGIN ISOLATION LEVEL SERIALIZABLE",
		"SET TRANSACTION ISOLATION LEVEL READ COMMITTED",
		"SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL READ COMMITTED",
		"SET client_encoding TO 'LATIN1'",
		"SET TIME ZONE 'UTC'",
		"SHOW TIME ZONE",
		"SHOW TRANSACTION ISOLATION LEVEL",
		"SHOW ALL",
		"RESET ALL",
		"DISCARD ALL",
		"CREATE TEMP TABLE tt (a int)",
		"CREATE TABLE s.t (a int)",
		"CREATE TABLE arr (a int[])",
		"CREATE TABLE ser (a serial)",
		"CREATE TABLE chk (a int CHECK (a > 0))",
		"CREATE TABLE u (a int UNIQUE, b int, UNIQUE (a, b))",
		"CREATE INDEX ON o (t)",
		"CREATE INDEX o_h ON o USING hash (t)",
		"CREATE INDEX o_e ON o ((id + 1))",
		"DROP INDEX o_t_idx",
		"DROP TABLE o, nosuch",
		"TRUNCATE o",
		"SELECT * FROM pg_class",
		"SELECT current_user, current_database(), current_schema(), pg_backend_pid() > 0, now() IS NOT NULL, current_timestamp IS NOT NULL",
		"SELECT lower(NULL), upper(1), length(1)",
		"SELECT abs(-1.5), abs('x')",
		"SELECT o.* FROM o",
		"SELECT x.* FROM o",
		"SELECT * FROM o a JOIN o b USING (id)",
		"SELECT * FROM o a JOIN o b ON true WHERE a.id < b.id",
		"SELECT 'abc' LIKE 'a%', 'abc' NOT LIKE '_b_', 'ABC' ILIKE 'a%', 'a%' LIKE 'a\\%'",
		"SELECT 1 WHERE 1 LIKE 1",
		"SELECT id FROM o WHERE id BETWEEN SYMMETRIC 2 AND 1",
		"SELECT id IS DISTINCT FROM 1 FROM o",
		"SELECT coalesce(t, 'none'), coalesce(n, 0), coalesce(NULL, NULL) FROM o",
		"SELECT coalesce(t, 1) FROM o",
		"ALTER TABLE o SET (fillfactor = 90, fsm_policy = classic)",
		"ALTER TABLE o RESET (fillfactor, nosuch)",
		"ALTER TABLE o RENAME TO p",
	} {
		p, err := s.Prepare(q, nil)
		if err == nil && p != nil {
			if p.IsCopyFrom {
				continue
			}
			params := make([]any, len(p.ParamTypes))
			_, _, err = exec(t, s, q, params...)
		}
		s.Sync()
		if err != nil && (pgerr.CodeOf(err) == pgerr.InternalError || pgerr.CodeOf(err) == "") {
			t.Errorf("%s: %v", q, err)
		}
		if testing.Verbose() {
			msg := "ok"
			if err != nil {
				msg = string(pgerr.CodeOf(err)) + " " + err.Error()
			}
			t.Logf("%-70s %s", strings.ReplaceAll(q, "\n", " "), msg)
		}
	}
}
