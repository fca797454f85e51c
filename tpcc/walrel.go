package tpcc

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
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
type WALRelProbe struct {
	Source string // "minipg_stat_wal_rel" or "pg_walinspect"
	before []RelWAL
	start  string // LSN, pg_walinspect
	fn     string // pg_get_wal_records_info, qualified by the extension's schema
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
	if err := c.QueryRow(ctx, "SELECT pg_current_wal_insert_lsn()::text").Scan(&p.start); err != nil {
		return nil, err
	}
	return p, nil
}

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
	var out []RelWAL
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
			f, _ := strconv.ParseFloat(fmt.Sprint(vals[i]), 64)
			return f
		}
		r.Records, r.FPI, r.Bytes, r.PagesDirtied = num("records"), num("fpi"), num("bytes"), num("dirtied")
		out = append(out, r)
	}
	return out, rows.Err()
}

// blkref matches one block reference of pg_get_wal_records_info's
// block_ref column (PostgreSQL 15): "blkref #0: rel 1663/5/16384 fork main
// blk 7 (FPW); hole: offset: 32, length: 8096" (" FPW" in the short form).
var blkref = regexp.MustCompile(`blkref #\d+: rel \d+/\d+/(\d+)(?: fork (\w+))? blk (\d+)( \(?FPW)?`)

// walinspect reads the records between the start LSN and the flushed end
// of the WAL (PostgreSQL 15 refuses an end past it; the measured work has
// committed, so its records are flushed) and
// attributes them to tables by relfilenode: a record counts once for each
// table it refers to, its length goes to the table of its first block
// reference, each FPW to its block's table.
func (p *WALRelProbe) walinspect(ctx context.Context, c *pgx.Conn) ([]RelWAL, error) {
	names := map[string]string{}
	rows, err := c.Query(ctx, "SELECT relfilenode::text, relname::text FROM pg_class WHERE relfilenode <> 0")
	if err != nil {
		return nil, err
	}
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
	rows, err = c.Query(ctx, `SELECT record_type, record_length, coalesce(block_ref, '')
		FROM `+p.fn+`($1::pg_lsn, pg_current_wal_flush_lsn())`, p.start)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var recs []walRecord
	for rows.Next() {
		var r walRecord
		if err := rows.Scan(&r.typ, &r.length, &r.blockRef); err != nil {
			return nil, err
		}
		recs = append(recs, r)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return attribute(names, recs), nil
}

// walRecord is one row of pg_get_wal_records_info.
type walRecord struct {
	typ      string
	length   int64
	blockRef string
}

// attribute sums records per table (named through names, relfilenode to
// relname) and record type: a record counts once for each table it refers
// to, its length goes to the table of its first block reference, each FPW
// to its block's table, and pages dirtied are the distinct blocks referred
// to.
func attribute(names map[string]string, recs []walRecord) []RelWAL {
	type key struct{ rel, typ string }
	acc := map[key]*RelWAL{}
	pages := map[key]map[string]bool{}
	get := func(k key) *RelWAL {
		if acc[k] == nil {
			acc[k] = &RelWAL{Rel: k.rel, RecordType: k.typ}
			pages[k] = map[string]bool{}
		}
		return acc[k]
	}
	for _, rec := range recs {
		seen := map[string]bool{}
		for i, m := range blkref.FindAllStringSubmatch(rec.blockRef, -1) {
			rel := names[m[1]]
			if rel == "" {
				rel = "relfilenode " + m[1]
			}
			if m[2] != "" && m[2] != "main" {
				rel += " (" + m[2] + ")"
			}
			k := key{rel, rec.typ}
			r := get(k)
			if !seen[rel] {
				seen[rel] = true
				r.Records++
			}
			if i == 0 {
				r.Bytes += float64(rec.length)
			}
			if m[4] != "" {
				r.FPI++
			}
			pages[k][m[3]] = true
		}
	}
	// Distinct pages per table over all record types.
	relPages := map[string]map[string]bool{}
	var out []RelWAL
	for k, r := range acc {
		r.PagesDirtied = float64(len(pages[k]))
		if relPages[k.rel] == nil {
			relPages[k.rel] = map[string]bool{}
		}
		for b := range pages[k] {
			relPages[k.rel][b] = true
		}
		out = append(out, *r)
	}
	out = withTotals(out)
	for i := range out {
		if out[i].RecordType == "" {
			out[i].PagesDirtied = float64(len(relPages[out[i].Rel]))
		}
	}
	return out
}
