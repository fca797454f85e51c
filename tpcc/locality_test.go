package tpcc

import "testing"

func rb(o int32, line int32, blk uint32) RowBlock {
	return RowBlock{Key: OrderKey{1, 1, o}, Line: line, Block: blk}
}

func TestComputeLocality(t *testing.T) {
	rows := []RowBlock{
		// order 1: one block
		rb(1, 1, 0), rb(1, 2, 0), rb(1, 3, 0),
		// order 2: two neighbouring blocks (contiguous)
		rb(2, 1, 0), rb(2, 2, 1),
		// order 3: three neighbouring blocks, listed out of order
		rb(3, 1, 7), rb(3, 2, 5), rb(3, 3, 6),
		// order 4: two blocks far apart (non-contiguous), spread 100
		rb(4, 1, 10), rb(4, 2, 110), rb(4, 3, 10),
		// order 5: blocks 2, 4: not neighbours
		rb(5, 1, 4), rb(5, 2, 2),
	}
	// A different warehouse with the same o_id is a different order.
	rows = append(rows, RowBlock{Key: OrderKey{2, 1, 1}, Line: 1, Block: 50})
	l := ComputeLocality(rows)
	want := Locality{Groups: 6, Rows: 14, Multi2: 4, Multi3: 1, NonContig: 2, MaxSpread: 100, TotalBlock: 10}
	if l.Groups != want.Groups || l.Rows != want.Rows || l.Multi2 != want.Multi2 || l.Multi3 != want.Multi3 ||
		l.NonContig != want.NonContig || l.MaxSpread != want.MaxSpread || l.TotalBlock != want.TotalBlock {
		t.Errorf("ComputeLocality = %+v,\nwant %+v", l, want)
	}
	// distinct blocks: 1,2,3,2,2,1 = 11; spans: 1,2,3,101,3,1 = 111
	if l.AvgBlocks != 11.0/6 || l.AvgSpan != 111.0/6 {
		t.Errorf("AvgBlocks %v AvgSpan %v, want %v %v", l.AvgBlocks, l.AvgSpan, 11.0/6, 111.0/6)
	}
	if p := l.Pct(l.NonContig); p != 100*2.0/6 {
		t.Errorf("Pct = %v", p)
	}
}

func TestComputeLocalityEmpty(t *testing.T) {
	l := ComputeLocality(nil)
	if l.Groups != 0 || l.Pct(1) != 0 || l.AvgBlocks != 0 {
		t.Errorf("empty: %+v", l)
	}
}

func TestSamePage(t *testing.T) {
	before := []RowBlock{rb(1, 1, 3), rb(1, 2, 3), rb(2, 1, 4)}
	after := []RowBlock{rb(1, 1, 3), rb(1, 2, 9), rb(2, 1, 4), rb(3, 1, 1)}
	same, both := SamePage(before, after)
	if same != 2 || both != 3 {
		t.Errorf("SamePage = %d/%d, want 2/3", same, both)
	}
}
