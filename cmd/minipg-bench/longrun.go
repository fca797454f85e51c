package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"minipg/tpcc"
)

// runLayoutFigures records what a run did to the tables' layout: per
// table its blocks before and after and the vacuums it got meanwhile; the
// locality of the orders the run entered and of all orders at its end;
// and how many of the rows it inserted landed on blocks that existed
// before it, read from the ctids the same way on every server.
func runLayoutFigures(ctx context.Context, c *pgx.Conn, before *tpcc.TableState, r *result) error {
	after, err := tpcc.ReadTableState(ctx, c)
	if err != nil {
		return err
	}
	var total, small int64
	for _, t := range tpcc.Tables {
		short := strings.TrimPrefix(t.Name, "bmsql_")
		r.num(short+": blocks before", float64(before.Blocks[t.Name]), "%.0f")
		r.num(short+": blocks after", float64(after.Blocks[t.Name]), "%.0f")
		r.num(short+": autovacuum runs", float64(after.AutoVacuums[t.Name]-before.AutoVacuums[t.Name]), "%.0f")
		r.num(short+": VACUUM runs", float64(after.Vacuums[t.Name]-before.Vacuums[t.Name]), "%.0f")
		total += after.Blocks[t.Name]
		if t.Name == "bmsql_district" || t.Name == "bmsql_warehouse" {
			small += after.Blocks[t.Name]
		}
	}
	r.num("all tables: blocks after", float64(total), "%.0f")
	r.num("district + warehouse: blocks after", float64(small), "%.0f")
	l, err := tpcc.MeasureRunLayout(ctx, c, before)
	if err != nil {
		return err
	}
	for _, x := range []struct {
		what string
		l    tpcc.Locality
	}{{"orders entered by the run", l.New}, {"all orders at the end", l.All}} {
		r.num(x.what+": count", float64(x.l.Groups), "%.0f")
		r.num(x.what+": % non-contiguous", x.l.Pct(x.l.NonContig), "%.2f")
		r.num(x.what+": % on 3+ blocks", x.l.Pct(x.l.Multi3), "%.3f")
		r.num(x.what+": max spread (blocks)", float64(x.l.MaxSpread), "%.0f")
	}
	var ins, pre, preUsed, preMixed int
	for _, name := range []string{"bmsql_order_line", "bmsql_oorder", "bmsql_new_order"} {
		short := strings.TrimPrefix(name, "bmsql_")
		r.num(short+": rows inserted by the run (still there)", float64(l.Inserted[name]), "%.0f")
		r.num(short+": of them on pre-run blocks", float64(l.PreRun[name]), "%.0f")
		r.num(short+": of them on pre-run blocks that held rows", float64(l.PreRunUsed[name]), "%.0f")
		r.num(short+": of them on pre-run blocks still holding older orders' rows", float64(l.PreRunMixed[name]), "%.0f")
		ins += l.Inserted[name]
		pre += l.PreRun[name]
		preUsed += l.PreRunUsed[name]
		preMixed += l.PreRunMixed[name]
	}
	r.num("order_line+oorder+new_order: inserts on pre-run blocks %", pct(pre, ins), "%.2f")
	r.num("order_line+oorder+new_order: inserts on pre-run blocks that held rows %", pct(preUsed, ins), "%.2f")
	r.num("order_line+oorder+new_order: inserts on pre-run blocks still holding older orders' rows %", pct(preMixed, ins), "%.2f")
	return nil
}

// allocatorWAL adds the full-page images and WAL bytes per 1,000
// transactions of the tables whose layout the policy decides, each and
// together, from the per-table WAL of the run.
func allocatorWAL(r *result, rels []tpcc.RelWAL) {
	var fpi, bytes, allFPI, allBytes float64
	for _, rw := range rels {
		if rw.RecordType != "" {
			continue
		}
		allFPI += rw.FPI
		allBytes += rw.Bytes
		if !slices.Contains(tpcc.AllocatorTables, rw.Rel) {
			continue
		}
		k := r.txns / 1000
		short := strings.TrimPrefix(rw.Rel, "bmsql_")
		r.num(short+": FPIs per 1,000 transactions", rw.FPI/k, "%.1f")
		fpi += rw.FPI
		bytes += rw.Bytes
	}
	r.num("allocator tables: FPIs per 1,000 transactions", fpi/(r.txns/1000), "%.1f")
	r.num("allocator tables: WAL bytes per 1,000 transactions", bytes/(r.txns/1000), "%.0f")
	r.num("every relation: FPIs per 1,000 transactions", allFPI/(r.txns/1000), "%.1f")
	r.num("every relation: WAL bytes per 1,000 transactions", allBytes/(r.txns/1000), "%.0f")
}

