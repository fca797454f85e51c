// Command minipg-sqlcompare runs SQL scripts statement by statement
// against PostgreSQL and minipg, each script in one session per server,
// and reports every statement whose outcome differs: minipg failing with
// an internal error or refusing what PostgreSQL answers, accepting what
// PostgreSQL refuses, another SQLSTATE, other rows or tags.
//
//	minipg-sqlcompare -pg DSN -minipg DSN [-kinds INTERNAL,ACCEPTS,...] script.sql...
//
// psql's backslash commands are skipped, and so is COPY ... FROM STDIN
// with its data. Run against PostgreSQL's own regression scripts
// (src/test/regress/sql, test_setup.sql first) it finds where minipg
// departs from PostgreSQL 15; -kinds keeps the report to some kinds
// (INTERNAL, UNSUP, ACCEPTS, ERRCODE, DIFF, ORDER; default all but UNSUP).
// Each server's database should start empty; the scripts create and
// leave objects, roles and tablespaces on PostgreSQL too.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

func main() {
	pgDSN := flag.String("pg", "", "PostgreSQL's connection string")
	mpDSN := flag.String("minipg", "", "minipg's connection string")
	kinds := flag.String("kinds", "INTERNAL,ACCEPTS,ERRCODE,DIFF,ORDER", "the kinds of difference to print")
	timeout := flag.Duration("timeout", 20*time.Second, "how long a statement may run")
	flag.Parse()
	if *pgDSN == "" || *mpDSN == "" || flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	show := map[string]bool{}
	for _, k := range strings.Split(*kinds, ",") {
		show[strings.ToUpper(strings.TrimSpace(k))] = true
	}
	counts := map[string]int{}
	for _, path := range flag.Args() {
		src, err := os.ReadFile(path)
		if err != nil {
			log.Fatal(err)
		}
		stmts, err := statements(string(src))
		if err != nil {
			fmt.Printf("%s: not compared: %v\n", filepath.Base(path), err)
			continue
		}
		pg, mp := dial(*pgDSN), dial(*mpDSN)
		for i, st := range stmts {
			a, b := run(pg, st, *timeout), run(mp, st, *timeout)
			if pg.IsClosed() {
				pg = dial(*pgDSN)
			}
			if mp.IsClosed() {
				b.code, b.msg = "CONN", "connection lost"
				mp = dial(*mpDSN)
			}
			k := classify(a, b)
			if k == "" {
				continue
			}
			counts[k]++
			if !show[k] {
				continue
			}
			fmt.Printf("%s#%d %s %s\n", filepath.Base(path), i, k, oneLine(st, 300))
			fmt.Printf("   pg: %s\n   mp: %s\n", describe(a), describe(b))
		}
		pg.Close(context.Background())
		mp.Close(context.Background())
	}
	fmt.Printf("differences:")
	for _, k := range []string{kindInternal, kindUnsup, kindAccepts, kindErrcode, kindDiff, kindOrder} {
		fmt.Printf(" %s %d", k, counts[k])
	}
	fmt.Println()
}

func dial(dsn string) *pgconn.PgConn {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := pgconn.Connect(ctx, dsn)
	if err != nil {
		log.Fatal(err)
	}
	return c
}

// run executes st (simple protocol) and collects its result.
func run(c *pgconn.PgConn, st string, timeout time.Duration) result {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	rs, err := c.Exec(ctx, st).ReadAll()
	var out result
	for _, r := range rs {
		out.tag += r.CommandTag.String() + ";"
		for _, row := range r.Rows {
			vals := make([]string, len(row))
			for i, v := range row {
				if v == nil {
					vals[i] = "<NULL>"
				} else {
					vals[i] = string(v)
				}
			}
			out.rows = append(out.rows, strings.Join(vals, "|"))
		}
		if r.Err != nil {
			err = r.Err
		}
	}
	if err != nil {
		out.err = true
		var pe *pgconn.PgError
		if errors.As(err, &pe) {
			out.code, out.msg = pe.Code, pe.Message
		} else {
			out.code, out.msg = "CONN", err.Error()
		}
	}
	return out
}

func describe(r result) string {
	if r.err {
		return r.code + " " + r.msg
	}
	return r.tag + " " + oneLine(strings.Join(r.rows, " / "), 300)
}
