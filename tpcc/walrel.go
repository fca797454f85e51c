package tpcc

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

// RelWAL is the WAL one table (or one record type of it) caused during a
// measurement.
type RelWAL struct {
	Rel        string  `json:"rel"`
	RecordType string  `json:"record_type,omitempty"` // "" for the table's total
	Records    float64 `json:"records"`
	FPI        float64 `json:"fpi"`
	Bytes      float64 `json:"bytes"`
	// PagesDirtied is minipg's count of pages the table's changes
	// dirtied; from pg_walinspect, the distinct blocks the WAL records
	// refer to (each such page was dirtied at least once).
	PagesDirtied float64 `json:"pages_dirtied"`
}

// ErrNoWALRel says that the server offers no per-table WAL accounting.
var ErrNoWALRel = errors.New("no per-table WAL accounting")

// WALRelProbe measures the per-table WAL between Start and Stop, from
// minipg's minipg_stat_wal_rel view or, on PostgreSQL, pg_walinspect.
// pg_walinspect reads only the WAL still on disk: over a long measurement,
// Watch reads it every few seconds, before checkpoints recycle it.
type WALRelProbe struct {
	Source string // "minipg_stat_wal_rel" or "pg_walinspect"
	before []RelWAL
	// pg_walinspect
	next uint64 // LSN the next read starts at
	fn   string // pg_get_wal_records_info, qualified by the extension's schema
	acc  walAcc
	err  error // first failed read of a Watch
}

// StartWALRel takes the first reading on c. It returns an error wrapping
// ErrNoWALRel when the server has neither the view nor pg_walinspect (the
// caller skips the figures then).
func StartWALRel(ctx context.Context, c *pgx.Conn) (*WALRelProbe, error) {
	if rows, err := readWALRelView(ctx, c); err == nil {
		return &WALRelProbe{Source: "minipg_stat_wal_rel", before: rows}, nil
	} else if !isUndefined(err) {
		return nil, err
	}
	if _, err := c.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS pg_walinspect"); err != nil {
		return nil, fmt.Errorf("%w: minipg_stat_wal_rel absent, pg_walinspect: %v", ErrNoWALRel, err)
	}
	var schema string
	if err := c.QueryRow(ctx, `SELECT n.nspname::text FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
		WHERE e.extname = 'pg_walinspect'`).Scan(&schema); err != nil {
		return nil, err
	}
	p := &WALRelProbe{Source: "pg_walinspect", fn: pgx.Identifier{schema, "pg_get_wal_records_info"}.Sanitize()}
	var err error
	if p.next, err = readLSN(ctx, c, "pg_current_wal_insert_lsn()"); err != nil {
		return nil, err
	}
	return p, nil
}

