package crashtest

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// indexPages is what the leaf level of a disk index holds, read page by
// page with pageinspect's get_raw_page and decoded here (storage/nbtree's
// layout: PostgreSQL's page header and line pointers, BTPageOpaqueData in
// the last 16 bytes, leaf items ending in the heap TID's 6 bytes).
type indexPages struct {
	blocks   int   // blocks in the file, the metapage included
	leaves   int   // live leaf pages (neither deleted nor half-dead)
	deleted  int   // pages flagged deleted
	halfDead int   // pages flagged half-dead
	entries  []int // the heap block of every entry of a live leaf
}

func readIndexPages(t *testing.T, c *pgx.Conn, name string) indexPages {
	t.Helper()
	ctx := context.Background()
	var ip indexPages
	if err := c.QueryRow(ctx, "SELECT pg_relation_size($1) / 8192", name).Scan(&ip.blocks); err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	for blk := 1; blk < ip.blocks; blk++ {
		var p []byte
		if err := c.QueryRow(ctx, "SELECT get_raw_page($1, $2)", name, blk).Scan(&p); err != nil {
			t.Fatal(err)
		}
		special := int(le.Uint16(p[16:]))
		if len(p) != 8192 || special != 8192-16 {
			continue // never initialized (a split that a crash cut short leaves such a page)
		}
		flags := le.Uint16(p[special+12:])
		if flags&0x04 != 0 {
			ip.deleted++
			continue
		}
		if flags&0x10 != 0 {
			ip.halfDead++
			continue
		}
		if flags&0x01 == 0 {
			continue
		}
		ip.leaves++
		first := 1
		if le.Uint32(p[special+4:]) != 0 {
			first = 2 // the high key
		}
		n := (int(le.Uint16(p[12:])) - 24) / 4
		for i := first; i <= n; i++ {
			lp := le.Uint32(p[24+4*(i-1):])
			off, length := int(lp&0x7fff), int(lp>>17)
			tid := p[off+length-6 : off+length]
			ip.entries = append(ip.entries, int(binary.BigEndian.Uint32(tid)))
		}
	}
	return ip
}

// vxKey is the key of row id (an SQL expression of it): in id order, wide
// enough that a leaf of vx_k holds a few dozen.
func vxKey(id string) string {
	return "lpad(" + id + "::text, 6, '0') || md5(" + id + "::text) || repeat('k', 120)"
}

// idsBy returns the ids a query returns, sorted.
func idsBy(t *testing.T, c *pgx.Conn, query string) []int {
	t.Helper()
	rows, err := c.Query(context.Background(), query)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int])
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	slices.Sort(ids)
	return ids
}

