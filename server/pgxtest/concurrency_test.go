package pgxtest

import (
	"fmt"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestConcurrentClients: 32 connections insert their own rows and update
// the same few rows at once; no row and no update may be lost.
func TestConcurrentClients(t *testing.T) {
	const clients, perClient, hot = 32, 20, 8
	dsn := startServer(t)
	setup := connect(t, dsn, pgx.QueryExecModeCacheStatement)
	mustExec(t, setup, "create table counters (id integer primary key, n integer not null)")
	for i := range hot {
		mustExec(t, setup, "insert into counters values ($1, 0)", i)
	}
	conns := make([]*pgx.Conn, clients)
	for i := range conns {
		mode := pgx.QueryExecModeCacheStatement
		if i%2 == 1 {
			mode = pgx.QueryExecModeSimpleProtocol
		}
		conns[i] = connect(t, dsn, mode)
	}
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for c, conn := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := testCtx(t)
			for i := range perClient {
				if _, err := conn.Exec(ctx, "insert into counters values ($1, 0)", 1000+c*perClient+i); err != nil {
					errs <- fmt.Errorf("client %d insert: %w", c, err)
					return
				}
				tag, err := conn.Exec(ctx, "update counters set n = n + 1 where id = $1", (c+i)%hot)
				if err != nil || tag.String() != "UPDATE 1" {
					errs <- fmt.Errorf("client %d update: %v %v", c, tag, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	var rows, sum int64
	if err := setup.QueryRow(testCtx(t), "select count(*), sum(n) from counters").Scan(&rows, &sum); err != nil {
		t.Fatal(err)
	}
	if rows != hot+clients*perClient || sum != clients*perClient {
		t.Fatalf("rows %d (want %d), sum %d (want %d)", rows, hot+clients*perClient, sum, clients*perClient)
	}
}
