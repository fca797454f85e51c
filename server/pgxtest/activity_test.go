package pgxtest

import (
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// activityRow is what one session shows of another in pg_stat_activity.
type activityRow struct {
	state, query, waitEvent, backendType, appName *string
	addr                                          *string
	port                                          *int32
	xactStart, queryStart, stateChange, start     *time.Time
	xid, xmin                                     *uint32
}

func activityOf(t *testing.T, viewer *pgx.Conn, pid uint32) (activityRow, bool) {
	t.Helper()
	var r activityRow
	err := viewer.QueryRow(testCtx(t), `SELECT state, query, wait_event, backend_type, application_name,
		client_addr, client_port, xact_start, query_start, state_change, backend_start, backend_xid, backend_xmin
		FROM pg_stat_activity WHERE pid = $1`, int32(pid)).Scan(&r.state, &r.query, &r.waitEvent, &r.backendType,
		&r.appName, &r.addr, &r.port, &r.xactStart, &r.queryStart, &r.stateChange, &r.start, &r.xid, &r.xmin)
	if err == pgx.ErrNoRows {
		return r, false
	}
	if err != nil {
		t.Fatal(err)
	}
	return r, true
}

func str(p *string) string {
	if p == nil {
		return "<NULL>"
	}
	return *p
}

// TestStatActivity: pg_stat_activity shows every connection under the pid
// it announced in BackendKeyData, with the state, query, transaction and
// client PostgreSQL would show, as another session sees it.
func TestStatActivity(t *testing.T) {
	dsn := startServer(t)
	viewer := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.RuntimeParams["application_name"] = "activity-test"
	cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	a, err := pgx.ConnectConfig(testCtx(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close(testCtx(t))
	pid := a.PgConn().PID()

	var backendPID int32
	if err := a.QueryRow(testCtx(t), "SELECT pg_backend_pid()").Scan(&backendPID); err != nil {
		t.Fatal(err)
	}
	if uint32(backendPID) != pid {
		t.Fatalf("pg_backend_pid() = %d, BackendKeyData said %d", backendPID, pid)
	}

	// The viewer's own row: active, running the query that reads the view.
	var state, query, ownWait *string
	q := "SELECT state, query, wait_event FROM pg_stat_activity WHERE pid = pg_backend_pid()"
	if err := viewer.QueryRow(testCtx(t), q).Scan(&state, &query, &ownWait); err != nil {
		t.Fatal(err)
	}
	if str(state) != "active" || str(query) != q || ownWait != nil {
		t.Fatalf("own row: state %s, query %q, wait_event %s", str(state), str(query), str(ownWait))
	}

	r, ok := activityOf(t, viewer, pid)
	if !ok {
		t.Fatalf("pid %d not in pg_stat_activity", pid)
	}
	if str(r.state) != "idle" || str(r.query) != "SELECT pg_backend_pid()" || str(r.waitEvent) != "ClientRead" ||
		str(r.backendType) != "client backend" || str(r.appName) != "activity-test" || r.xactStart != nil ||
		r.xid != nil || r.queryStart == nil || r.start == nil || r.start.After(*r.queryStart) {
		t.Fatalf("idle session: %+v (state %s, query %q, wait %s, app %s)", r, str(r.state), str(r.query), str(r.waitEvent), str(r.appName))
	}
	host, port, _ := net.SplitHostPort(a.PgConn().Conn().LocalAddr().String())
	if str(r.addr) != host || r.port == nil || strconv.Itoa(int(*r.port)) != port {
		t.Fatalf("client_addr %s, client_port %v; the client is at %s:%s", str(r.addr), r.port, host, port)
	}

	// In a transaction block that has written: idle in transaction, with
	// its xid and the time it began.
	mustExec(t, a, "CREATE TABLE act_t (id int)")
	mustExec(t, a, "BEGIN")
	ins := "INSERT INTO act_t VALUES (1)"
	mustExec(t, a, ins)
	r, _ = activityOf(t, viewer, pid)
	if str(r.state) != "idle in transaction" || str(r.query) != ins || r.xactStart == nil || r.xid == nil ||
		r.xactStart.After(*r.queryStart) || r.stateChange.Before(*r.queryStart) {
		t.Fatalf("idle in transaction: %+v (state %s, query %q)", r, str(r.state), str(r.query))
	}
	var now time.Time
	if err := a.QueryRow(testCtx(t), "SELECT now()").Scan(&now); err != nil {
		t.Fatal(err)
	}
	if !now.Equal(*r.xactStart) {
		t.Fatalf("xact_start %v, the transaction's now() %v", *r.xactStart, now)
	}

	// A failed statement in the block: aborted, the failed query shown.
	if _, err := a.Exec(testCtx(t), "SELECT 1/0"); err == nil {
		t.Fatal("1/0 succeeded")
	}
	r, _ = activityOf(t, viewer, pid)
	if str(r.state) != "idle in transaction (aborted)" || str(r.query) != "SELECT 1/0" {
		t.Fatalf("aborted block: state %s, query %q", str(r.state), str(r.query))
	}
	mustExec(t, a, "ROLLBACK")
	r, _ = activityOf(t, viewer, pid)
	if str(r.state) != "idle" || r.xactStart != nil || r.xid != nil || r.xmin != nil {
		t.Fatalf("after ROLLBACK: state %s, xact_start %v, backend_xid %v", str(r.state), r.xactStart, r.xid)
	}

	// The extended protocol shows the statement's text; SET
	// application_name shows at once.
	b := connect(t, dsn, pgx.QueryExecModeCacheStatement)
	sel := "SELECT count(*) FROM act_t WHERE id > $1"
	var n int
	if err := b.QueryRow(testCtx(t), sel, 0).Scan(&n); err != nil {
		t.Fatal(err)
	}
	mustExec(t, b, "SET application_name = 'renamed'")
	if err := b.QueryRow(testCtx(t), sel, 0).Scan(&n); err != nil {
		t.Fatal(err)
	}
	r, _ = activityOf(t, viewer, b.PgConn().PID())
	if str(r.state) != "idle" || str(r.query) != sel || str(r.appName) != "renamed" {
		t.Fatalf("extended protocol: state %s, query %q, application_name %s", str(r.state), str(r.query), str(r.appName))
	}

	// A closed connection leaves the view.
	if err := a.Close(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, ok := activityOf(t, viewer, pid); !ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("pid %d still in pg_stat_activity after its connection closed", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestSignalBackend: pg_cancel_backend cancels another connection's
// running statement (57014, the connection stays usable);
// pg_terminate_backend with a timeout ends another connection (FATAL 57P01)
// and returns once it is gone from pg_stat_activity; an unknown pid gives
// false and PostgreSQL's warning.
func TestSignalBackend(t *testing.T) {
	dsn := startServer(t)
	admin := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
	victim := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
	pid := int32(victim.PgConn().PID())

	errc := make(chan error, 1)
	go func() {
		_, err := victim.Exec(testCtx(t), "SELECT pg_sleep(30)")
		errc <- err
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		r, _ := activityOf(t, admin, uint32(pid))
		if str(r.state) == "active" && str(r.query) == "SELECT pg_sleep(30)" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the sleep never showed as active in pg_stat_activity")
		}
		time.Sleep(5 * time.Millisecond)
	}
	var ok bool
	if err := admin.QueryRow(testCtx(t), "SELECT pg_cancel_backend($1)", pid).Scan(&ok); err != nil || !ok {
		t.Fatalf("pg_cancel_backend: %v, %v", ok, err)
	}
	select {
	case err := <-errc:
		if pgCode(err) != "57014" {
			t.Fatalf("cancelled sleep: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("pg_cancel_backend did not cancel the sleep")
	}
	var one int
	if err := victim.QueryRow(testCtx(t), "SELECT 1").Scan(&one); err != nil {
		t.Fatalf("the cancelled connection: %v", err)
	}

	if err := admin.QueryRow(testCtx(t), "SELECT pg_terminate_backend($1, 10000)", pid).Scan(&ok); err != nil || !ok {
		t.Fatalf("pg_terminate_backend: %v, %v", ok, err)
	}
	if _, found := activityOf(t, admin, uint32(pid)); found {
		t.Fatal("pg_terminate_backend with a timeout returned before the connection was gone")
	}
	if _, err := victim.Exec(testCtx(t), "SELECT 1"); err == nil {
		t.Fatal("the terminated connection still runs statements")
	}

	var warned []string
	var fresh bool
	c2cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	c2cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { warned = append(warned, n.Severity+" "+n.Code+" "+n.Message) }
	c2, err := pgx.ConnectConfig(testCtx(t), c2cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close(testCtx(t))
	if err := c2.QueryRow(testCtx(t), "SELECT pg_cancel_backend(1)").Scan(&fresh); err != nil || fresh {
		t.Fatalf("pg_cancel_backend(1): %v, %v", fresh, err)
	}
	if len(warned) != 1 || warned[0] != "WARNING 01000 PID 1 is not a PostgreSQL backend process" {
		t.Fatalf("notices: %q", warned)
	}
	if _, err := c2.Exec(testCtx(t), "SELECT pg_terminate_backend(1, -1)"); pgCode(err) != "22023" {
		t.Fatalf("negative timeout: %v", err)
	}
}

// TestStatActivityLockWait: a statement waiting for another transaction's
// row lock shows wait event Lock / transactionid until the holder ends.
func TestStatActivityLockWait(t *testing.T) {
	dsn := startServer(t)
	viewer := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
	holder := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
	waiter := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
	done := blockedUpdate(t, holder, waiter, "lw")
	pid := int32(waiter.PgConn().PID())
	var typ, ev *string
	deadline := time.Now().Add(10 * time.Second)
	for {
		if err := viewer.QueryRow(testCtx(t), "SELECT wait_event_type, wait_event FROM pg_stat_activity WHERE pid = $1", pid).Scan(&typ, &ev); err != nil {
			t.Fatal(err)
		}
		if str(typ) == "Lock" && str(ev) == "transactionid" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the blocked UPDATE shows wait event %s / %s", str(typ), str(ev))
		}
		time.Sleep(5 * time.Millisecond)
	}
	mustExec(t, holder, "commit")
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := viewer.QueryRow(testCtx(t), "SELECT wait_event_type, wait_event FROM pg_stat_activity WHERE pid = $1", pid).Scan(&typ, &ev); err != nil {
		t.Fatal(err)
	}
	if str(typ) != "Client" || str(ev) != "ClientRead" {
		t.Fatalf("after the wait: %s / %s", str(typ), str(ev))
	}
}
