package executor_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"minipg/internal/testserver"
)

func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// TestForeignKeyConcurrency: a referencing insert and a concurrent delete
// of the referenced row never both commit; the second waits for the first
// and then fails with 23503, or succeeds if the first rolled back.
func TestForeignKeyConcurrency(t *testing.T) {
	dsn := testserver.Start(t)
	ctx := context.Background()
	connect := func() *pgx.Conn {
		c, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close(ctx) })
		return c
	}
	a, b := connect(), connect()
	for _, q := range []string{
		"CREATE TABLE p (id int PRIMARY KEY)",
		"CREATE TABLE c (pid int REFERENCES p)",
		"INSERT INTO p VALUES (1), (2), (3)",
	} {
		if _, err := a.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	// blocked runs q on conn in the background and checks it is still
	// waiting after a while.
	blocked := func(conn *pgx.Conn, q string) chan error {
		done := make(chan error, 1)
		go func() {
			_, err := conn.Exec(ctx, q)
			done <- err
		}()
		select {
		case err := <-done:
			t.Fatalf("%s did not wait: %v", q, err)
		case <-time.After(200 * time.Millisecond):
		}
		return done
	}
	mustExec := func(conn *pgx.Conn, q string) {
		t.Helper()
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}

	// Insert first, delete waits, then fails.
	mustExec(a, "BEGIN")
	mustExec(a, "INSERT INTO c VALUES (1)")
	done := blocked(b, "DELETE FROM p WHERE id = 1")
	mustExec(a, "COMMIT")
	if err := <-done; pgCode(err) != "23503" {
		t.Fatalf("delete of a row referenced meanwhile: %v, want 23503", err)
	}

	// Delete first, insert waits, then fails.
	mustExec(b, "BEGIN")
	mustExec(b, "DELETE FROM p WHERE id = 2")
	done = blocked(a, "INSERT INTO c VALUES (2)")
	mustExec(b, "COMMIT")
	if err := <-done; pgCode(err) != "23503" {
		t.Fatalf("insert referencing a row deleted meanwhile: %v, want 23503", err)
	}

	// Delete first and rolled back: the insert succeeds.
	mustExec(b, "BEGIN")
	mustExec(b, "DELETE FROM p WHERE id = 3")
	done = blocked(a, "INSERT INTO c VALUES (3)")
	mustExec(b, "ROLLBACK")
	if err := <-done; err != nil {
		t.Fatalf("insert after the delete rolled back: %v", err)
	}
	var n int
	if err := a.QueryRow(ctx, "SELECT count(*) FROM c").Scan(&n); err != nil || n != 2 {
		t.Fatalf("referencing rows: %d, %v; want 2", n, err)
	}
}
