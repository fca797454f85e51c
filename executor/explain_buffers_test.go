package executor

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"minipg/pgerr"
	"minipg/storage/buffer"
	"minipg/types"
)

func explainText(t *testing.T, s *Session, q string) string {
	t.Helper()
	rows, tag := mustExec(t, s, q)
	if tag != "EXPLAIN" {
		t.Fatalf("%s: tag %q", q, tag)
	}
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(r[0].(string) + "\n")
	}
	return b.String()
}

// nodeBuffers returns the counters on the Buffers line under the first
// plan line that starts (after indentation and "->  ") with node; a node
// without a Buffers line has all zero.
func nodeBuffers(t *testing.T, plan, node string) buffer.Usage {
	t.Helper()
	lines := strings.Split(plan, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(strings.TrimPrefix(strings.TrimSpace(l), "->  "), node) {
			continue
		}
		var u buffer.Usage
		for _, p := range lines[i+1:] {
			p = strings.TrimSpace(p)
			if strings.HasPrefix(p, "->  ") || p == "" {
				break
			}
			if !strings.HasPrefix(p, "Buffers: shared ") {
				continue
			}
			for _, f := range strings.Fields(strings.TrimPrefix(p, "Buffers: shared ")) {
				k, v, _ := strings.Cut(f, "=")
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil || n <= 0 {
					t.Fatalf("bad counter %q in %q", f, p)
				}
				switch k {
				case "hit":
					u.Hit = n
				case "read":
					u.Read = n
				case "dirtied":
					u.Dirtied = n
				case "written":
					u.Written = n
				default:
					t.Fatalf("unknown counter %q", f)
				}
			}
			return u
		}
		return u
	}
	t.Fatalf("no node %q in\n%s", node, plan)
	return buffer.Usage{}
}

func relPages(t *testing.T, s *Session, table string) int64 {
	t.Helper()
	rows, _ := mustExec(t, s, fmt.Sprintf("SELECT pg_relation_size('%s') / 8192", table))
	return rows[0][0].(int64)
}