// TestIndexVacuumCrash: a table with two disk indexes (the primary key and
// a wide text key that spans hundreds of leaves) loses most of its rows,
// and a cost-delayed VACUUM is killed with SIGKILL while it removes their
// index entries (twice: the second time also deleting the leaves it
// empties) or frees their heap line pointers (once), while clients go on
// inserting committed rows. After each restart both indexes pass
// bt_index_check with heapallindexed; the rows found through each index
// are exactly those a sequential scan finds, among them every acknowledged
// row and none of the deleted ones. A last VACUUM then finishes the work:
// every entry left in either index is a live row's, no page is left
// half-dead, and rows put back into the emptied key range reuse the
// deleted pages.
func TestIndexVacuumCrash(t *testing.T) {
	dir := t.TempDir()
	s := startServer(t, dir, diskIndexSettings...)
	c := connect(t, s)
	ctx := context.Background()
	exec1(t, c, "CREATE EXTENSION amcheck")
	exec1(t, c, "CREATE EXTENSION pageinspect")
	exec1(t, c, "CREATE TABLE vx (id int PRIMARY KEY, k text, n int) WITH (autovacuum_enabled = off)")
	exec1(t, c, "CREATE INDEX vx_k ON vx (k)")
	exec1(t, c, "CREATE TABLE later (x int)")
	const nrows = 24000
	for first := 1; first <= nrows; first += 6000 {
		exec1(t, c, fmt.Sprintf("INSERT INTO vx SELECT i, %s, 0 FROM generate_series(%d, %d) i", vxKey("i"), first, first+5999))
	}
	for _, q := range []string{"EXPLAIN SELECT id FROM vx WHERE k >= ''", "EXPLAIN SELECT id FROM vx WHERE id >= 0"} {
		var plan string
		if err := c.QueryRow(ctx, q).Scan(&plan); err != nil || !strings.HasPrefix(plan, "Index Scan") {
			t.Fatalf("%s: %q %v", q, plan, err)
		}
	}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 13))
	var mu sync.Mutex
	var acked []int
	nextID := nrows + 1
	deleted := map[int]bool{}
	// Each round deletes some of the preloaded rows that are left, then
	// kills the VACUUM that removes them in the phase named. The third
	// round empties whole leaves of both indexes: its VACUUM deletes pages
	// when it is killed.
	for round, phase := range []string{"vacuuming indexes", "vacuuming heap", "vacuuming indexes"} {
		gone := []func(id int) bool{
			func(id int) bool { return id%4 != 0 },
			func(id int) bool { return id%3 != 0 },
			func(id int) bool { return id > 2000 && id <= 22000 },
		}[round]
		exec1(t, c, []string{
			fmt.Sprintf("DELETE FROM vx WHERE id <= %d AND id %% 4 <> 0", nrows),
			fmt.Sprintf("DELETE FROM vx WHERE id <= %d AND id %% 3 <> 0", nrows),
			"DELETE FROM vx WHERE id > 2000 AND id <= 22000",
		}[round])
		for id := 1; id <= nrows; id++ {
			if gone(id) {
				deleted[id] = true
			}
		}
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for cl := 0; cl < 2; cl++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				conn, err := pgx.Connect(ctx, s.dsn())
				if err != nil {
					return
				}
				defer conn.Close(ctx)
				for {
					select {
					case <-stop:
						return
					default:
					}
					mu.Lock()
					id := nextID
					nextID++
					mu.Unlock()
					if _, err := conn.Exec(ctx, "INSERT INTO vx VALUES ($1, "+vxKey("$1")+", $2)", id, round+1); err != nil {
						return
					}
					mu.Lock()
					acked = append(acked, id)
					mu.Unlock()
					time.Sleep(5 * time.Millisecond)
				}
			}()
		}
		vacDone := make(chan error, 1)
		go func() {
			conn, err := pgx.Connect(ctx, s.dsn())
			if err != nil {
				vacDone <- err
				return
			}
			defer conn.Close(ctx)
			// Every page this VACUUM dirties costs a 5ms sleep (10ms in
			// the third round, which dirties the pages it deletes besides).
			if _, err := conn.Exec(ctx, "SET vacuum_cost_delay = 10"); err != nil {
				vacDone <- err
				return
			}
			if _, err := conn.Exec(ctx, fmt.Sprintf("SET vacuum_cost_limit = %d", []int{40, 40, 20}[round])); err != nil {
				vacDone <- err
				return
			}
			_, err = conn.Exec(ctx, "VACUUM vx")
			vacDone <- err
		}()
		deadline := time.Now().Add(time.Minute)
		for {
			var ph string
			err := c.QueryRow(ctx, "SELECT phase FROM pg_stat_progress_vacuum").Scan(&ph)
			if err != nil && err != pgx.ErrNoRows {
				t.Fatal(err)
			}
			if ph == phase {
				break
			}
			select {
			case err := <-vacDone:
				t.Fatalf("round %d: VACUUM ended (%v) before reaching phase %q", round, err, phase)
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("round %d: VACUUM did not reach phase %q in a minute", round, phase)
			}
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(time.Duration(50+rng.IntN(1000)) * time.Millisecond)
		var ph string
		if err := c.QueryRow(ctx, "SELECT phase FROM pg_stat_progress_vacuum").Scan(&ph); err != nil {
			t.Fatalf("round %d: VACUUM no longer running before the kill: %v", round, err)
		}
		s.kill()
		close(stop)
		wg.Wait()
		<-vacDone
		t.Logf("round %d: killed in phase %q", round, ph)

		s = startServer(t, dir, diskIndexSettings...)
		if !strings.Contains(s.log.String(), "redo starts") {
			t.Fatalf("round %d: no replay after the crash:\n%s", round, s.log)
		}
		c = connect(t, s)
		checkIndexes(t, c, "vx_pkey", "vx_k")
		mu.Lock()
		ackedNow := slices.Clone(acked)
		mu.Unlock()
		bySeq := idsBy(t, c, "SELECT id FROM vx")
		byPkey := idsBy(t, c, "SELECT id FROM vx WHERE id >= 0")
		byK := idsBy(t, c, "SELECT id FROM vx WHERE k >= ''")
		if !slices.Equal(bySeq, byPkey) || !slices.Equal(bySeq, byK) {
			t.Fatalf("round %d: %d rows by a sequential scan, %d through vx_pkey, %d through vx_k", round, len(bySeq), len(byPkey), len(byK))
		}
		for _, id := range ackedNow {
			if _, ok := slices.BinarySearch(bySeq, id); !ok {
				t.Fatalf("round %d: acknowledged row %d is missing", round, id)
			}
		}
		for _, id := range bySeq {
			if deleted[id] {
				t.Fatalf("round %d: deleted row %d is back", round, id)
			}
		}
		t.Logf("round %d: %d rows, %d acknowledged inserts checked", round, len(bySeq), len(ackedNow))
		for _, name := range []string{"vx_pkey", "vx_k"} {
			ip := readIndexPages(t, c, name)
			t.Logf("round %d: %s has %d live leaves, %d deleted and %d half-dead pages of %d", round, name, ip.leaves, ip.deleted, ip.halfDead, ip.blocks)
		}
	}

	// A VACUUM without delay finishes what the killed ones left: each
	// index holds one entry per row, and no entry of a removed row; no
	// deletion is left half done, and the emptied leaves are deleted.
	exec1(t, c, "VACUUM vx")
	checkIndexes(t, c, "vx_pkey", "vx_k")
	var live int
	if err := c.QueryRow(ctx, "SELECT count(*) FROM vx").Scan(&live); err != nil {
		t.Fatal(err)
	}
	blocks := map[string]int{}
	for _, name := range []string{"vx_pkey", "vx_k"} {
		ip := readIndexPages(t, c, name)
		t.Logf("%s: %d entries on %d leaves of %d blocks, %d deleted, %d half-dead", name, len(ip.entries), ip.leaves, ip.blocks, ip.deleted, ip.halfDead)
		if len(ip.entries) != live {
			t.Fatalf("after the last VACUUM %s holds %d entries for %d rows", name, len(ip.entries), live)
		}
		if ip.halfDead != 0 || ip.deleted < ip.blocks/4 {
			t.Fatalf("after the last VACUUM %s has %d deleted and %d half-dead pages of %d", name, ip.deleted, ip.halfDead, ip.blocks)
		}
		blocks[name] = ip.blocks
	}
	// Once a transaction that starts after the deletions has taken an
	// xid, the next VACUUM (a cleanup pass) makes the pages reusable, and
	// rows put back where the deleted leaves were go into them: the files
	// do not grow.
	exec1(t, c, "INSERT INTO later VALUES (1)")
	exec1(t, c, "VACUUM vx")
	exec1(t, c, fmt.Sprintf("INSERT INTO vx SELECT i, %s, 9 FROM generate_series(4001, 6000) i", vxKey("i")))
	checkIndexes(t, c, "vx_pkey", "vx_k")
	for _, name := range []string{"vx_pkey", "vx_k"} {
		if ip := readIndexPages(t, c, name); ip.blocks != blocks[name] {
			t.Fatalf("%s grew from %d to %d blocks with deleted pages to reuse", name, blocks[name], ip.blocks)
		}
	}
	s.stop(t)
}

