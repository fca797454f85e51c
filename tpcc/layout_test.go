package tpcc

import (
	"reflect"
	"testing"
)

func TestBuildBlockMap(t *testing.T) {
	k := func(w, d, o int32) OrderKey { return OrderKey{w, d, o} }
	rows := []RowBlock{
		{Key: k(1, 2, 1), Block: 0}, {Key: k(1, 2, 2), Block: 0},
		{Key: k(1, 1, 1), Block: 1},
		{Key: k(1, 1, 2), Block: 3}, {Key: k(2, 1, 1), Block: 3},
	}
	m := BuildBlockMap("t", rows)
	want := BlockMap{Table: "t", Blocks: 4, Cells: []int{1, 0, CellEmpty, CellMixed},
		Groups: []string{"w1 d1", "w1 d2", "w2 d1"}, Mixed: 1, Empty: 1}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("BuildBlockMap = %+v, want %+v", m, want)
	}
	if e := BuildBlockMap("e", nil); e.Blocks != 0 || len(e.Cells) != 0 {
		t.Fatalf("empty map = %+v", e)
	}
}

func TestHistograms(t *testing.T) {
	k := func(o int32) OrderKey { return OrderKey{1, 1, o} }
	rows := []RowBlock{
		{Key: k(1), Block: 5}, {Key: k(1), Block: 5}, // 1 block, span 1
		{Key: k(2), Block: 5}, {Key: k(2), Block: 6}, // 2 blocks, span 2
		{Key: k(3), Block: 2}, {Key: k(3), Block: 9}, {Key: k(3), Block: 9}, // 2 blocks, span 8
	}
	b, s := Histograms(rows)
	if want := []Bin{{1, 1}, {2, 2}}; !reflect.DeepEqual(b, want) {
		t.Errorf("blocks histogram = %v, want %v", b, want)
	}
	if want := []Bin{{1, 1}, {2, 1}, {8, 1}}; !reflect.DeepEqual(s, want) {
		t.Errorf("span histogram = %v, want %v", s, want)
	}
}
