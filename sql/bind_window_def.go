package sql

import (
	"sort"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/pgerr"
	"minipg/types"
)

// PostgreSQL's FRAMEOPTION_* bits of a WindowDef's FrameOptions.
const (
	frameRange                 = 0x00002
	frameRows                  = 0x00004
	frameGroups                = 0x00008
	frameStartUnboundedPrec    = 0x00020
	frameEndUnboundedFollowing = 0x00100
	frameStartCurrentRow       = 0x00200
	frameEndCurrentRow         = 0x00400
	frameStartOffsetPreceding  = 0x00800
	frameEndOffsetPreceding    = 0x01000
	frameStartOffsetFollowing  = 0x02000
	frameEndOffsetFollowing    = 0x04000
	frameExcludeCurrentRow     = 0x08000
	frameExcludeGroup          = 0x10000
	frameExcludeTies           = 0x20000
	frameDefaults              = frameRange | frameStartUnboundedPrec | frameEndCurrentRow
	frameOffsets               = frameStartOffsetPreceding | frameStartOffsetFollowing | frameEndOffsetPreceding | frameEndOffsetFollowing
)

// bindWindows binds the query's window definitions in order, as
// transformWindowDefinitions does (a definition may copy an earlier named
// one), over the scan row; aggregates are allowed in them.
func (b *binder) bindWindows() error {
	wc := b.win
	savedWin, savedWinErr := b.win, b.winErr
	b.win, b.winErr = nil, "window definitions"
	defer func() { b.win, b.winErr = savedWin, savedWinErr }()
	for _, d := range wc.defs {
		w, err := b.windowDef(d, wc.bound)
		if err != nil {
			return err
		}
		wc.bound = append(wc.bound, w)
	}
	return nil
}

// windowDef binds one window definition; earlier are those bound before.
func (b *binder) windowDef(d *pg_query.WindowDef, earlier []*WindowDef) (*WindowDef, error) {
	find := func(name string) *WindowDef {
		for _, w := range earlier {
			if w.Name == name {
				return w
			}
		}
		return nil
	}
	if d.Name != "" && find(d.Name) != nil {
		return nil, b.errAt(d.Location, pgerr.WindowingError, "window \"%s\" is already defined", d.Name)
	}
	var ref *WindowDef
	if d.Refname != "" {
		if ref = find(d.Refname); ref == nil {
			return nil, b.errAt(d.Location, pgerr.UndefinedObject, "window \"%s\" does not exist", d.Refname)
		}
	}
	w := &WindowDef{Name: d.Name}
	for _, n := range d.OrderClause {
		sb := n.GetSortBy()
		if sb.SortbyDir == pg_query.SortByDir_SORTBY_USING {
			return nil, b.errAt(sb.Location, pgerr.FeatureNotSupported, "ORDER BY USING is not supported")
		}
		x, err := b.windowKey(sb.Node)
		if err != nil {
			return nil, err
		}
		o := WinOrder{X: x, Desc: sb.SortbyDir == pg_query.SortByDir_SORTBY_DESC}
		o.NullsFirst = o.Desc
		switch sb.SortbyNulls {
		case pg_query.SortByNulls_SORTBY_NULLS_FIRST:
			o.NullsFirst = true
		case pg_query.SortByNulls_SORTBY_NULLS_LAST:
			o.NullsFirst = false
		}
		w.Order = append(w.Order, o)
	}
	for _, n := range d.PartitionClause {
		x, err := b.windowKey(n)
		if err != nil {
			return nil, err
		}
		w.Partition = append(w.Partition, x)
	}
	if ref != nil {
		if len(w.Partition) > 0 {
			return nil, b.errAt(d.Location, pgerr.WindowingError, "cannot override PARTITION BY clause of window \"%s\"", d.Refname)
		}
		w.Partition = append([]Expr(nil), ref.Partition...)
		if len(w.Order) > 0 && len(ref.Order) > 0 {
			return nil, b.errAt(d.Location, pgerr.WindowingError, "cannot override ORDER BY clause of window \"%s\"", d.Refname)
		}
		if len(w.Order) == 0 {
			w.Order = append([]WinOrder(nil), ref.Order...)
		}
		if ref.frameWritten {
			e := b.errAt(d.Location, pgerr.WindowingError, "cannot copy window \"%s\" because it has a frame clause", d.Refname)
			if d.Name == "" && len(d.OrderClause) == 0 && d.FrameOptions == frameDefaults {
				e = e.WithHint("Omit the parentheses in this OVER clause.")
			}
			return nil, e
		}
	}
	if err := b.windowFrame(d, w); err != nil {
		return nil, err
	}
	return w, nil
}

