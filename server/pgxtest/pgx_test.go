package pgxtest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"minipg/internal/testserver"
)

// startServer runs minipg on a fresh data directory and returns its DSN.
func startServer(t testing.TB) string { return testserver.Start(t) }

func connect(t *testing.T, dsn string, mode pgx.QueryExecMode) *pgx.Conn {
	t.Helper()
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.DefaultQueryExecMode = mode
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func mustExec(t *testing.T, conn *pgx.Conn, sql string, args ...any) pgconn.CommandTag {
	t.Helper()
	tag, err := conn.Exec(testCtx(t), sql, args...)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return tag
}

func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

var modes = []pgx.QueryExecMode{
	pgx.QueryExecModeCacheStatement, // the default: prepared, binary formats
	pgx.QueryExecModeCacheDescribe,
	pgx.QueryExecModeDescribeExec,
	pgx.QueryExecModeExec,
	pgx.QueryExecModeSimpleProtocol,
}

// row is one row of the all-types table.
type row struct {
	I2  int16
	I4  int32
	I8  int64
	F4  float32
	F8  float64
	B   bool
	T   string
	VC  string
	C   string
	N   float64
	D   time.Time
	TS  time.Time
	Nil *int32
}

// TestTypesRoundTrip writes and reads every supported type in each exec
// mode: parameters and results go through text (simple protocol, exec) and
// binary (cached statements) encodings.
func TestTypesRoundTrip(t *testing.T) {
	dsn := startServer(t)
	for i, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			conn := connect(t, dsn, mode)
			table := fmt.Sprintf("all_types_%d", i)
			mustExec(t, conn, "create table "+table+` (id integer primary key, i2 smallint, i4 integer, i8 bigint,
				f4 real, f8 double precision, b boolean, t text, vc varchar(10), c char(3), n numeric(10,2),
				d date, ts timestamp, nul integer)`)
			want := row{I2: -7, I4: 1 << 30, I8: -1 << 40, F4: 1.5, F8: 0.1, B: true, T: "héllo 'x'", VC: "varchar", C: "ab ",
				N: 12.35, D: time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC), TS: time.Date(2024, 2, 29, 13, 14, 15, 123456000, time.UTC)}
			tag := mustExec(t, conn, "insert into "+table+" values (1, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
				want.I2, want.I4, want.I8, want.F4, want.F8, want.B, want.T, want.VC, "ab", 12.345, want.D, want.TS, nil)
			if tag.String() != "INSERT 0 1" {
				t.Fatalf("tag %q", tag)
			}
			var got row
			err := conn.QueryRow(testCtx(t), "select i2, i4, i8, f4, f8, b, t, vc, c, n, d, ts, nul from "+table+" where id = $1", 1).
				Scan(&got.I2, &got.I4, &got.I8, &got.F4, &got.F8, &got.B, &got.T, &got.VC, &got.C, &got.N, &got.D, &got.TS, &got.Nil)
			if err != nil {
				t.Fatal(err)
			}
			got.D, got.TS = got.D.UTC(), got.TS.UTC()
			if got != want {
				t.Fatalf("got  %+v\nwant %+v", got, want)
			}
			var text string
			if err := conn.QueryRow(testCtx(t), "select n::text from "+table).Scan(&text); err != nil || text != "12.35" {
				t.Fatalf("numeric text %q %v", text, err)
			}
		})
	}
}

func TestQueriesAndTags(t *testing.T) {
	dsn := startServer(t)
	conn := connect(t, dsn, pgx.QueryExecModeCacheStatement)
	ctx := testCtx(t)
	if err := conn.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	mustExec(t, conn, "create table kv (k integer primary key, v text)")
	if tag := mustExec(t, conn, "insert into kv values (1, 'a'), (2, 'b'), (3, 'c')"); tag.String() != "INSERT 0 3" {
		t.Fatalf("tag %q", tag)
	}
	if tag := mustExec(t, conn, "update kv set v = v || $1 where k >= $2", "!", 2); tag.String() != "UPDATE 2" {
		t.Fatalf("tag %q", tag)
	}
	if tag := mustExec(t, conn, "delete from kv where k = $1", 1); tag.String() != "DELETE 1" {
		t.Fatalf("tag %q", tag)
	}
	rows, err := conn.Query(ctx, "select k, v from kv order by k")
	if err != nil {
		t.Fatal(err)
	}
	got, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (string, error) {
		var k int
		var v string
		err := r.Scan(&k, &v)
		return fmt.Sprintf("%d=%s", k, v), err
	})
	if err != nil || fmt.Sprint(got) != "[2=b! 3=c!]" {
		t.Fatalf("%v %v", got, err)
	}
	var n int64
	if err := conn.QueryRow(ctx, "select count(*) from kv").Scan(&n); err != nil || n != 2 {
		t.Fatalf("count %d %v", n, err)
	}
	// Several statements in one simple-protocol message.
	if _, err := conn.Exec(ctx, "insert into kv values (10, 'x'); insert into kv values (11, 'y')"); err != nil {
		t.Fatal(err)
	}
	if err := conn.QueryRow(ctx, "select count(*) from kv").Scan(&n); err != nil || n != 4 {
		t.Fatalf("count %d %v", n, err)
	}
}