// Watch reads the WAL on c every interval until the returned function is
// called (which waits for the last read to end). c must not be used
// otherwise meanwhile. It does nothing for minipg_stat_wal_rel, whose
// counters are cumulative.
func (p *WALRelProbe) Watch(ctx context.Context, c *pgx.Conn, interval time.Duration) (stop func()) {
	if p.Source != "pg_walinspect" {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if err := p.read(ctx, c); err != nil && p.err == nil {
					p.err = err
				}
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}

// read adds the records from p.next up to the flushed end of the WAL
// (PostgreSQL 15 refuses an end past it; the measured work commits, so its
// records are flushed). A record is read once: pg_get_wal_records_info
// returns the records that start in [start, end), and the next read
// starts at the first record at or after end.
func (p *WALRelProbe) read(ctx context.Context, c *pgx.Conn) error {
	end, err := readLSN(ctx, c, "pg_current_wal_flush_lsn()")
	if err != nil || end <= p.next {
		return err
	}
	rows, err := c.Query(ctx, `SELECT record_type, record_length, coalesce(block_ref, '')
		FROM `+p.fn+`($1::pg_lsn, $2::pg_lsn)`, formatLSN(p.next), formatLSN(end))
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var r walRecord
		if err := rows.Scan(&r.typ, &r.length, &r.blockRef); err != nil {
			return err
		}
		p.acc.add(r)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	p.next = end
	return nil
}

func readLSN(ctx context.Context, c *pgx.Conn, expr string) (uint64, error) {
	var s string
	if err := c.QueryRow(ctx, "SELECT "+expr+"::text").Scan(&s); err != nil {
		return 0, err
	}
	hi, lo, ok := strings.Cut(s, "/")
	h, err1 := strconv.ParseUint(hi, 16, 32)
	l, err2 := strconv.ParseUint(lo, 16, 32)
	if !ok || err1 != nil || err2 != nil {
		return 0, fmt.Errorf("bad LSN %q", s)
	}
	return h<<32 | l, nil
}

func formatLSN(lsn uint64) string { return fmt.Sprintf("%X/%X", lsn>>32, uint32(lsn)) }

// Stop takes the second reading and returns, per table, the total (with
// RecordType "") followed by the figures per record type, tables in name
// order.
func (p *WALRelProbe) Stop(ctx context.Context, c *pgx.Conn) ([]RelWAL, error) {
	if p.Source == "pg_walinspect" {
		return p.walinspect(ctx, c)
	}
	after, err := readWALRelView(ctx, c)
	if err != nil {
		return nil, err
	}
	type key struct{ rel, typ string }
	before := map[key]RelWAL{}
	for _, r := range p.before {
		before[key{r.Rel, r.RecordType}] = r
	}
	var diff []RelWAL
	for _, r := range after {
		b := before[key{r.Rel, r.RecordType}]
		d := RelWAL{Rel: r.Rel, RecordType: r.RecordType, Records: r.Records - b.Records, FPI: r.FPI - b.FPI,
			Bytes: r.Bytes - b.Bytes, PagesDirtied: r.PagesDirtied - b.PagesDirtied}
		if d.Records != 0 || d.FPI != 0 || d.Bytes != 0 || d.PagesDirtied != 0 {
			diff = append(diff, d)
		}
	}
	return withTotals(diff), nil
}

// withTotals sorts per-type rows by table and type and puts a total row
// (RecordType "") before each table's rows. Rows that are totals already
// (a view without a record type column) are kept as they are.
func withTotals(rows []RelWAL) []RelWAL {
	slices.SortFunc(rows, func(a, b RelWAL) int {
		if c := strings.Compare(a.Rel, b.Rel); c != 0 {
			return c
		}
		return strings.Compare(a.RecordType, b.RecordType)
	})
	var out []RelWAL
	for i := 0; i < len(rows); {
		j := i
		tot := RelWAL{Rel: rows[i].Rel}
		for ; j < len(rows) && rows[j].Rel == rows[i].Rel; j++ {
			r := rows[j]
			tot.Records += r.Records
			tot.FPI += r.FPI
			tot.Bytes += r.Bytes
			tot.PagesDirtied += r.PagesDirtied
		}
		if j-i == 1 && rows[i].RecordType == "" {
			out = append(out, rows[i])
		} else {
			out = append(out, tot)
			out = append(out, rows[i:j]...)
		}
		i = j
	}
	return out
}

func isUndefined(err error) bool {
	s := err.Error()
	return strings.Contains(s, "42P01") || strings.Contains(s, "does not exist") || strings.Contains(s, "not supported")
}

// walRelColumns are the names minipg_stat_wal_rel's columns are looked up
// by, first match wins: the view is read by column name so that it may
// gain or rename columns.
var walRelColumns = map[string][]string{
	"rel":     {"relname", "rel", "relation", "table_name"},
	"type":    {"record_type", "type", "rmgr_record", "record"},
	"records": {"records", "wal_records", "count"},
	"fpi":     {"fpi", "fpis", "wal_fpi", "full_page_images"},
	"bytes":   {"bytes", "wal_bytes"},
	"dirtied": {"pages_dirtied", "blks_dirtied", "dirtied"},
}

func readWALRelView(ctx context.Context, c *pgx.Conn) ([]RelWAL, error) {
	rows, err := c.Query(ctx, "SELECT * FROM minipg_stat_wal_rel")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	col := map[string]int{}
	fds := rows.FieldDescriptions()
	for role, names := range walRelColumns {
		for _, n := range names {
			if i := slices.IndexFunc(fds, func(fd pgconn.FieldDescription) bool { return fd.Name == n }); i >= 0 {
				col[role] = i
				break
			}
		}
	}
	if _, ok := col["rel"]; !ok {
		return nil, fmt.Errorf("minipg_stat_wal_rel has no relation name column")
	}
	// Rows with the same name and record type (the NULL name of records
	// of no table and of every dropped table, each dropped table a row of
	// its own) are summed: a reading is one row per name and type.
	var out []RelWAL
	at := map[[2]string]int{}
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return nil, err
		}
		r := RelWAL{Rel: fmt.Sprint(vals[col["rel"]])}
		if i, ok := col["type"]; ok && vals[i] != nil {
			r.RecordType = fmt.Sprint(vals[i])
		}
		num := func(role string) float64 {
			i, ok := col[role]
			if !ok {
				return 0
			}
			return toFloat(vals[i])
		}
		r.Records, r.FPI, r.Bytes, r.PagesDirtied = num("records"), num("fpi"), num("bytes"), num("dirtied")
		k := [2]string{r.Rel, r.RecordType}
		if i, ok := at[k]; ok {
			out[i].Records += r.Records
			out[i].FPI += r.FPI
			out[i].Bytes += r.Bytes
			out[i].PagesDirtied += r.PagesDirtied
			continue
		}
		at[k] = len(out)
		out = append(out, r)
	}
	return out, rows.Err()
}