// windowKey binds a PARTITION BY or ORDER BY item of a window: an
// expression (no output column names or positions, as SQL:1999 has it).
func (b *binder) windowKey(n *pg_query.Node) (Expr, error) {
	saved := b.srfOK
	b.srfOK = true
	x, err := b.expr(n)
	b.srfOK = saved
	if err != nil {
		return nil, err
	}
	if srf := findSRF(x); srf != nil {
		// PostgreSQL evaluates them in a ProjectSet below the window;
		// minipg's runs above it.
		return nil, b.errAt(srf.Loc, pgerr.FeatureNotSupported, "set-returning functions in window definitions are not supported")
	}
	if isUnknown(x) {
		return b.coerce(x, types.TText, types.CastImplicit, exprLocation(n))
	}
	return x, nil
}

// windowFrame binds the frame clause of d into w.
func (b *binder) windowFrame(d *pg_query.WindowDef, w *WindowDef) error {
	fo := d.FrameOptions
	w.frameWritten = fo != frameDefaults
	f := &w.Frame
	switch {
	case fo&frameRows != 0:
		f.Mode = FrameRows
	case fo&frameGroups != 0:
		f.Mode = FrameGroups
	}
	switch {
	case fo&frameStartCurrentRow != 0:
		f.Start.Kind = BoundCurrentRow
	case fo&frameStartOffsetPreceding != 0:
		f.Start.Kind = BoundPreceding
	case fo&frameStartOffsetFollowing != 0:
		f.Start.Kind = BoundFollowing
	}
	switch {
	case fo&frameEndUnboundedFollowing != 0:
		f.End.Kind = BoundUnboundedFollowing
	case fo&frameEndOffsetPreceding != 0:
		f.End.Kind = BoundPreceding
	case fo&frameEndOffsetFollowing != 0:
		f.End.Kind = BoundFollowing
	default:
		f.End.Kind = BoundCurrentRow
	}
	switch {
	case fo&frameExcludeCurrentRow != 0:
		f.Exclude = ExcludeCurrentRow
	case fo&frameExcludeGroup != 0:
		f.Exclude = ExcludeGroup
	case fo&frameExcludeTies != 0:
		f.Exclude = ExcludeTies
	}
	if f.Mode == FrameGroups && len(w.Order) == 0 {
		return b.errAt(d.Location, pgerr.WindowingError, "GROUPS mode requires an ORDER BY clause")
	}
	if f.Mode == FrameRange && fo&frameOffsets != 0 && len(w.Order) != 1 {
		return b.errAt(d.Location, pgerr.WindowingError, "RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column")
	}
	var err error
	if d.StartOffset != nil {
		if f.Start.Offset, err = b.frameOffset(d.StartOffset, f.Mode, w); err != nil {
			return err
		}
	}
	if d.EndOffset != nil {
		if f.End.Offset, err = b.frameOffset(d.EndOffset, f.Mode, w); err != nil {
			return err
		}
	}
	return nil
}

// frameModeNames name the frame modes in errors.
var frameModeNames = map[FrameMode]string{FrameRange: "RANGE", FrameRows: "ROWS", FrameGroups: "GROUPS"}

