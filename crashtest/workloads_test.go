package crashtest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// tailRows is the size of one tailClient batch: enough pages that a
// VACUUM after its DELETE has an empty end of the table to truncate.
const tailRows = 300

// tailClient loads a batch into tail with COPY, then deletes it, over and
// over, until the server dies, so that the VACUUM loop of the "truncate"
// mode keeps cutting the table's empty end while the next batch extends it.
func tailClient(dsn string, client int, rng *rand.Rand, lg *clientLog) {
	ctx := context.Background()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return
	}
	defer c.Close(ctx)
	for b := max(lg.nextTail, 1); ; b++ {
		lg.nextTail = b + 1
		rows := make([][]any, tailRows)
		for i := range rows {
			rows[i] = []any{int32(client), int32(b), int32(i), strings.Repeat("z", 100+rng.IntN(100))}
		}
		lg.tailInsFlight = b
		if _, err := c.CopyFrom(ctx, pgx.Identifier{"tail"}, []string{"client", "batch", "i", "payload"}, pgx.CopyFromRows(rows)); err != nil {
			return
		}
		lg.tailIns = append(lg.tailIns, b)
		lg.tailInsFlight = 0
		lg.tailDelFlight = b
		if _, err := c.Exec(ctx, "DELETE FROM tail WHERE client = $1 AND batch = $2", client, b); err != nil {
			return
		}
		lg.tailDel = append(lg.tailDel, b)
		lg.tailDelFlight = 0
	}
}

// verifyTail: a batch whose DELETE was acknowledged is gone, one whose
// COPY was acknowledged is whole unless its DELETE was in flight (then
// whole or gone), the COPY in flight is whole or absent, nothing else.
func verifyTail(t *testing.T, c *pgx.Conn, logs []*clientLog) tally {
	t.Helper()
	var tl tally
	got := batchCounts(t, c, "tail")
	for client, lg := range logs {
		deleted := map[int]bool{}
		for _, b := range lg.tailDel {
			deleted[b] = true
		}
		tl.checked += len(lg.tailIns) + len(lg.tailDel)
		for _, b := range lg.tailIns {
			k := [2]int{client, b}
			n := got[k]
			delete(got, k)
			switch {
			case deleted[b]:
				if n != 0 {
					tl.problem(t, true, "tail batch %d of client %d: %d rows after its DELETE was acknowledged", b, client, n)
				}
			case b == lg.tailDelFlight:
				if n == 0 {
					lg.tailDel = append(lg.tailDel, b)
				} else if n != tailRows {
					tl.problem(t, false, "tail batch %d of client %d: %d rows, its DELETE in flight", b, client, n)
				}
			case n != tailRows:
				tl.problem(t, true, "tail batch %d of client %d: %d rows, want %d (acknowledged)", b, client, n, tailRows)
			}
		}
		if f := lg.tailInsFlight; f != 0 {
			k := [2]int{client, f}
			switch n := got[k]; n {
			case 0:
			case tailRows:
				lg.tailIns = append(lg.tailIns, f)
			default:
				tl.problem(t, false, "tail batch %d of client %d in flight: %d rows (partial)", f, client, n)
			}
			delete(got, k)
		}
		lg.tailInsFlight, lg.tailDelFlight = 0, 0
	}
	for k, n := range got {
		tl.problem(t, false, "tail batch %d of client %d: %d rows never acknowledged nor in flight", k[1], k[0], n)
	}
	return tl
}

// ddlRows is how many rows ddlClient puts in each table.
const ddlRows = 50

// ddlTable is what a ddlClient was told about one of its tables.
type ddlTable struct {
	created, filled, dropped bool
	gone                     bool // dropped and found absent: not checked again
}

// ddlStep is the statement a ddlClient had in flight.
type ddlStep struct {
	n  int
	op string // "create", "fill", "index", "drop"
}

func ddlName(client, n int) string { return fmt.Sprintf("ddl_%d_%d", client, n) }

