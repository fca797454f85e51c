package types

// Expected outputs under testdata/ come from a real PostgreSQL 15. Each file
// says which SQL produced its expectations. To regenerate them against a
// running server:
//
//	go test ./types -run TestPG -rewrite [-pgdsn postgres://...]
//
// Without -rewrite the tests only read the files (no server needed).

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"minipg/pgerr"
)

var (
	rewrite = flag.Bool("rewrite", false, "regenerate testdata expectations from a real PostgreSQL 15")
	pgDSN   = flag.String("pgdsn", "postgres://postgres:postgres@127.0.0.1:5432/postgres", "PostgreSQL 15 used by -rewrite")
)

// tcase is one line of a testdata file: fields -> result.
type tcase struct {
	line    int
	fields  []string
	out     string // expected output (when !isErr)
	isErr   bool
	errCode string
	errMsg  string
	errDet  string // DETAIL, if any
}

func (c tcase) String() string {
	return fmt.Sprintf("line %d %q", c.line, c.fields)
}

// readCases parses lines of the form
//
//	"f1" "f2" ... -> "output"
//	"f1" "f2" ... -> error "SQLSTATE" "message"
//
// keeping comment lines (#) as the file header.
func readCases(t *testing.T, path string) (header []string, cases []tcase) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			if len(cases) == 0 {
				header = append(header, line)
			}
			continue
		}
		c := tcase{line: n}
		rest := line
		for {
			rest = strings.TrimLeft(rest, " ")
			if strings.HasPrefix(rest, "->") || rest == "" {
				break
			}
			q, err := strconv.QuotedPrefix(rest)
			if err != nil {
				t.Fatalf("%s:%d: bad field: %v", path, n, err)
			}
			s, _ := strconv.Unquote(q)
			c.fields = append(c.fields, s)
			rest = rest[len(q):]
		}
		if strings.HasPrefix(rest, "->") {
			rest = strings.TrimLeft(rest[2:], " ")
			if strings.HasPrefix(rest, "error ") {
				c.isErr = true
				rest = strings.TrimLeft(rest[6:], " ")
				q, err := strconv.QuotedPrefix(rest)
				if err != nil {
					t.Fatalf("%s:%d: bad error: %v", path, n, err)
				}
				c.errCode, _ = strconv.Unquote(q)
				rest = strings.TrimLeft(rest[len(q):], " ")
				q, err = strconv.QuotedPrefix(rest)
				if err != nil {
					t.Fatalf("%s:%d: bad error: %v", path, n, err)
				}
				c.errMsg, _ = strconv.Unquote(q)
				rest = strings.TrimLeft(rest[len(q):], " ")
				if rest != "" {
					if q, err = strconv.QuotedPrefix(rest); err == nil {
						c.errDet, _ = strconv.Unquote(q)
					}
				}
			} else if rest != "" {
				q, err := strconv.QuotedPrefix(rest)
				if err != nil {
					t.Fatalf("%s:%d: bad output: %v", path, n, err)
				}
				c.out, _ = strconv.Unquote(q)
			}
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return header, cases
}

func writeCases(t *testing.T, path string, header []string, cases []tcase) {
	t.Helper()
	var b strings.Builder
	for _, h := range header {
		b.WriteString(h + "\n")
	}
	for _, c := range cases {
		for i, f := range c.fields {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strconv.Quote(f))
		}
		if c.isErr {
			fmt.Fprintf(&b, " -> error %q %q", c.errCode, c.errMsg)
			if c.errDet != "" {
				fmt.Fprintf(&b, " %q", c.errDet)
			}
			b.WriteByte('\n')
		} else {
			fmt.Fprintf(&b, " -> %q\n", c.out)
		}
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// pgQuery runs sql (simple protocol, text results) and returns the first
// column of every row of the last statement, or the server's error.
func pgQuery(t *testing.T, conn *pgconn.PgConn, sql string) ([]string, *pgconn.PgError) {
	t.Helper()
	res, err := conn.Exec(context.Background(), sql).ReadAll()
	if err != nil {
		var pe *pgconn.PgError
		if errors.As(err, &pe) {
			return nil, pe
		}
		t.Fatalf("%s: %v", sql, err)
	}
	var out []string
	if len(res) > 0 {
		last := res[len(res)-1]
		for _, row := range last.Rows {
			if row[0] == nil {
				out = append(out, "NULL")
			} else {
				out = append(out, string(row[0]))
			}
		}
	}
	return out, nil
}

// rewriteFile recomputes every case's result with sqlFor and the server.
// sqlFor returns the statements to run; the first column of the last
// statement's rows, joined by "|", is the expected output. post may edit it.
func rewriteFile(t *testing.T, path string, sqlFor func(c tcase) string, post func(c tcase, out string) string) {
	t.Helper()
	conn, err := pgconn.Connect(context.Background(), *pgDSN)
	if err != nil {
		t.Fatalf("-rewrite needs PostgreSQL 15 at %s: %v", *pgDSN, err)
	}
	defer conn.Close(context.Background())
	header, cases := readCases(t, path)
	for i := range cases {
		c := &cases[i]
		rows, pe := pgQuery(t, conn, sqlFor(*c))
		c.isErr, c.out, c.errCode, c.errMsg, c.errDet = false, "", "", "", ""
		if pe != nil {
			c.isErr, c.errCode, c.errMsg, c.errDet = true, pe.Code, pe.Message, pe.Detail
			// leave the session usable after an error inside a transaction
			_, _ = pgQuery(t, conn, "ROLLBACK")
			continue
		}
		c.out = strings.Join(rows, "|")
		if post != nil {
			c.out = post(*c, c.out)
		}
	}
	writeCases(t, path, header, cases)
}

// sqlLit quotes s as an SQL string literal (standard_conforming_strings on).
func sqlLit(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// typeFromSQL resolves a type as written in the test files
// ("int4", "numeric(5,2)", "varchar(3)", "timestamp(2)").
func typeFromSQL(t *testing.T, s string) T {
	t.Helper()
	name, mods := s, []int32(nil)
	if i := strings.IndexByte(s, '('); i > 0 && strings.HasSuffix(s, ")") {
		name = s[:i]
		for _, m := range strings.Split(s[i+1:len(s)-1], ",") {
			v, err := strconv.Atoi(strings.TrimSpace(m))
			if err != nil {
				t.Fatalf("bad type %q", s)
			}
			mods = append(mods, int32(v))
		}
	}
	typ, err := TypeByName(name, mods)
	if err != nil {
		t.Fatalf("TypeByName(%q): %v", s, err)
	}
	return typ
}

// checkResult compares a minipg result with a case's expectation.
func checkResult(t *testing.T, c tcase, got string, err error) {
	t.Helper()
	if c.isErr {
		if err == nil {
			t.Errorf("%v: got %q, want error %s %q", c, got, c.errCode, c.errMsg)
			return
		}
		if code := string(pgerr.CodeOf(err)); code != c.errCode || err.Error() != c.errMsg {
			t.Errorf("%v: got error %s %q, want %s %q", c, code, err.Error(), c.errCode, c.errMsg)
		}
		if det := pgerr.Flatten(err).Detail; det != c.errDet {
			t.Errorf("%v: got detail %q, want %q", c, det, c.errDet)
		}
		return
	}
	if err != nil {
		t.Errorf("%v: got error %v (%s), want %q", c, err, pgerr.CodeOf(err), c.out)
		return
	}
	if got != c.out {
		t.Errorf("%v: got %q, want %q", c, got, c.out)
	}
}