// frameOffset binds an offset of a frame bound: bigint for ROWS and
// GROUPS; for RANGE the offset type of the ORDER BY column's in_range
// function (transformFrameOffset), chosen among those the offset can be
// implicitly cast to. It may use no column of the query.
func (b *binder) frameOffset(n *pg_query.Node, mode FrameMode, w *WindowDef) (Expr, error) {
	name := frameModeNames[mode]
	savedAgg, savedErr := b.agg, b.aggErr
	b.agg, b.aggErr = nil, "window "+name
	x, err := b.expr(n)
	b.agg, b.aggErr = savedAgg, savedErr
	if err != nil {
		return nil, err
	}
	loc := exprLocation(n)
	target := types.TInt8
	if mode == FrameRange {
		if target, err = b.rangeOffsetType(x, w.Order[0].X.Type(), loc); err != nil {
			return nil, err
		}
	}
	y, err := b.coerce(x, target, types.CastImplicit, loc)
	if err == errMismatch {
		return nil, b.errAt(loc, pgerr.DatatypeMismatch, "argument of %s must be type %s, not type %s", name, baseName(target), baseName(x.Type()))
	}
	if err != nil {
		return nil, err
	}
	varFree := true
	Walk(y, func(e Expr) {
		if _, ok := e.(*ColRef); ok {
			varFree = false
		}
	})
	if !varFree {
		return nil, b.errAt(loc, pgerr.InvalidColumnReference, "argument of %s must not contain variables", name)
	}
	return y, nil
}

// rangeOffsetType picks the offset type of RANGE offset PRECEDING /
// FOLLOWING over an ORDER BY column of type col: the in_range functions of
// its operator class, preferring the offset's own type (or, for an unknown
// literal, the column's).
func (b *binder) rangeOffsetType(x Expr, col types.T, loc int32) (types.T, error) {
	opc := col.OID
	switch opc {
	case types.Varchar:
		opc = types.Text
	}
	var cands []types.OID
	switch opc {
	case types.Int2, types.Int4:
		cands = []types.OID{types.Int8, types.Int4, types.Int2}
	case types.Int8:
		cands = []types.OID{types.Int8}
	case types.Numeric:
		cands = []types.OID{types.Numeric}
	case types.Float4, types.Float8:
		cands = []types.OID{types.Float8}
	case types.Date, types.Timestamp, types.TimestampTZ, types.Interval:
		cands = []types.OID{types.Interval}
	}
	colName := baseName(types.T{OID: opc, Typmod: -1})
	if len(cands) == 0 {
		return types.T{}, b.errAt(loc, pgerr.FeatureNotSupported, "RANGE with offset PRECEDING/FOLLOWING is not supported for column type %s", colName)
	}
	nodeT := x.Type().OID
	preferred := nodeT
	if nodeT == types.Unknown {
		preferred = opc
	}
	var selected types.OID
	matches := 0
	for _, c := range cands {
		if types.CastContextOf(nodeT, c) != types.CastImplicit {
			continue
		}
		if c == preferred {
			selected, matches = c, 1
			break
		}
		selected = c
		matches++
	}
	switch {
	case matches == 0:
		return types.T{}, b.errAt(loc, pgerr.FeatureNotSupported, "RANGE with offset PRECEDING/FOLLOWING is not supported for column type %s and offset type %s", colName, baseName(x.Type())).
			WithHint("Cast the offset value to an appropriate type.")
	case matches > 1:
		return types.T{}, b.errAt(loc, pgerr.FeatureNotSupported, "RANGE with offset PRECEDING/FOLLOWING has multiple interpretations for column type %s and offset type %s", colName, baseName(x.Type())).
			WithHint("Cast the offset value to the exact intended type.")
	}
	return types.T{OID: selected, Typmod: -1}, nil
}

