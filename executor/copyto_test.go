package executor_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"minipg/internal/testserver"
)

// TestCopyToPgx: pgx's CopyTo (simple protocol: CopyOutResponse, CopyData
// per row, CopyDone) returns what PostgreSQL's COPY TO STDOUT formats
// produce, and the connection stays usable, also after a failing COPY.
func TestCopyToPgx(t *testing.T) {
	dsn := testserver.Start(t)
	ctx := context.Background()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	for _, q := range []string{
		"CREATE TABLE t (id int, s text)",
		"INSERT INTO t VALUES (1, 'a,b'), (2, NULL), (3, 'tab\there')",
	} {
		if _, err := c.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for _, tc := range []struct{ q, want string }{
		{"COPY t TO STDOUT", "1\ta,b\n2\t\\N\n3\ttab\\there\n"},
		{"COPY t (s) TO STDOUT WITH (FORMAT csv, HEADER)", "s\n\"a,b\"\n\ntab\there\n"},
		{"COPY (SELECT id * 10 FROM t ORDER BY id DESC) TO STDOUT", "30\n20\n10\n"},
	} {
		var buf bytes.Buffer
		tag, err := c.PgConn().CopyTo(ctx, &buf, tc.q)
		if err != nil {
			t.Fatalf("%s: %v", tc.q, err)
		}
		if buf.String() != tc.want {
			t.Errorf("%s: got %q, want %q", tc.q, buf.String(), tc.want)
		}
		if want := int64(3); tag.RowsAffected() != want {
			t.Errorf("%s: tag %q", tc.q, tag)
		}
	}
	var buf bytes.Buffer
	if _, err := c.PgConn().CopyTo(ctx, &buf, "COPY t TO STDOUT WITH (FORMAT binary)"); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	if !bytes.HasPrefix(b, []byte("PGCOPY\n\377\r\n\x00")) || !bytes.HasSuffix(b, []byte{0xff, 0xff}) {
		t.Fatalf("binary COPY: %q", b)
	}
	// Header 19 bytes; row 1: 2 (count) + 4+4 (int4) + 4+3 ("a,b").
	if got := b[19 : 19+17]; !bytes.Equal(got, []byte{0, 2, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 3, 'a', ',', 'b'}) {
		t.Fatalf("binary COPY first row: %v", got)
	}
	if _, err := c.PgConn().CopyTo(ctx, &buf, "COPY (SELECT 1 / (id - 2) FROM t ORDER BY id) TO STDOUT"); pgCode(err) != "22012" {
		t.Fatalf("COPY failing midway: %v, want 22012", err)
	}
	var n int
	if err := c.QueryRow(ctx, "SELECT count(*) FROM t").Scan(&n); err != nil || n != 3 {
		t.Fatalf("after a failed COPY: %d, %v", n, err)
	}
}
