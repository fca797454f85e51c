package crashtest

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// diskIndexSettings start the server with its indexes on disk
// (storage/nbtree), whatever MINIPG_TEST_INDEX_STORAGE says.
var diskIndexSettings = []string{"index_storage=disk", "checkpoint_timeout=30s"}

// splitKey is a wide key in random order for row id: the index on it
// splits a leaf every few dozen inserts, in the middle of the tree.
func splitKey(id int) string {
	h := fnv.New32a()
	fmt.Fprint(h, id)
	return fmt.Sprintf("%08x-%d-%s", h.Sum32(), id, strings.Repeat("k", 150))
}

// checkIndexes runs bt_index_check(..., heapallindexed => true) on each
// index: the structure holds and every row the table shows has its entry.
func checkIndexes(t *testing.T, c *pgx.Conn, names ...string) {
	t.Helper()
	for _, name := range names {
		if _, err := c.Exec(context.Background(), "SELECT bt_index_check($1, true)", name); err != nil {
			t.Fatalf("bt_index_check(%s, true) after the crash: %v", name, err)
		}
	}
}

// TestIndexSplitCrash: clients insert committed rows whose keys split the
// pages of two disk indexes (a primary key and a wide text key in random
// order) until the server is killed with SIGKILL, three times over one
// data directory. After each restart (which checks every index's
// structure at start-up) both indexes pass bt_index_check with
// heapallindexed, and every acknowledged row is found through each index.
func TestIndexSplitCrash(t *testing.T) {
	dir := t.TempDir()
	s := startServer(t, dir, diskIndexSettings...)
	c := connect(t, s)
	exec1(t, c, "CREATE EXTENSION amcheck")
	exec1(t, c, "CREATE TABLE ix (id int PRIMARY KEY, k text, n int)")
	exec1(t, c, "CREATE INDEX ix_k ON ix (k)")
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	var mu sync.Mutex
	var acked []int
	next := make([]int, nClients)
	ctx := context.Background()
	for round := 0; round < 3; round++ {
		var wg sync.WaitGroup
		for cl := 0; cl < nClients; cl++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				conn, err := pgx.Connect(ctx, s.dsn())
				if err != nil {
					return
				}
				defer conn.Close(ctx)
				for {
					tx, err := conn.Begin(ctx)
					if err != nil {
						return
					}
					var ids []int
					for range 1 + cl%3 {
						next[cl]++
						id := rowID(cl, next[cl])
						ids = append(ids, id)
						if _, err := tx.Exec(ctx, "INSERT INTO ix VALUES ($1, $2, $3)", id, splitKey(id), round); err != nil {
							return
						}
					}
					if err := tx.Commit(ctx); err != nil {
						return
					}
					mu.Lock()
					acked = append(acked, ids...)
					mu.Unlock()
				}
			}()
		}
		// Let the inserts split pages (ix_k grows by at least ten blocks),
		// then kill at a random moment.
		var start, blocks int
		if err := c.QueryRow(ctx, "SELECT pg_relation_size('ix_k') / 8192").Scan(&start); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(time.Minute); blocks < start+10; time.Sleep(20 * time.Millisecond) {
			if err := c.QueryRow(ctx, "SELECT pg_relation_size('ix_k') / 8192").Scan(&blocks); err != nil {
				t.Fatal(err)
			}
			if time.Now().After(deadline) {
				t.Fatalf("round %d: ix_k grew from %d to %d blocks in a minute", round, start, blocks)
			}
		}
		time.Sleep(time.Duration(rng.IntN(500)) * time.Millisecond)
		s.kill()
		wg.Wait()

		s = startServer(t, dir, diskIndexSettings...)
		c = connect(t, s)
		if !strings.Contains(s.log.String(), "index check passed") {
			t.Fatalf("round %d: the restarted server did not check its indexes:\n%s", round, s.log)
		}
		checkIndexes(t, c, "ix_pkey", "ix_k")
		var leaves int
		if err := c.QueryRow(ctx, "SELECT pg_relation_size('ix_k') / 8192").Scan(&leaves); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		ids := append([]int(nil), acked...)
		mu.Unlock()
		for _, id := range ids {
			var byID, byKey int
			if err := c.QueryRow(ctx, "SELECT count(*) FROM ix WHERE id = $1", id).Scan(&byID); err != nil {
				t.Fatal(err)
			}
			if err := c.QueryRow(ctx, "SELECT count(*) FROM ix WHERE k = $1", splitKey(id)).Scan(&byKey); err != nil {
				t.Fatal(err)
			}
			if byID != 1 || byKey != 1 {
				t.Fatalf("round %d: acknowledged row %d found %d times by ix_pkey, %d by ix_k", round, id, byID, byKey)
			}
		}
		var total int
		if err := c.QueryRow(ctx, "SELECT count(*) FROM ix").Scan(&total); err != nil {
			t.Fatal(err)
		}
		t.Logf("round %d: %d acknowledged rows checked, %d in the table, ix_k %d blocks", round, len(ids), total, leaves)
		if total < len(ids) {
			t.Fatalf("round %d: %d rows, fewer than the %d acknowledged", round, total, len(ids))
		}
	}
	s.stop(t)
}

