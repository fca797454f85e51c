package tpcc

import (
	"reflect"
	"testing"
)

// TestCountRunRows: rows of orders from next on are the run's; of them,
// those on blocks below the table's size before the run are pre-run,
// those on blocks that held rows then are counted as such, and those on
// blocks still holding an older order's row as mixed.
func TestCountRunRows(t *testing.T) {
	before := &TableState{Blocks: map[string]int64{"t": 4},
		Used: map[string]map[uint32]bool{"t": {0: true, 1: true}}}
	isNew := func(k OrderKey) bool { return k.O >= 10 }
	k := func(o int32) OrderKey { return OrderKey{1, 1, o} }
	rows := []RowBlock{
		{Key: k(1), Block: 0}, {Key: k(10), Block: 0}, // mixed, held rows before
		{Key: k(11), Block: 1},                        // held rows before, its old rows gone (a queue)
		{Key: k(12), Block: 2}, {Key: k(2), Block: 2}, // empty before (the load's last extension), old row moved in
		{Key: k(13), Block: 3},                        // empty before
		{Key: k(14), Block: 4}, {Key: k(3), Block: 4}, // a block the run added
	}
	out := &RunLayout{Inserted: map[string]int{}, PreRun: map[string]int{}, PreRunUsed: map[string]int{},
		PreRunMixed: map[string]int{}}
	countRunRows(out, "t", rows, isNew, before)
	want := &RunLayout{Inserted: map[string]int{"t": 5}, PreRun: map[string]int{"t": 4},
		PreRunUsed: map[string]int{"t": 2}, PreRunMixed: map[string]int{"t": 2}}
	if !reflect.DeepEqual(out, want) {
		t.Fatalf("countRunRows = %+v, want %+v", out, want)
	}
}