// TestIndexHalfDeadCrash: a VACUUM whose page deletions fail after their
// first step (the btree-unlink fault: the pages of the second step cannot
// be read) leaves a half-dead leaf and ends with an error; the server is
// then killed (after a commit has flushed the WAL). After the restart the index with the half-dead leaf passes
// bt_index_check, finds exactly the table's rows, takes new rows in the
// half-dead leaf's key range, and the next VACUUM unlinks the leaf and
// deletes the other emptied leaves.
func TestIndexHalfDeadCrash(t *testing.T) {
	dir := t.TempDir()
	env, arm, _ := faultEnv(t, "btree-unlink=EIO")
	s := startServerEnv(t, dir, env, diskIndexSettings...)
	c := connect(t, s)
	ctx := context.Background()
	exec1(t, c, "CREATE EXTENSION amcheck")
	exec1(t, c, "CREATE EXTENSION pageinspect")
	exec1(t, c, "CREATE TABLE hd (id int PRIMARY KEY, k text) WITH (autovacuum_enabled = off)")
	exec1(t, c, "CREATE INDEX hd_k ON hd (k)")
	exec1(t, c, "INSERT INTO hd SELECT i, "+vxKey("i")+" FROM generate_series(1, 12000) i")
	exec1(t, c, "DELETE FROM hd WHERE id > 1000 AND id <= 11000")
	arm()
	if _, err := c.Exec(ctx, "VACUUM hd"); err == nil {
		t.Fatal("VACUUM succeeded with the second step of page deletion failing")
	} else {
		t.Logf("VACUUM: %v", err)
	}
	// A commit flushes the WAL, the half-dead record with it.
	exec1(t, c, "CREATE TABLE flushed (x int)")
	exec1(t, c, "INSERT INTO flushed VALUES (1)")
	s.kill()

	s = startServerEnv(t, dir, nil, diskIndexSettings...)
	c = connect(t, s)
	checkIndexes(t, c, "hd_pkey", "hd_k")
	halfDead := 0
	for _, name := range []string{"hd_pkey", "hd_k"} {
		halfDead += readIndexPages(t, c, name).halfDead
	}
	if halfDead != 1 {
		t.Fatalf("%d half-dead pages after the failed VACUUM, want 1", halfDead)
	}
	want := idsBy(t, c, "SELECT id FROM hd")
	if len(want) != 2000 {
		t.Fatalf("%d rows after the crash, want 2000", len(want))
	}
	for _, q := range []string{"SELECT id FROM hd WHERE id >= 0", "SELECT id FROM hd WHERE k >= ''"} {
		if got := idsBy(t, c, q); !slices.Equal(got, want) {
			t.Fatalf("%s: %d rows, a sequential scan finds %d", q, len(got), len(want))
		}
	}
	exec1(t, c, "INSERT INTO hd SELECT i, "+vxKey("i")+" FROM generate_series(1001, 1100) i")
	exec1(t, c, "VACUUM hd")
	checkIndexes(t, c, "hd_pkey", "hd_k")
	var rows int
	if err := c.QueryRow(ctx, "SELECT count(*) FROM hd").Scan(&rows); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"hd_pkey", "hd_k"} {
		ip := readIndexPages(t, c, name)
		t.Logf("%s: %d entries on %d leaves, %d deleted, %d half-dead of %d blocks", name, len(ip.entries), ip.leaves, ip.deleted, ip.halfDead, ip.blocks)
		if ip.halfDead != 0 || ip.deleted < ip.blocks/2 || len(ip.entries) != rows {
			t.Fatalf("after the next VACUUM %s: %+v for %d rows", name, ip, rows)
		}
	}
	s.stop(t)
}
