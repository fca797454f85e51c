package crashtest

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestForeignKeyCrash: foreign keys added since the last checkpoint are
// enforced after a crash, on both sides, and a dropped one is gone.
func TestForeignKeyCrash(t *testing.T) {
	dir := t.TempDir()
	settings := []string{"checkpoint_timeout=1h", "max_wal_size=1GB"}
	s := startServer(t, dir, settings...)
	c := connect(t, s)
	exec1(t, c, "CREATE TABLE p (id int PRIMARY KEY)")
	exec1(t, c, "CREATE TABLE c (pid int REFERENCES p, n int)")
	exec1(t, c, "CREATE TABLE d (pid int, n int)")
	exec1(t, c, "INSERT INTO p VALUES (1), (2)")
	exec1(t, c, "INSERT INTO c VALUES (1, 1)")
	exec1(t, c, "INSERT INTO d VALUES (2, 1)")
	exec1(t, c, "ALTER TABLE d ADD CONSTRAINT d_fk FOREIGN KEY (pid) REFERENCES p (id)")
	exec1(t, c, "ALTER TABLE d DROP CONSTRAINT d_fk")
	exec1(t, c, "ALTER TABLE d ADD CONSTRAINT d_fk2 FOREIGN KEY (pid) REFERENCES p")
	s.kill()

	s = startServer(t, dir, settings...)
	c = connect(t, s)
	ctx := context.Background()
	for _, q := range []string{
		"INSERT INTO c VALUES (3, 2)",
		"INSERT INTO d VALUES (3, 2)",
		"DELETE FROM p WHERE id = 1",
		"DELETE FROM p WHERE id = 2",
	} {
		if _, err := c.Exec(ctx, q); pgCodeOf(err) != "23503" {
			t.Errorf("%s after the crash: %v, want 23503", q, err)
		}
	}
	exec1(t, c, "ALTER TABLE d DROP CONSTRAINT d_fk2")
	if _, err := c.Exec(ctx, "ALTER TABLE d DROP CONSTRAINT d_fk"); pgCodeOf(err) != "42704" {
		t.Errorf("dropping the constraint dropped before the crash: %v, want 42704", err)
	}
	s.stop(t)
}

// pgCodeOf returns the SQLSTATE of a server error, "" for nil or another error.
func pgCodeOf(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}
