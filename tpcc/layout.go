package tpcc

import (
	"fmt"
	"slices"
)

// BlockMap is the layout of a table's rows over its blocks: for each block
// up to the last one holding a row, which district (warehouse and
// district) its rows belong to. A block whose rows belong to more than one
// district is mixed.
type BlockMap struct {
	Table  string `json:"table"`
	Blocks int    `json:"blocks"` // highest block holding a row + 1
	// Cells[b] is block b's district, an index into Groups, or CellEmpty
	// (no row) or CellMixed (rows of two or more districts).
	Cells  []int    `json:"cells"`
	Groups []string `json:"groups"` // "w1 d3", in warehouse, district order
	Mixed  int      `json:"mixed"`  // mixed blocks
	Empty  int      `json:"empty"`  // blocks below the last with no row
}

// Cell values that are not a district.
const (
	CellEmpty = -1
	CellMixed = -2
)

// BuildBlockMap makes the block map of rows, grouped by the warehouse and
// district of their keys.
func BuildBlockMap(table string, rows []RowBlock) BlockMap {
	type wd struct{ w, d int32 }
	var keys []wd
	seen := map[wd]bool{}
	var last int = -1
	for _, r := range rows {
		k := wd{r.Key.W, r.Key.D}
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
		last = max(last, int(r.Block))
	}
	slices.SortFunc(keys, func(a, b wd) int {
		if a.w != b.w {
			return int(a.w - b.w)
		}
		return int(a.d - b.d)
	})
	index := make(map[wd]int, len(keys))
	m := BlockMap{Table: table, Blocks: last + 1, Cells: make([]int, last+1)}
	for i, k := range keys {
		index[k] = i
		m.Groups = append(m.Groups, fmt.Sprintf("w%d d%d", k.w, k.d))
	}
	for i := range m.Cells {
		m.Cells[i] = CellEmpty
	}
	for _, r := range rows {
		g := index[wd{r.Key.W, r.Key.D}]
		switch c := &m.Cells[r.Block]; *c {
		case CellEmpty:
			*c = g
		case CellMixed, g:
		default:
			*c = CellMixed
		}
	}
	for _, c := range m.Cells {
		switch c {
		case CellEmpty:
			m.Empty++
		case CellMixed:
			m.Mixed++
		}
	}
	return m
}

// Bin is one bar of a histogram: how many groups have Value.
type Bin struct {
	Value int `json:"value"`
	Count int `json:"count"`
}

// Histograms counts the groups of rows (orders, or districts for
// customers) by the distinct blocks they occupy and by their span
// (highest - lowest block + 1), in ascending order of the value.
func Histograms(rows []RowBlock) (blocks, span []Bin) {
	byKey := make(map[OrderKey][]uint32)
	for _, r := range rows {
		byKey[r.Key] = append(byKey[r.Key], r.Block)
	}
	nb, ns := map[int]int{}, map[int]int{}
	for _, bl := range byKey {
		slices.Sort(bl)
		ns[int(bl[len(bl)-1]-bl[0])+1]++
		nb[len(slices.Compact(bl))]++
	}
	return bins(nb), bins(ns)
}

func bins(m map[int]int) []Bin {
	out := make([]Bin, 0, len(m))
	for v, n := range m {
		out = append(out, Bin{v, n})
	}
	slices.SortFunc(out, func(a, b Bin) int { return a.Value - b.Value })
	return out
}