// TestExplainBuffers: with ANALYZE and BUFFERS each node shows the shared
// buffers it and its children used: a sequential scan of an N-page table
// hits (or reads) exactly N, the aggregate over it the same, a LIMIT 1
// one; an insert into an empty table writes (extends) and dirties one
// block; an UPDATE after a checkpoint dirties exactly the pages its old
// and new row versions are on; a scan of a table larger than the pool
// reads what it does not find.
func TestExplainBuffers(t *testing.T) {
	e := openTestEngine(t, "") // 4MB: 512 buffers
	s := e.NewSession(map[string]string{"user": "postgres"})
	defer s.Close()
	const opts = "(ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY OFF) "
	mustExec(t, s, "CREATE TABLE eb (a int, b text) WITH (fsm_policy = classic, autovacuum_enabled = off)")

	plan := explainText(t, s, "EXPLAIN "+opts+"INSERT INTO eb VALUES (1, 'x')")
	if got := nodeBuffers(t, plan, "Insert on eb"); got != (buffer.Usage{Dirtied: 1, Written: 1}) {
		t.Errorf("insert into an empty table: %+v\n%s", got, plan)
	}
	if !strings.Contains(plan, "  Buffers: shared dirtied=1 written=1\n") {
		t.Errorf("Buffers line:\n%s", plan)
	}
	if nodeBuffers(t, plan, "Result") != (buffer.Usage{}) || strings.Count(plan, "Buffers:") != 1 {
		t.Errorf("the Result under the insert touched no buffer:\n%s", plan)
	}

	mustExec(t, s, "INSERT INTO eb SELECT g, repeat('x', 100) FROM generate_series(2, 1000) g")
	mustExec(t, s, "SELECT count(*) FROM eb") // sets the hint bits
	pages := relPages(t, s, "eb")
	if pages < 10 {
		t.Fatalf("eb has %d pages", pages)
	}
	plan = explainText(t, s, "EXPLAIN "+opts+"SELECT count(*) FROM eb")
	want := buffer.Usage{Hit: pages}
	if got := nodeBuffers(t, plan, "Seq Scan on eb"); got != want {
		t.Errorf("seq scan of %d pages: %+v\n%s", pages, got, plan)
	}
	if got := nodeBuffers(t, plan, "Aggregate"); got != want {
		t.Errorf("aggregate over the scan: %+v\n%s", got, plan)
	}
	plan = explainText(t, s, "EXPLAIN "+opts+"SELECT * FROM eb WHERE a = 5")
	if got := nodeBuffers(t, plan, "Seq Scan on eb"); got != want {
		t.Errorf("filtered seq scan: %+v\n%s", got, plan)
	}
	if !regexp.MustCompile(`(?m)^  Rows Removed by Filter: 999\n  Buffers: shared hit=\d+$`).MatchString(plan) {
		t.Errorf("Buffers goes after the node's other lines:\n%s", plan)
	}
	plan = explainText(t, s, "EXPLAIN "+opts+"SELECT * FROM eb LIMIT 1")
	if got := nodeBuffers(t, plan, "Limit"); got != (buffer.Usage{Hit: 1}) {
		t.Errorf("limit 1: %+v\n%s", got, plan)
	}

	// After a checkpoint every page is clean: the UPDATE dirties the pages
	// of the old versions and those the new ones went to, and its scan
	// only reads.
	blocks := func() map[string]bool {
		rows, _ := mustExec(t, s, "SELECT ctid FROM eb WHERE a IN (1, 300, 700)")
		m := map[string]bool{}
		for _, r := range rows {
			tid := types.FormatText(types.TTID, r[0])
			blk, _, _ := strings.Cut(strings.Trim(tid, "()"), ",")
			m[blk] = true
		}
		return m
	}
	changed := blocks()
	mustExec(t, s, "CHECKPOINT")
	plan = explainText(t, s, "EXPLAIN "+opts+"UPDATE eb SET b = 'y' WHERE a IN (1, 300, 700)")
	for b := range blocks() {
		changed[b] = true
	}
	upd := nodeBuffers(t, plan, "Update on eb")
	if upd.Dirtied != int64(len(changed)) || upd.Read != 0 || upd.Hit < pages+3 {
		t.Errorf("update of 3 rows on blocks %v: %+v\n%s", changed, upd, plan)
	}
	if got := nodeBuffers(t, plan, "Seq Scan on eb"); got != want {
		t.Errorf("the update's scan: %+v\n%s", got, plan)
	}

	// Without ANALYZE, or with BUFFERS off, no Buffers line (and minipg's
	// planning touches no buffer, so no "Planning:" section either).
	for _, q := range []string{
		"EXPLAIN (BUFFERS, COSTS OFF) SELECT count(*) FROM eb",
		"EXPLAIN (BUFFERS) SELECT count(*) FROM eb",
		"EXPLAIN (ANALYZE, BUFFERS OFF, TIMING OFF) SELECT count(*) FROM eb",
		"EXPLAIN (ANALYZE, BUFFERS 0, TIMING OFF) SELECT count(*) FROM eb",
		"EXPLAIN (ANALYZE, TIMING OFF) SELECT count(*) FROM eb",
	} {
		if plan := explainText(t, s, q); strings.Contains(plan, "Buffers") || strings.Contains(plan, "Planning:") {
			t.Errorf("%s:\n%s", q, plan)
		}
	}
	if plan := explainText(t, s, "EXPLAIN (ANALYZE, BUFFERS, TIMING OFF) SELECT 1"); strings.Contains(plan, "Buffers") ||
		!strings.Contains(plan, "Planning Time:") {
		t.Errorf("no buffer touched:\n%s", plan)
	}
	// An IN subquery an index scan looks up runs as the scan opens: with
	// ANALYZE the scan's figures include it (every page of the subquery's
	// scan, then one heap fetch per row found), and it is not planning.
	mustExec(t, s, "CREATE TABLE ebi (id int PRIMARY KEY, v int)")
	mustExec(t, s, "INSERT INTO ebi SELECT g, g FROM generate_series(1, 1000) g")
	mustExec(t, s, "SELECT count(*) FROM ebi")
	ipages := relPages(t, s, "ebi")
	const in = "SELECT * FROM ebi WHERE id IN (SELECT v FROM ebi WHERE v < 5)"
	if plan := explainText(t, s, "EXPLAIN (BUFFERS, COSTS OFF) "+in); strings.Contains(plan, "Buffers") || strings.Contains(plan, "Planning:") {
		t.Errorf("IN subquery without ANALYZE:\n%s", plan)
	}
	plan = explainText(t, s, "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) "+in)
	if got := nodeBuffers(t, plan, "Index Scan using ebi_pkey on ebi"); got != (buffer.Usage{Hit: ipages + 4}) || strings.Contains(plan, "Planning:") {
		t.Errorf("IN subquery over %d pages, 4 rows: %+v\n%s", ipages, got, plan)
	}

	for _, q := range []string{"EXPLAIN (BUFFERS maybe) SELECT 1", "EXPLAIN (BUFFERS 2) SELECT 1"} {
		_, _, err := exec(t, s, q)
		if pgerr.CodeOf(err) != pgerr.SyntaxError || err.Error() != "buffers requires a Boolean value" {
			t.Errorf("%s: %v (%s)", q, err, pgerr.CodeOf(err))
		}
		s.Sync()
	}
}

