package sql

import "minipg/types"

// WinFunc is a window function call (a function with OVER): one of the
// window functions (row_number, rank, lag, ...) or an aggregate used as a
// window aggregate (Agg set: its name, arguments and result type; its
// Filter is FILTER (WHERE ...)). It only appears in Select.WinFuncs while
// binding is done; target expressions refer to its result through ColRef.
// Args and Filter are evaluated over the window's input row (the scan row,
// or the group row of an aggregate query).
type WinFunc struct {
	Name   string
	Args   []Expr
	Agg    *Agg // a window aggregate; nil for a window function
	Filter Expr // FILTER (WHERE ...) of a window aggregate; nil: none
	Win    int  // index in Select.Windows
	T      types.T

	// def identifies the window while binding: the index of its
	// definition among the query's windows (named ones, then inline OVER
	// clauses).
	def int
}

func (e *WinFunc) Type() types.T { return e.T }

// FrameMode is how a window frame's offsets count: RANGE (values of the
// ORDER BY column), ROWS or GROUPS (peer groups).
type FrameMode int

// Frame modes.
const (
	FrameRange FrameMode = iota
	FrameRows
	FrameGroups
)

// BoundKind is one end of a window frame.
type BoundKind int

// Frame bounds.
const (
	BoundUnboundedPreceding BoundKind = iota
	BoundPreceding                    // offset PRECEDING
	BoundCurrentRow
	BoundFollowing // offset FOLLOWING
	BoundUnboundedFollowing
)

// FrameExclude is a frame's EXCLUDE clause.
type FrameExclude int

// Frame exclusions.
const (
	ExcludeNoOthers FrameExclude = iota
	ExcludeCurrentRow
	ExcludeGroup
	ExcludeTies
)

// FrameBound is a frame start or end; Offset (for PRECEDING and FOLLOWING)
// is evaluated once per partition, bigint for ROWS and GROUPS, and for
// RANGE of the type the ORDER BY column's in_range function takes.
type FrameBound struct {
	Kind   BoundKind
	Offset Expr
}

// WindowFrame is a window's frame clause. The default is RANGE BETWEEN
// UNBOUNDED PRECEDING AND CURRENT ROW, which with no ORDER BY is the
// whole partition (every row is a peer of every other).
type WindowFrame struct {
	Mode       FrameMode
	Start, End FrameBound
	Exclude    FrameExclude
}

// WindowDef is one window of a query: the rows are split by Partition
// and ordered by Order (both evaluated over the window's input row); rows
// equal on Order are peers.
type WindowDef struct {
	Name      string // the WINDOW clause's name; "" for an OVER (...) clause
	Partition []Expr
	Order     []WinOrder
	Frame     WindowFrame

	frameWritten bool // the definition has a frame clause (not the default)
}

// WinOrder is one ORDER BY item of a window.
type WinOrder struct {
	X          Expr
	Desc       bool
	NullsFirst bool
}

// WindowExprs returns the expressions of s's window stage: each window
// function (its arguments and FILTER below it) and each window's
// PARTITION BY and ORDER BY items and frame offsets.
func (s *Select) WindowExprs() []Expr {
	var es []Expr
	for _, f := range s.WinFuncs {
		es = append(es, f)
	}
	for _, w := range s.Windows {
		es = append(es, w.Partition...)
		for _, o := range w.Order {
			es = append(es, o.X)
		}
		if w.Frame.Start.Offset != nil {
			es = append(es, w.Frame.Start.Offset)
		}
		if w.Frame.End.Offset != nil {
			es = append(es, w.Frame.End.Offset)
		}
	}
	return es
}

// mapWindowExprs replaces each expression of s's window stage by fn of it.
func (s *Select) mapWindowExprs(fn func(Expr) Expr) {
	for i, f := range s.WinFuncs {
		s.WinFuncs[i] = fn(f).(*WinFunc)
	}
	for _, w := range s.Windows {
		for i := range w.Partition {
			w.Partition[i] = fn(w.Partition[i])
		}
		for i := range w.Order {
			w.Order[i].X = fn(w.Order[i].X)
		}
		if w.Frame.Start.Offset != nil {
			w.Frame.Start.Offset = fn(w.Frame.Start.Offset)
		}
		if w.Frame.End.Offset != nil {
			w.Frame.End.Offset = fn(w.Frame.End.Offset)
		}
	}
}