// deliveryFloor sets bmsql_order_line's FPIs and pages dirtied per
// delivery against the floor the delivered orders' layout sets: the
// distinct pages their lines occupy, each of which the pass must dirty
// (a page stays dirty until written, so it counts once) and log once.
func deliveryFloor(r *result, rels []tpcc.RelWAL) {
	for _, t := range tpcc.DeliveryTables {
		fpi := tableFPI(rels, t)
		r.num("pass: "+strings.TrimPrefix(t, "bmsql_")+" and its indexes: FPIs per delivery", fpi/r.deliveries, "%.3f")
	}
	for _, rw := range rels {
		if rw.RecordType != "" || rw.Rel != "bmsql_order_line" {
			continue
		}
		fpi, dirtied := rw.FPI/r.deliveries, rw.PagesDirtied/r.deliveries
		r.num("order_line: FPIs per delivery", fpi, "%.3f")
		r.num("order_line: FPIs per delivery / floor", fpi/r.floorFPI, "%.3f")
		r.num("order_line: pages dirtied per delivery", dirtied, "%.3f")
		r.num("order_line: pages dirtied per delivery / floor", dirtied/r.floorFPI, "%.3f")
	}
}

// vacuumAfterPass measures the cleanup a delivery pass of deliveries
// left (tpcc.VacuumAfter) and reports its FPIs and WAL bytes per delivery,
// with those of the pass (pass) and, when walRel, the FPIs per table
// (its indexes included) of the tables Delivery changes.
func vacuumAfterPass(ctx context.Context, pc *pgx.Conn, r *result, pass tpcc.WALDelta, deliveries float64, walRel bool) error {
	var probe *tpcc.WALRelProbe
	if walRel {
		var err error
		if probe, err = tpcc.StartWALRel(ctx, pc); err != nil {
			r.note(fmt.Sprintf("cleanup: WAL per table skipped: %v", err))
			probe = nil
		}
	}
	w, err := tpcc.VacuumAfter(ctx, pc, tpcc.DeliveryTables)
	if err != nil {
		return fmt.Errorf("cleanup: %w", err)
	}
	if w.Err != nil {
		return fmt.Errorf("cleanup: pg_stat_wal: %w", w.Err)
	}
	r.num("cleanup (CHECKPOINT, VACUUM): WAL FPIs per delivery", w.FPI/deliveries, "%.3f")
	r.num("cleanup (CHECKPOINT, VACUUM): WAL bytes per delivery", w.Bytes/deliveries, "%.0f")
	if pass.Err == nil {
		r.num("pass + cleanup: WAL FPIs per delivery", (pass.FPI+w.FPI)/deliveries, "%.3f")
		r.num("pass + cleanup: WAL bytes per delivery", (pass.Bytes+w.Bytes)/deliveries, "%.0f")
	}
	if probe == nil {
		return nil
	}
	rels, err := probe.Stop(ctx, pc)
	if err != nil {
		return fmt.Errorf("cleanup: WAL per table: %w", err)
	}
	for _, t := range tpcc.DeliveryTables {
		fpi := tableFPI(rels, t)
		r.num("cleanup: "+strings.TrimPrefix(t, "bmsql_")+" and its indexes: FPIs per delivery", fpi/deliveries, "%.3f")
	}
	return nil
}

// tableFPI sums the FPIs of table t and of its indexes (the relations
// named t_...) in rels.
func tableFPI(rels []tpcc.RelWAL, t string) float64 {
	fpi := 0.0
	for _, rw := range rels {
		if rw.RecordType == "" && (rw.Rel == t || strings.HasPrefix(rw.Rel, t+"_")) {
			fpi += rw.FPI
		}
	}
	return fpi
}
