package pgxtest

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

func stringsReader(s string) io.Reader { return strings.NewReader(s) }

// mustExecOn runs q on c and fails the test on an error.
func mustExecOn(t *testing.T, ctx context.Context, c *pgx.Conn, q string) {
	t.Helper()
	if _, err := c.Exec(ctx, q); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}