// TestCreateIndexCrash: the server is killed while CREATE INDEX builds a
// disk index (at a random moment: before, during or after the build),
// several times. After each restart the index exists if its CREATE INDEX
// was acknowledged, any index the catalog has passes bt_index_check with
// heapallindexed, and no file in base/ lacks an owner in pg_class (a build
// the crash cut short leaves none behind).
func TestCreateIndexCrash(t *testing.T) {
	dir := t.TempDir()
	s := startServer(t, dir, diskIndexSettings...)
	c := connect(t, s)
	ctx := context.Background()
	exec1(t, c, "CREATE EXTENSION amcheck")
	exec1(t, c, "CREATE TABLE big (id int PRIMARY KEY, k text)")
	const nrows = 40000
	for b := 0; b < nrows/5000; b++ {
		exec1(t, c, fmt.Sprintf("INSERT INTO big SELECT i, md5(i::text) || repeat('b', 100) FROM generate_series(%d, %d) i", b*5000, b*5000+4999))
	}
	// How long a build takes, from the second of two probes (the first
	// also sets the new rows' hint bits). Even rounds kill within twice
	// that time, so before, during or after the build; odd rounds within
	// half of it, so mostly during. Each acknowledged build's own time
	// replaces the estimate (a restarted server reads the table again,
	// faster or slower than the probe did), and when six rounds have cut
	// no build, up to six more kill within a quarter of it.
	var build time.Duration
	for range 2 {
		start := time.Now()
		exec1(t, c, "CREATE INDEX big_probe ON big (k, id)")
		build = time.Since(start)
		exec1(t, c, "DROP INDEX big_probe")
	}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 11))
	cut := 0
	for round := 0; round < 6 || cut == 0 && round < 12; round++ {
		name := fmt.Sprintf("big_k%d", round)
		type ack struct {
			err  error
			took time.Duration
		}
		done := make(chan ack, 1)
		go func() {
			start := time.Now()
			_, err := c.Exec(ctx, "CREATE INDEX "+name+" ON big (k, id)")
			done <- ack{err, time.Since(start)}
		}()
		window := 2 * build
		switch {
		case round >= 6:
			window = build / 4
		case round%2 == 1:
			window = build / 2
		}
		time.Sleep(time.Duration(rng.Int64N(int64(window) + 1)))
		s.kill()
		a := <-done
		ackErr := a.err
		if ackErr == nil {
			build = a.took
		}
		c.Close(ctx)

		s = startServer(t, dir, diskIndexSettings...)
		c = connect(t, s)
		var have []string
		rows, err := c.Query(ctx, "SELECT indexrelid::regclass::text FROM pg_index WHERE indrelid = 'big'::regclass ORDER BY 1")
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var n string
			if err := rows.Scan(&n); err != nil {
				t.Fatal(err)
			}
			have = append(have, n)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		built := false
		for _, n := range have {
			built = built || n == name
		}
		if ackErr == nil && !built {
			t.Fatalf("round %d: CREATE INDEX %s was acknowledged but the index is gone (indexes %v)", round, name, have)
		}
		t.Logf("round %d: CREATE INDEX acknowledged: %v, index there: %v, orphan file removed: %v (estimate %v)",
			round, ackErr == nil, built, strings.Contains(s.log.String(), "removing files of a dropped relation"), build)
		if ackErr != nil {
			cut++
		}
		checkIndexes(t, c, have...)
		if built {
			var n int
			if err := c.QueryRow(ctx, "SELECT count(*) FROM big WHERE k >= ''").Scan(&n); err != nil || n != nrows {
				t.Fatalf("round %d: %d rows through %s, %v", round, n, name, err)
			}
		}
		owned := map[string]bool{}
		rows, err = c.Query(ctx, "SELECT relfilenode FROM pg_class")
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var rfn uint32
			if err := rows.Scan(&rfn); err != nil {
				t.Fatal(err)
			}
			owned[strconv.FormatUint(uint64(rfn), 10)] = true
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		for f := range baseFiles(t, dir) {
			rel, _, _ := strings.Cut(f, "_")
			if _, err := strconv.Atoi(rel); err == nil && !owned[rel] {
				t.Fatalf("round %d: file %s has no relation after recovery (pg_class %v)", round, f, owned)
			}
		}
	}
	if cut == 0 {
		t.Fatalf("no kill in 12 rounds landed before a CREATE INDEX was acknowledged (the last build took %v)", build)
	}
	s.stop(t)
}