// TestExplainBuffersReads: a sequential scan of a table larger than the
// buffer pool finds some pages and reads the others, every page once.
func TestExplainBuffersReads(t *testing.T) {
	e := openTestEngine(t, "") // 4MB: 512 buffers
	s := e.NewSession(map[string]string{"user": "postgres"})
	defer s.Close()
	mustExec(t, s, "CREATE TABLE big (a int, b text) WITH (autovacuum_enabled = off)")
	mustExec(t, s, "INSERT INTO big SELECT g, repeat('y', 3000) FROM generate_series(1, 1600) g")
	mustExec(t, s, "SELECT count(*) FROM big") // hint bits
	pages := relPages(t, s, "big")
	if pages <= 512 {
		t.Fatalf("big has %d pages, not more than the pool", pages)
	}
	plan := explainText(t, s, "EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, SUMMARY OFF) SELECT count(*) FROM big")
	got := nodeBuffers(t, plan, "Seq Scan on big")
	if got.Hit+got.Read != pages || got.Read < pages-512 || got.Dirtied != 0 {
		t.Errorf("scan of %d pages with a pool of 512: %+v\n%s", pages, got, plan)
	}
}

// TestBufferLine: only the non-zero counters, in PostgreSQL's order.
func TestBufferLine(t *testing.T) {
	for _, c := range []struct {
		u    buffer.Usage
		want string
	}{
		{buffer.Usage{}, ""},
		{buffer.Usage{Hit: 1, Read: 2, Dirtied: 3, Written: 4}, "Buffers: shared hit=1 read=2 dirtied=3 written=4"},
		{buffer.Usage{Read: 7, Written: 1}, "Buffers: shared read=7 written=1"},
	} {
		if got := bufferLine(c.u); got != c.want {
			t.Errorf("%+v: %q, want %q", c.u, got, c.want)
		}
	}
	if got := appendPlanningBuffers(nil, buffer.Usage{Hit: 12}); strings.Join(got, "|") != "Planning:|  Buffers: shared hit=12" {
		t.Errorf("planning section %q", got)
	}
	if got := appendPlanningBuffers(nil, buffer.Usage{}); got != nil {
		t.Errorf("empty planning section %q", got)
	}
}