// blkref matches one block reference of pg_get_wal_records_info's
// block_ref column (PostgreSQL 15): "blkref #0: rel 1663/5/16384 fork main
// blk 7 (FPW); hole: offset: 32, length: 8096" (" FPW" in the short form).
var blkref = regexp.MustCompile(`blkref #\d+: rel \d+/\d+/(\d+)(?: fork (\w+))? blk (\d+)( \(?FPW)?`)

// walinspect reads the rest of the WAL and attributes the records to
// tables by relfilenode (pg_class as it is now: the files of tables
// dropped meanwhile keep their number).
func (p *WALRelProbe) walinspect(ctx context.Context, c *pgx.Conn) ([]RelWAL, error) {
	if p.err != nil {
		return nil, p.err
	}
	if err := p.read(ctx, c); err != nil {
		return nil, err
	}
	names := map[string]string{}
	rows, err := c.Query(ctx, "SELECT relfilenode::text, relname::text FROM pg_class WHERE relfilenode <> 0")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var node, name string
		if err := rows.Scan(&node, &name); err != nil {
			return nil, err
		}
		names[node] = name
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return p.acc.result(names), nil
}

// walRecord is one row of pg_get_wal_records_info.
type walRecord struct {
	typ      string
	length   int64
	blockRef string
}

// attribute sums records per table (named through names, relfilenode to
// relname) and record type, as walAcc does.
func attribute(names map[string]string, recs []walRecord) []RelWAL {
	var a walAcc
	for _, r := range recs {
		a.add(r)
	}
	return a.result(names)
}

// walAcc sums WAL records per relation file and record type: a record
// counts once for each relation it refers to, its length goes to the
// relation of its first block reference, each FPW to its block's
// relation, and pages dirtied are the distinct blocks referred to.
type walAcc struct {
	m map[accKey]*accVal
}

type accKey struct{ node, fork, typ string }

type accVal struct {
	records, fpi, bytes float64
	pages               map[string]bool
}

func (a *walAcc) add(rec walRecord) {
	if a.m == nil {
		a.m = map[accKey]*accVal{}
	}
	type file struct{ node, fork string }
	seen := map[file]bool{}
	for i, m := range blkref.FindAllStringSubmatch(rec.blockRef, -1) {
		fork := m[2]
		if fork == "" {
			fork = "main"
		}
		k := accKey{m[1], fork, rec.typ}
		v := a.m[k]
		if v == nil {
			v = &accVal{pages: map[string]bool{}}
			a.m[k] = v
		}
		if f := (file{m[1], fork}); !seen[f] {
			seen[f] = true
			v.records++
		}
		if i == 0 {
			v.bytes += float64(rec.length)
		}
		if m[4] != "" {
			v.fpi++
		}
		v.pages[m[3]] = true
	}
}

// result names the relations (a fork other than main after the name, an
// unknown file by its number) and returns the totals per relation followed
// by the figures per record type, relations in name order.
func (a *walAcc) result(names map[string]string) []RelWAL {
	name := func(k accKey) string {
		rel := names[k.node]
		if rel == "" {
			rel = "relfilenode " + k.node
		}
		if k.fork != "main" {
			rel += " (" + k.fork + ")"
		}
		return rel
	}
	relPages := map[string]map[string]bool{}
	var out []RelWAL
	for k, v := range a.m {
		rel := name(k)
		if relPages[rel] == nil {
			relPages[rel] = map[string]bool{}
		}
		for b := range v.pages {
			relPages[rel][b] = true
		}
		out = append(out, RelWAL{Rel: rel, RecordType: k.typ, Records: v.records, FPI: v.fpi, Bytes: v.bytes,
			PagesDirtied: float64(len(v.pages))})
	}
	out = withTotals(out)
	for i := range out {
		if out[i].RecordType == "" {
			out[i].PagesDirtied = float64(len(relPages[out[i].Rel]))
		}
	}
	return out
}

// toFloat reads a numeric value of any of the types pgx decodes columns
// into (wal_bytes is numeric, the counters int8).
func toFloat(v any) float64 {
	switch x := v.(type) {
	case nil:
		return 0
	case pgtype.Numeric:
		f, err := x.Float64Value()
		if err != nil || !f.Valid {
			return 0
		}
		return f.Float64
	case int64:
		return float64(x)
	case int32:
		return float64(x)
	case float64:
		return x
	}
	f, _ := strconv.ParseFloat(fmt.Sprint(v), 64)
	return f
}