// activeWindows orders the windows the window functions use as
// PostgreSQL's select_active_windows does (the sort each needs, by
// the numbers its items have among the query's sort and group items, in
// descending order; one whose sort is a prefix of another's after it), and
// gives out.Windows in that order: the executor evaluates them in turn,
// each sorting the rows for itself, so the last one's sort is the
// rows' order. fns are the window functions, whose Win is set.
func (b *binder) activeWindows(fns []*WinFunc, targets []target, out *Select) {
	// PostgreSQL numbers sort and group items (tleSortGroupRef) as it
	// binds ORDER BY, GROUP BY, then each window's ORDER BY and
	// PARTITION BY.
	refs := map[string]int{}
	ref := func(e Expr) int {
		k := exprKey(e)
		if r, ok := refs[k]; ok {
			return r
		}
		refs[k] = len(refs) + 1
		return refs[k]
	}
	for _, k := range out.Sort {
		ref(targets[k.Idx].e)
	}
	for _, g := range out.Group {
		ref(g)
	}
	type item struct {
		ref              int
		desc, nullsFirst bool
	}
	orders := make([][]item, len(b.win.bound))
	for i, w := range b.win.bound {
		for _, o := range w.Order {
			ref(o.X)
		}
		for _, p := range w.Partition {
			ref(p)
		}
		var its []item
		seen := map[item]bool{}
		for _, p := range w.Partition {
			it := item{ref: ref(p)}
			if !seen[it] {
				seen[it] = true
				its = append(its, it)
			}
		}
		for _, o := range w.Order {
			it := item{ref(o.X), o.Desc, o.NullsFirst}
			if !seen[it] {
				seen[it] = true
				its = append(its, it)
			}
		}
		orders[i] = its
	}
	used := map[int]bool{}
	for _, f := range fns {
		used[f.def] = true
	}
	var active []int
	for i := range b.win.bound {
		if used[i] {
			active = append(active, i)
		}
	}
	sort.SliceStable(active, func(i, j int) bool {
		a, c := orders[active[i]], orders[active[j]]
		for k := 0; k < len(a) && k < len(c); k++ {
			x, y := a[k], c[k]
			switch {
			case x.ref != y.ref:
				return x.ref > y.ref
			case x.desc != y.desc:
				return x.desc
			case x.nullsFirst != y.nullsFirst:
				return x.nullsFirst
			}
		}
		return len(a) > len(c)
	})
	index := map[int]int{}
	for i, d := range active {
		index[d] = i
		out.Windows = append(out.Windows, b.win.bound[d])
	}
	for _, f := range fns {
		f.Win = index[f.def]
	}
}

// windowSlots moves the window functions of the targets into
// out.WinFuncs: each becomes a slot after the row the window stage reads
// (the scan row, or the group row). Equal calls over one window share a
// slot. The windows' keys are rewritten over the group row first when the
// query aggregates.
func (b *binder) windowSlots(targets []target, out *Select) error {
	if b.win == nil || len(b.win.defs) == 0 {
		return nil
	}
	var fns []*WinFunc
	for i := range targets {
		Walk(targets[i].e, func(x Expr) {
			if f, ok := x.(*WinFunc); ok {
				fns = append(fns, f)
			}
		})
	}
	if len(fns) == 0 {
		return nil
	}
	b.activeWindows(fns, targets, out)
	if out.Grouped {
		for _, w := range out.Windows {
			for i, p := range w.Partition {
				x, err := b.toGroupRow(p, out)
				if err != nil {
					return err
				}
				w.Partition[i] = x
			}
			for i := range w.Order {
				x, err := b.toGroupRow(w.Order[i].X, out)
				if err != nil {
					return err
				}
				w.Order[i].X = x
			}
		}
	}
	width := len(out.Group) + len(out.Aggs)
	if !out.Grouped {
		width = 0
		if b.sc != nil {
			width = b.sc.width
		}
	}
	out.WinBase = width
	slots := map[string]int{}
	for i := range targets {
		targets[i].e = Rewrite(targets[i].e, func(x Expr) (Expr, bool) {
			f, ok := x.(*WinFunc)
			if !ok {
				return nil, false
			}
			k := exprKey(f)
			n, seen := slots[k]
			if !seen {
				n = len(out.WinFuncs)
				slots[k] = n
				out.WinFuncs = append(out.WinFuncs, f)
			}
			return &ColRef{Idx: width + n, T: f.T, Name: f.Name}, true
		})
	}
	return nil
}
