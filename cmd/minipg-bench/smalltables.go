package main

// smalltables: the cost of keeping no free space map for small tables.
// T tables are filled to B blocks of small rows with every insert going
// through the free-space logic (debug_fsm_ignore_target makes minipg's
// sessions forget their target block); the time per table is the trimmed
// mean of -runs runs, for each small-table threshold. PostgreSQL cannot be
// told to ignore its cached target block: it runs its stock behaviour,
// labelled so. Then 1,000 one-block tables, each VACUUMed, show the files
// and bytes the threshold saves.

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

const smallRowsPerBlock = 226 // int4 rows on a page at fillfactor 100 (rowsPerPage(4))

func smalltablesMain(args []string) (err error) {
	fset := flag.NewFlagSet("minipg-bench smalltables", flag.ExitOnError)
	ff := addFrameFlags(fset, 1)
	tables := fset.Int("tables", 100, "tables per run")
	blocksFlag := fset.String("blocks", "1,2,3,4,5,6,7,8,16,32", "table sizes in blocks")
	thresholds := fset.String("thresholds", "0,4,8", "fsm_small_table_blocks values (0: every table has an FSM)")
	runs := fset.Int("runs", 10, "runs per size, of which the trimmed mean is reported")
	fileTables := fset.Int("file-tables", 1000, "one-block tables whose _fsm files are counted (0: skip)")
	fset.Parse(args) //nolint:errcheck // ExitOnError
	sizes, err := parseInts(*blocksFlag)
	if err != nil {
		return fmt.Errorf("-blocks %w", err)
	}
	var variants []variant
	for _, th := range strings.Split(*thresholds, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(th))
		if err != nil || n < 0 {
			return fmt.Errorf("-thresholds %q: want integers >= 0", *thresholds)
		}
		variants = append(variants, variant{suffix: fmt.Sprintf("/small=%d", n),
			settings: map[string]string{"fsm_small_table_blocks": strconv.Itoa(n)}})
	}
	f, err := newFrame("smalltables", args, ff, variants)
	if err != nil {
		return err
	}
	defer f.end(&err)
	for i, t := range f.targets {
		if t.isPG() {
			t.Label = "stock behaviour: PostgreSQL always uses its cached target block"
			f.run.Targets[i].Label = t.Label
		}
	}
	ctx := context.Background()
	f.steps(len(sizes))
	for _, b := range sizes {
		err := f.each(fmt.Sprintf("%d tables of %d blocks", *tables, b), func(_ int, t *benchTarget) error {
			return runSmallTables(ctx, f, t, *tables, b, *runs)
		})
		if err != nil {
			return err
		}
	}
	if *fileTables > 0 {
		f.prog.grow(len(f.targets))
		for _, t := range f.targets {
			f.prog.step(fmt.Sprintf("%d one-block tables, %s", *fileTables, t.Name))
			if err := countFSMFiles(ctx, f, t, *fileTables); err != nil {
				return fmt.Errorf("%s: %w", t.Name, err)
			}
		}
		savedVsAlways(f.run)
	}
	return nil
}

// runSmallTables times runs fills of n tables to blocks blocks on t and
// records the trimmed mean time per table.
func runSmallTables(ctx context.Context, f *frame, t *benchTarget, n, blocks, runs int) error {
	c, err := pgx.Connect(ctx, t.dsn)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	if !t.isPG() {
		if _, err := c.Exec(ctx, "SET debug_fsm_ignore_target = on"); err != nil {
			return fmt.Errorf("debug_fsm_ignore_target: %w", err)
		}
	}
	var b strings.Builder
	b.WriteString(" VALUES ")
	for i := range blocks * smallRowsPerBlock {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "(%d)", i)
	}
	values := b.String()
	name := func(i int) string { return fmt.Sprintf("minipg_bench_small_%d", i) }
	var perTable []float64
	var sizeSum int64
	for range runs {
		for i := range n {
			if err := recreate(ctx, c, name(i), "v int"); err != nil {
				return err
			}
		}
		start := time.Now()
		for i := range n {
			if _, err := c.Exec(ctx, "INSERT INTO "+name(i)+values); err != nil {
				return err
			}
		}
		perTable = append(perTable, float64(time.Since(start))/float64(time.Millisecond)/float64(n))
		sizeSum = 0
		for i := range n {
			var size int64
			if err := c.QueryRow(ctx, "SELECT pg_relation_size('"+name(i)+"')").Scan(&size); err != nil {
				return err
			}
			sizeSum += size
		}
		for i := range n {
			if _, err := c.Exec(ctx, "DROP TABLE "+name(i)); err != nil {
				return err
			}
		}
	}
	rec := func(metric, unit string, v float64) {
		f.run.add("smalltables", fmt.Sprintf("%d tables", n), "blocks", float64(blocks), t.Name, metric, unit, v)
	}
	rec(fmt.Sprintf("ms per table (trimmed mean of %d)", runs), "ms", trimmedMean(perTable))
	rec("blocks per table", "blocks", float64(sizeSum)/8192/float64(n))
	return nil
}