func TestBatch(t *testing.T) {
	dsn := startServer(t)
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeSimpleProtocol} {
		t.Run(mode.String(), func(t *testing.T) {
			conn := connect(t, dsn, mode)
			table := "batch_" + fmt.Sprint(int(mode))
			mustExec(t, conn, "create table "+table+" (id integer primary key, v integer)")
			b := &pgx.Batch{}
			for i := range 10 {
				b.Queue("insert into "+table+" values ($1, $2)", i, i*i)
			}
			b.Queue("select sum(v) from " + table)
			b.Queue("insert into "+table+" values ($1, $2)", 0, 0) // duplicate key
			b.Queue("select 1")
			br := conn.SendBatch(testCtx(t), b)
			for range 10 {
				if _, err := br.Exec(); err != nil {
					t.Fatal(err)
				}
			}
			var sum int64
			if err := br.QueryRow().Scan(&sum); err != nil || sum != 285 {
				t.Fatalf("sum %d %v", sum, err)
			}
			if _, err := br.Exec(); pgCode(err) != "23505" {
				t.Fatalf("duplicate: %v", err)
			}
			_ = br.Close()
			// The batch ran in one implicit transaction: the error rolled it back.
			var n int64
			if err := conn.QueryRow(testCtx(t), "select count(*) from "+table).Scan(&n); err != nil || n != 0 {
				t.Fatalf("count after failed batch %d %v", n, err)
			}
		})
	}
}

func TestCopyFrom(t *testing.T) {
	dsn := startServer(t)
	conn := connect(t, dsn, pgx.QueryExecModeCacheStatement)
	mustExec(t, conn, "create table cp (id integer primary key, name text, amount numeric(8,2), at timestamp)")
	at := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	const n = 5000
	src := pgx.CopyFromSlice(n, func(i int) ([]any, error) {
		var name any = fmt.Sprintf("name %d", i)
		if i%100 == 0 {
			name = nil
		}
		return []any{i, name, float64(i) / 4, at}, nil
	})
	count, err := conn.CopyFrom(testCtx(t), pgx.Identifier{"cp"}, []string{"id", "name", "amount", "at"}, src)
	if err != nil || count != n {
		t.Fatalf("CopyFrom: %d %v", count, err)
	}
	var cnt, nulls int64
	var sum float64
	if err := conn.QueryRow(testCtx(t), "select count(*), count(*) - count(name), sum(amount) from cp").Scan(&cnt, &nulls, &sum); err != nil {
		t.Fatal(err)
	}
	if cnt != n || nulls != n/100 || sum != float64(n*(n-1)/2)/4 {
		t.Fatalf("count %d nulls %d sum %v", cnt, nulls, sum)
	}
	// A duplicate key fails the COPY; nothing of it stays; the connection goes on.
	_, err = conn.CopyFrom(testCtx(t), pgx.Identifier{"cp"}, []string{"id"}, pgx.CopyFromRows([][]any{{n + 1}, {1}}))
	if pgCode(err) != "23505" {
		t.Fatalf("duplicate in COPY: %v", err)
	}
	if err := conn.QueryRow(testCtx(t), "select count(*) from cp").Scan(&cnt); err != nil || cnt != n {
		t.Fatalf("count %d %v", cnt, err)
	}
	// Text COPY through the simple protocol.
	res, err := conn.PgConn().CopyFrom(testCtx(t), stringsReader("90001\tx\t1.5\t2025-01-02 03:04:05\n90002\t\\N\t2\t2025-01-02 03:04:05\n"),
		"copy cp from stdin")
	if err != nil || res.String() != "COPY 2" {
		t.Fatalf("text copy: %v %v", res, err)
	}
}

