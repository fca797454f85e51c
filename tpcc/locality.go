package tpcc

import (
	"context"
	"fmt"
	"sort"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// OrderKey identifies an order (and the group of its order lines).
type OrderKey struct{ W, D, O int32 }

// RowBlock is one row of a group and the heap block its ctid points to.
type RowBlock struct {
	Key   OrderKey
	Line  int32 // ol_number (0 for customers)
	Block uint32
}

// Locality summarises how the rows of each group (the lines of an order)
// are spread over heap blocks.
type Locality struct {
	Groups     int     // orders
	Rows       int     // order lines
	Multi2     int     // groups on 2 or more distinct blocks
	Multi3     int     // groups on 3 or more distinct blocks
	NonContig  int     // groups whose blocks are not all neighbours: max-min+1 > distinct blocks
	MaxSpread  uint32  // largest max-min over groups
	AvgBlocks  float64 // mean distinct blocks per group
	AvgSpan    float64 // mean max-min+1 per group
	TotalBlock int     // distinct blocks over all rows
}

// Pct returns 100*n/Groups.
func (l Locality) Pct(n int) float64 {
	if l.Groups == 0 {
		return 0
	}
	return 100 * float64(n) / float64(l.Groups)
}

// ComputeLocality groups rows by key and measures each group's blocks.
// The input order does not matter.
func ComputeLocality(rows []RowBlock) Locality {
	byKey := make(map[OrderKey][]uint32)
	all := make(map[uint32]struct{})
	for _, r := range rows {
		byKey[r.Key] = append(byKey[r.Key], r.Block)
		all[r.Block] = struct{}{}
	}
	l := Locality{Groups: len(byKey), Rows: len(rows), TotalBlock: len(all)}
	var sumBlocks, sumSpan int
	for _, blocks := range byKey {
		sort.Slice(blocks, func(i, j int) bool { return blocks[i] < blocks[j] })
		distinct := 1
		for i := 1; i < len(blocks); i++ {
			if blocks[i] != blocks[i-1] {
				distinct++
			}
		}
		lo, hi := blocks[0], blocks[len(blocks)-1]
		span := int(hi-lo) + 1
		sumBlocks += distinct
		sumSpan += span
		if distinct >= 2 {
			l.Multi2++
		}
		if distinct >= 3 {
			l.Multi3++
		}
		if span > distinct {
			l.NonContig++
		}
		if hi-lo > l.MaxSpread {
			l.MaxSpread = hi - lo
		}
	}
	if l.Groups > 0 {
		l.AvgBlocks = float64(sumBlocks) / float64(l.Groups)
		l.AvgSpan = float64(sumSpan) / float64(l.Groups)
	}
	return l
}

// String prints the figures on one line.
func (l Locality) String() string {
	return fmt.Sprintf("%d groups, %d rows: %.2f%% on 2+ blocks, %.2f%% on 3+ (%d), %.2f%% non-contiguous, max spread %d blocks",
		l.Groups, l.Rows, l.Pct(l.Multi2), l.Pct(l.Multi3), l.Multi3, l.Pct(l.NonContig), l.MaxSpread)
}

// OrderLineBlocks reads (ol_w_id, ol_d_id, ol_o_id, block of ctid) for
// every order line (with ol_number), or only for the orders in keep when it is not nil.
func OrderLineBlocks(ctx context.Context, c *pgx.Conn, keep map[OrderKey]bool) ([]RowBlock, error) {
	return groupBlocks(ctx, c, "SELECT ol_w_id, ol_d_id, ol_o_id, ol_number, ctid FROM bmsql_order_line", keep)
}

// CustomerBlocks reads (c_w_id, c_d_id, 0, 0, block) for every customer: the
// group is a district.
func CustomerBlocks(ctx context.Context, c *pgx.Conn) ([]RowBlock, error) {
	return groupBlocks(ctx, c, "SELECT c_w_id, c_d_id, 0, 0, ctid FROM bmsql_customer", nil)
}

func groupBlocks(ctx context.Context, c *pgx.Conn, q string, keep map[OrderKey]bool) ([]RowBlock, error) {
	rows, err := c.Query(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []RowBlock
	for rows.Next() {
		var k OrderKey
		var line int32
		var tid pgtype.TID
		if err := rows.Scan(&k.W, &k.D, &k.O, &line, &tid); err != nil {
			return nil, err
		}
		if keep != nil && !keep[k] {
			continue
		}
		out = append(out, RowBlock{Key: k, Line: line, Block: tid.BlockNumber})
	}
	return out, rows.Err()
}

// SamePage counts the rows of after that are on the same block as the row
// with the same key and line in before (an UPDATE that stayed on its page,
// HOT or not), and the rows present in both.
func SamePage(before, after []RowBlock) (same, both int) {
	type lk struct {
		k    OrderKey
		line int32
	}
	b := make(map[lk]uint32, len(before))
	for _, r := range before {
		b[lk{r.Key, r.Line}] = r.Block
	}
	for _, r := range after {
		if blk, ok := b[lk{r.Key, r.Line}]; ok {
			both++
			if blk == r.Block {
				same++
			}
		}
	}
	return same, both
}
