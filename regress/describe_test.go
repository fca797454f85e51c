package regress

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// TestDescribeFSMPolicy checks what PostgreSQL cannot produce an expected
// file for (it rejects fsm_policy): psql's \d+ shows a table's fsm_policy
// next to its fillfactor under "Options:", read from pg_class.reloptions.
func TestDescribeFSMPolicy(t *testing.T) {
	psql := psqlBinary()
	checkPsql(t, psql)
	port := startServer(t)
	run := func(script string) string {
		cmd := exec.Command(psql, "-X", "-q", "-h", "127.0.0.1", "-p", fmt.Sprint(port), "-U", "postgres", "-d", "postgres")
		cmd.Stdin = strings.NewReader(script)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("psql: %v\n%s", err, out)
		}
		return string(out)
	}
	out := run(`CREATE TABLE h (id int PRIMARY KEY, v text) WITH (fillfactor = 80, fsm_policy = classic);
ALTER TABLE h SET (fsm_policy = locality);
\d+ h
SELECT reloptions FROM pg_class WHERE relname = 'h';
`)
	for _, want := range []string{
		`Table "public.h"`,
		`"h_pkey" PRIMARY KEY, btree (id)`,
		"Access method: heap",
		"Options: fillfactor=80, fsm_policy=locality",
		"{fillfactor=80,fsm_policy=locality}",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestDescribeExtensions: psql's \dx lists the extensions CREATE EXTENSION
// installed, with their versions, and forgets one DROP EXTENSION removed.
// (PostgreSQL always lists plpgsql too, which minipg does not have, so no
// expected file from PostgreSQL fits.)
func TestDescribeExtensions(t *testing.T) {
	psql := psqlBinary()
	checkPsql(t, psql)
	port := startServer(t)
	cmd := exec.Command(psql, "-X", "-q", "-h", "127.0.0.1", "-p", fmt.Sprint(port), "-U", "postgres", "-d", "postgres")
	cmd.Stdin = strings.NewReader(`CREATE EXTENSION pageinspect;
CREATE EXTENSION pg_freespacemap;
\dx
DROP EXTENSION pageinspect;
\dx
`)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("psql: %v\n%s", err, out)
	}
	lists := strings.Split(string(out), "List of installed extensions")
	if len(lists) != 3 {
		t.Fatalf("two \\dx listings expected:\n%s", out)
	}
	for i, want := range [][]string{{"pageinspect     | 1.11", "pg_freespacemap | 1.2", "(2 rows)"}, {"pg_freespacemap | 1.2", "(1 row)"}} {
		for _, w := range want {
			if !strings.Contains(lists[i+1], w) {
				t.Errorf("listing %d lacks %q:\n%s", i+1, w, lists[i+1])
			}
		}
	}
	if strings.Contains(lists[2], "pageinspect") {
		t.Errorf("dropped extension still listed:\n%s", lists[2])
	}
}