// ddlClient creates a table, fills it, indexes it and drops the one made
// two rounds before, each statement on its own, until the server dies.
func ddlClient(dsn string, client int, lg *clientLog) {
	ctx := context.Background()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return
	}
	defer c.Close(ctx)
	if lg.ddl == nil {
		lg.ddl = map[int]*ddlTable{}
	}
	var values strings.Builder
	for i := 1; i <= ddlRows; i++ {
		if i > 1 {
			values.WriteString(", ")
		}
		fmt.Fprintf(&values, "(%d, 'row %d of a table made by DDL')", i, i)
	}
	step := func(n int, op, sql string) bool {
		lg.ddlFlight = ddlStep{n, op}
		_, err := c.Exec(ctx, sql)
		if err == nil {
			lg.ddlFlight = ddlStep{}
		}
		return err == nil
	}
	for n := max(lg.ddlNext, 1); ; n++ {
		st := &ddlTable{}
		lg.ddl[n] = st
		lg.ddlNext = n + 1
		name := ddlName(client, n)
		if !step(n, "create", "CREATE TABLE "+name+" (id int PRIMARY KEY, v text)") {
			return
		}
		st.created = true
		if !step(n, "fill", "INSERT INTO "+name+" VALUES "+values.String()) {
			return
		}
		st.filled = true
		if !step(n, "index", "CREATE INDEX ON "+name+" (v)") {
			return
		}
		if old := lg.ddl[n-2]; old != nil && !old.dropped {
			if !step(n-2, "drop", "DROP TABLE "+ddlName(client, n-2)) {
				return
			}
			old.dropped = true
		}
	}
}

// verifyDDL: tables whose DROP was acknowledged are gone, tables whose
// CREATE was acknowledged exist, with their rows if the INSERT was; the
// statement in flight took effect wholly or not at all; nothing else
// exists.
func verifyDDL(t *testing.T, c *pgx.Conn, logs []*clientLog) tally {
	t.Helper()
	var tl tally
	ctx := context.Background()
	for client, lg := range logs {
		fl := lg.ddlFlight
		lg.ddlFlight = ddlStep{}
		for n := 1; n < lg.ddlNext; n++ {
			st := lg.ddl[n]
			if st == nil || st.gone {
				continue
			}
			inflight := ""
			if fl.n == n {
				inflight = fl.op
			}
			var count int
			exists := true
			if err := c.QueryRow(ctx, "SELECT count(*) FROM "+ddlName(client, n)).Scan(&count); err != nil {
				var pe *pgconn.PgError
				if !errors.As(err, &pe) || pe.Code != "42P01" {
					t.Fatalf("reading %s: %v", ddlName(client, n), err)
				}
				exists = false
			}
			switch {
			case st.dropped:
				tl.checked++
				if exists {
					tl.problem(t, true, "table %s exists, its DROP was acknowledged", ddlName(client, n))
				}
				st.gone = !exists
				continue
			case inflight == "drop" && !exists:
				st.dropped, st.gone = true, true
				continue
			case !st.created:
				if exists && inflight == "create" {
					st.created = true
					if count != 0 {
						tl.problem(t, false, "table %s, its CREATE in flight, has %d rows", ddlName(client, n), count)
					}
				} else if exists {
					tl.problem(t, false, "table %s exists, never acknowledged nor in flight", ddlName(client, n))
				}
				continue
			}
			tl.checked++
			switch {
			case !exists:
				tl.problem(t, true, "table %s is missing, its CREATE was acknowledged", ddlName(client, n))
			case st.filled:
				tl.checked++
				if count != ddlRows {
					tl.problem(t, true, "table %s has %d rows, its INSERT of %d was acknowledged", ddlName(client, n), count, ddlRows)
				}
			case inflight == "fill" && count == ddlRows:
				st.filled = true
			case count != 0:
				tl.problem(t, false, "table %s has %d rows, its INSERT not acknowledged", ddlName(client, n), count)
			}
		}
	}
	return tl
}

// checkTruncates empties tail on the recovered server and checks that
// VACUUM cuts its file to nothing: the recovered pages are consistent
// enough for truncation.
func checkTruncates(t *testing.T, s *server) {
	t.Helper()
	c := connect(t, s)
	exec1(t, c, "DELETE FROM tail")
	exec1(t, c, "VACUUM tail")
	var size int64
	if err := c.QueryRow(context.Background(), "SELECT pg_relation_size('tail')").Scan(&size); err != nil || size != 0 {
		t.Fatalf("tail after DELETE and VACUUM: %d bytes, %v", size, err)
	}
}