func TestTransactions(t *testing.T) {
	dsn := startServer(t)
	conn := connect(t, dsn, pgx.QueryExecModeCacheStatement)
	other := connect(t, dsn, pgx.QueryExecModeCacheStatement)
	ctx := testCtx(t)
	mustExec(t, conn, "create table acct (id integer primary key, bal integer)")
	mustExec(t, conn, "insert into acct values (1, 100)")

	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "update acct set bal = bal - 10 where id = 1"); err != nil {
		t.Fatal(err)
	}
	var bal int
	if err := other.QueryRow(ctx, "select bal from acct where id = 1").Scan(&bal); err != nil || bal != 100 {
		t.Fatalf("uncommitted visible: %d %v", bal, err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := other.QueryRow(ctx, "select bal from acct where id = 1").Scan(&bal); err != nil || bal != 90 {
		t.Fatalf("after commit: %d %v", bal, err)
	}

	tx, _ = conn.Begin(ctx)
	_, _ = tx.Exec(ctx, "update acct set bal = 0 where id = 1")
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if err := conn.QueryRow(ctx, "select bal from acct where id = 1").Scan(&bal); err != nil || bal != 90 {
		t.Fatalf("after rollback: %d %v", bal, err)
	}

	// An error fails the block (25P02) and COMMIT answers ROLLBACK.
	mustExec(t, conn, "begin")
	if _, err := conn.Exec(ctx, "insert into acct values (1, 1)"); pgCode(err) != "23505" {
		t.Fatalf("duplicate: %v", err)
	}
	if conn.PgConn().TxStatus() != 'E' {
		t.Fatalf("tx status %c", conn.PgConn().TxStatus())
	}
	if _, err := conn.Exec(ctx, "select 1"); pgCode(err) != "25P02" {
		t.Fatalf("in failed block: %v", err)
	}
	if tag := mustExec(t, conn, "commit"); tag.String() != "ROLLBACK" {
		t.Fatalf("commit of failed block: %q", tag)
	}
	if conn.PgConn().TxStatus() != 'I' {
		t.Fatalf("tx status %c", conn.PgConn().TxStatus())
	}
}

func TestErrors(t *testing.T) {
	dsn := startServer(t)
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeSimpleProtocol} {
		t.Run(mode.String(), func(t *testing.T) {
			conn := connect(t, dsn, mode)
			ctx := testCtx(t)
			_, err := conn.Exec(ctx, "selec 1")
			var pe *pgconn.PgError
			if !errors.As(err, &pe) || pe.Code != "42601" || pe.Position != 1 || pe.Severity != "ERROR" {
				t.Fatalf("syntax error: %#v", err)
			}
			if _, err := conn.Exec(ctx, "select 1/0"); pgCode(err) != "22012" {
				t.Fatalf("division by zero: %v", err)
			}
			if _, err := conn.Exec(ctx, "select * from no_such_table"); pgCode(err) != "42P01" {
				t.Fatalf("undefined table: %v", err)
			}
			var one int
			if err := conn.QueryRow(ctx, "select 1").Scan(&one); err != nil || one != 1 {
				t.Fatalf("after errors: %v", err)
			}
		})
	}
}

// TestErrorFields: constraint violations name their schema, table, column
// or constraint in the ErrorResponse, as PostgreSQL 15 does (checked
// against it), so that a client can tell which one failed without parsing
// the message.
func TestErrorFields(t *testing.T) {
	conn := connect(t, startServer(t), pgx.QueryExecModeCacheStatement)
	ctx := testCtx(t)
	mustExec(t, conn, "CREATE TABLE ef (a int PRIMARY KEY, b text NOT NULL, c int)")
	mustExec(t, conn, "CREATE UNIQUE INDEX ef_c ON ef (c)")
	mustExec(t, conn, "INSERT INTO ef VALUES (1, 'x', 1)")
	mustExec(t, conn, "CREATE TABLE ef2 (a int, b int)")
	mustExec(t, conn, "INSERT INTO ef2 VALUES (1, NULL), (1, 2)")
	for _, c := range []struct {
		sql, code, table, column, constraint string
	}{
		{"INSERT INTO ef VALUES (1, 'y', 2)", "23505", "ef", "", "ef_pkey"},
		{"INSERT INTO ef VALUES (2, NULL, 2)", "23502", "ef", "b", ""},
		{"INSERT INTO ef VALUES (3, 'z', 1)", "23505", "ef", "", "ef_c"},
		{"UPDATE ef SET b = NULL", "23502", "ef", "b", ""},
		{"ALTER TABLE ef2 ADD PRIMARY KEY (b)", "23502", "ef2", "b", ""},
		{"ALTER TABLE ef2 ADD PRIMARY KEY (a)", "23505", "ef2", "", "ef2_pkey"},
		{"CREATE UNIQUE INDEX ef2_a ON ef2 (a)", "23505", "ef2", "", "ef2_a"},
		{"SELECT 1/0", "22012", "", "", ""},
	} {
		_, err := conn.Exec(ctx, c.sql)
		var pe *pgconn.PgError
		schema := ""
		if c.table != "" {
			schema = "public"
		}
		if !errors.As(err, &pe) || pe.Code != c.code || pe.SchemaName != schema || pe.TableName != c.table ||
			pe.ColumnName != c.column || pe.ConstraintName != c.constraint {
			t.Errorf("%s: %#v", c.sql, err)
		}
	}
}