// countFSMFiles creates n one-block tables on t, VACUUMs each, counts
// their free space map files and bytes, and drops them. On a minipg started here the
// _fsm files of its data directory are counted after a CHECKPOINT; on
// PostgreSQL pg_relation_size(..., 'fsm') of the tables.
func countFSMFiles(ctx context.Context, f *frame, t *benchTarget, n int) error {
	c, err := pgx.Connect(ctx, t.dsn)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	name := func(i int) string { return fmt.Sprintf("minipg_bench_one_%d", i) }
	for i := range n {
		if err := recreate(ctx, c, name(i), "v int"); err != nil {
			return err
		}
		if _, err := c.Exec(ctx, "INSERT INTO "+name(i)+" VALUES (1), (2), (3)"); err != nil {
			return err
		}
		// VACUUM records every page's free space, as autovacuum would:
		// that is what gives a table its map when it has none yet.
		if _, err := c.Exec(ctx, "VACUUM "+name(i)); err != nil {
			return err
		}
	}
	defer func() {
		for i := range n {
			_, _ = c.Exec(ctx, "DROP TABLE IF EXISTS "+name(i))
		}
	}()
	if _, err := c.Exec(ctx, "CHECKPOINT"); err != nil {
		return err
	}
	var files, bytes int64
	switch {
	case t.isPG():
		var names []string
		for i := range n {
			names = append(names, name(i))
		}
		err := c.QueryRow(ctx, `SELECT count(*) FILTER (WHERE pg_relation_size(oid, 'fsm') > 0),
			coalesce(sum(pg_relation_size(oid, 'fsm')), 0) FROM pg_class WHERE relname = ANY($1)`, names).Scan(&files, &bytes)
		if err != nil {
			return err
		}
	case t.dataDir != "":
		files, bytes, err = fsmFilesIn(filepath.Join(t.dataDir, "base"))
		if err != nil {
			return err
		}
	default:
		f.run.note(t.Name + ": _fsm files not counted (the data directory of a server not started here is unknown)")
		return nil
	}
	w := fmt.Sprintf("%d one-block tables", n)
	f.run.add("smalltables", w, "", 0, t.Name, "_fsm files", "files", float64(files))
	f.run.add("smalltables", w, "", 0, t.Name, "_fsm bytes", "bytes", float64(bytes))
	return nil
}

// fsmFilesIn counts the files under dir whose names end in _fsm (a table's
// free space map fork, possibly with segment suffixes) and their bytes.
func fsmFilesIn(dir string) (files, bytes int64, err error) {
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		base := d.Name()
		if d.IsDir() || !(strings.HasSuffix(base, "_fsm") || strings.Contains(base, "_fsm.")) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		files++
		bytes += info.Size()
		return nil
	})
	return files, bytes, err
}

// savedVsAlways adds, for each minipg target with a small-table threshold,
// the _fsm files and bytes saved against the same policy's target with
// threshold 0 (every table has an FSM).
func savedVsAlways(r *Run) {
	find := func(target, metric string) *Series {
		for _, s := range r.Series {
			if s.Experiment == "smalltables" && s.Target == target && s.Metric == metric && s.XName == "" {
				return s
			}
		}
		return nil
	}
	for _, t := range r.Targets {
		if t.Kind != "minipg" || t.Settings["fsm_small_table_blocks"] == "" {
			continue
		}
		base := strings.TrimSuffix(t.Name, "/small="+t.Settings["fsm_small_table_blocks"]) + "/small=0"
		for _, m := range []string{"_fsm files", "_fsm bytes"} {
			a, b := find(base, m), find(t.Name, m)
			if a == nil || b == nil {
				continue
			}
			r.add("smalltables", b.Workload, "", 0, t.Name, m+" saved vs small=0", b.Unit, a.Samples[0]-b.Samples[0])
		}
	}
}
