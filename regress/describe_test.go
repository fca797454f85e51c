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