// TestCancel cancels a statement blocked on a row lock with CancelRequest
// (what pgx sends when a query's context ends): it fails with 57014, the
// row keeps the holder's value and the cancelled connection goes on. A
// cancel that arrives before the statement starts is ignored, as in
// PostgreSQL, so the request is repeated until the statement ends.
func TestCancel(t *testing.T) {
	dsn := startServer(t)
	holder := connect(t, dsn, pgx.QueryExecModeCacheStatement)
	waiter := connect(t, dsn, pgx.QueryExecModeCacheStatement)
	done := blockedUpdate(t, holder, waiter, "lk")
	var err error
	ctx := testCtx(t)
wait:
	for {
		select {
		case err = <-done:
			break wait
		case <-time.After(50 * time.Millisecond):
			if cerr := waiter.PgConn().CancelRequest(ctx); cerr != nil {
				t.Fatal(cerr)
			}
		}
	}
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "57014" || pe.Message != "canceling statement due to user request" {
		t.Fatalf("cancelled update: %v", err)
	}
	mustExec(t, holder, "commit")
	var v int
	if err := waiter.QueryRow(testCtx(t), "select v from lk where id = 1").Scan(&v); err != nil || v != 1 {
		t.Fatalf("v %d %v", v, err)
	}
}

// blockedUpdate creates table (id, v) with the row (1, 0), updates it in
// an open transaction of holder (v = 1) and starts waiter's update of the
// same row (v = 2), which waits for holder; the channel receives its
// result.
func blockedUpdate(t *testing.T, holder, waiter *pgx.Conn, table string) <-chan error {
	t.Helper()
	mustExec(t, holder, "create table "+table+" (id integer primary key, v integer)")
	mustExec(t, holder, "insert into "+table+" values (1, 0)")
	mustExec(t, holder, "begin")
	mustExec(t, holder, "update "+table+" set v = 1 where id = 1")
	done := make(chan error, 1)
	go func() {
		_, err := waiter.Exec(context.Background(), "update "+table+" set v = 2 where id = 1")
		done <- err
	}()
	return done
}

// TestRolledBackCreations: the tables, indexes and sequences a
// transaction creates are gone after it aborts, whether the block rolls
// back or a later statement of one simple query string fails; a committed
// creation stays.
func TestRolledBackCreations(t *testing.T) {
	dsn := startServer(t)
	conn := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
	ctx := testCtx(t)
	count := func(pattern string) int {
		t.Helper()
		var n int
		if err := conn.QueryRow(ctx, "select count(*) from pg_class where relname like $1", pattern).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if _, err := conn.Exec(ctx, "create table mq_a (a int primary key); insert into mq_a values (1); select 1/0"); pgCode(err) != "22012" {
		t.Fatalf("multi-statement query: %v", err)
	}
	if n := count("mq_a%"); n != 0 {
		t.Fatalf("after the failed query %d relations mq_a%% remain", n)
	}
	for _, q := range []string{"begin", "create table mq_b (a serial)", "create index mq_b_a on mq_b (a)",
		"create sequence mq_b_seq", "rollback"} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if n := count("mq_b%"); n != 0 {
		t.Fatalf("after ROLLBACK %d relations mq_b%% remain", n)
	}
	if _, err := conn.Exec(ctx, "begin; create table mq_c (a int); create index mq_c_a on mq_c (a); commit"); err != nil {
		t.Fatal(err)
	}
	if n := count("mq_c%"); n != 2 {
		t.Fatalf("after COMMIT %d relations mq_c%%, want 2", n)
	}
	// The rolled-back names can be created again.
	if _, err := conn.Exec(ctx, "create table mq_a (a int); create table mq_b (a int); create sequence mq_b_seq"); err != nil {
		t.Fatal(err)
	}
}

// TestUncommittedTableInvisible: a table another session created in a
// transaction that has not committed is not found by name; once that
// transaction commits it is.
func TestUncommittedTableInvisible(t *testing.T) {
	dsn := startServer(t)
	a := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
	b := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
	ctx := testCtx(t)
	for _, q := range []string{"begin", "create table unc (a int)", "insert into unc values (1)"} {
		if _, err := a.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if _, err := b.Exec(ctx, "insert into unc values (2)"); pgCode(err) != "42P01" {
		t.Fatalf("another session's insert into the uncommitted table: %v, want 42P01", err)
	}
	if _, err := a.Exec(ctx, "commit"); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := b.QueryRow(ctx, "select count(*) from unc").Scan(&n); err != nil || n != 1 {
		t.Fatalf("after the commit: %d rows, %v", n, err)
	}
}
