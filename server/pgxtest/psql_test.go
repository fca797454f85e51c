package pgxtest

import (
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"

	"minipg/internal/testutil"
)

// psqlScript exercises psql's simple-protocol path, COPY FROM STDIN inline
// data, errors in a transaction block and notices.
const psqlScript = `create table psql_t (id integer primary key, v text);
copy psql_t from stdin;
1	a
2	\N
\.
select id, v from psql_t order by id;
begin;
insert into psql_t values (1, 'dup');
select 1;
commit;
commit;
select count(*), count(v) from psql_t;
drop table psql_t;
`

const psqlWant = `CREATE TABLE
COPY 2
1|a
2|
BEGIN
psql:<stdin>:8: ERROR:  duplicate key value violates unique constraint "psql_t_pkey"
DETAIL:  Key (id)=(1) already exists.
psql:<stdin>:9: ERROR:  current transaction is aborted, commands ignored until end of transaction block
ROLLBACK
psql:<stdin>:11: WARNING:  there is no transaction in progress
COMMIT
2|1
DROP TABLE`

func runPsql(t *testing.T, dsn string) string {
	t.Helper()
	psql, err := exec.LookPath("psql")
	if err != nil {
		t.Skip("psql not installed")
	}
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(psql, "-X", "-A", "-t", "-f", "-", dsn)
	cmd.Stdin = strings.NewReader(psqlScript)
	cmd.Env = append(os.Environ(), "PGCONNECT_TIMEOUT=10", "PGHOST="+u.Hostname())
	out, _ := cmd.CombinedOutput()
	return strings.TrimSpace(string(out))
}

func TestPsql(t *testing.T) {
	if got := runPsql(t, startServer(t)); got != psqlWant {
		t.Fatalf("got:\n%s\nwant:\n%s", got, psqlWant)
	}
}

func TestPsqlPostgres(t *testing.T) {
	dsn := testutil.ReferencePostgres(t, "MINIPG_PG_DSN", "drop table if exists psql_t") // left by an interrupted run
	got := runPsql(t, dsn)
	if got != psqlWant {
		t.Fatalf("got:\n%s\nwant:\n%s", got, psqlWant)
	}
}
