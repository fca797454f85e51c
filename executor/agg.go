package executor

import (
	"context"
	"slices"
	"sort"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// aggState accumulates one aggregate of one group.
type aggState struct {
	count int64
	isum  int64        // sum of int2/int4
	dsum  *apd.Decimal // sum of int8/numeric (and avg, and the statistics' sum of x)
	dsum2 *apd.Decimal // the statistics' sum of x*x over integers and numeric
	fsum  float64
	fsxx  float64 // the statistics' Sxx over floats (Youngs-Cramer)
	// nonFinite counts the NaN, +Infinity and -Infinity numeric inputs
	// of sum, avg and the statistics, which dsum leaves out.
	nonFinite struct{ nan, pinf, ninf int64 }
	val       types.Datum // min/max
	seen      map[string]struct{}
	b         bool            // bool_and / bool_or
	sb        strings.Builder // string_agg
	elems     []types.Datum   // array_agg
	// rows holds the input of an aggregate with ORDER BY until the result
	// is asked for: the arguments, then the sort keys.
	rows [][]types.Datum
	// direct holds an ordered-set aggregate's direct argument, evaluated
	// over the group's first row (directSeen) whether or not FILTER takes
	// it.
	direct     types.Datum
	directSeen bool
	// cv is the session's output settings, with which json_agg and
	// json_object_agg write timestamps with time zone (nil: UTC).
	cv *types.Conv
}

var decCtx = apd.BaseContext.WithPrecision(1000)

func toDecimal(d types.Datum) *apd.Decimal {
	switch v := d.(type) {
	case int64:
		return apd.New(v, 0)
	case *apd.Decimal:
		return v
	case float64:
		x := new(apd.Decimal)
		_, _ = x.SetFloat64(v)
		return x
	}
	return apd.New(0, 0)
}

// aggStrict reports whether a NULL first argument is skipped (every
// aggregate but array_agg).
func aggStrict(a *sql.Agg) bool {
	switch a.Name {
	case "array_agg", "json_agg", "jsonb_agg", "json_object_agg", "jsonb_object_agg":
		return false
	}
	return true
}

// input takes one input row's arguments (and, with ORDER BY, sort keys)
// for aggregate a.
func (st *aggState) input(a *sql.Agg, args, keys []types.Datum) error {
	if len(a.Order) > 0 {
		st.rows = append(st.rows, append(args, keys...))
		return nil
	}
	return st.add(a, args)
}

func (st *aggState) add(a *sql.Agg, args []types.Datum) error {
	var v types.Datum
	if a.Arg != nil {
		v = args[0]
		if v == nil && aggStrict(a) {
			return nil
		}
	}
	if a.Distinct && a.Arg != nil {
		k := appendKeyNull(nil, a.Arg.Type(), v)
		for i, x := range a.Extra {
			k = appendKeyNull(k, x.Type(), args[1+i])
		}
		if st.seen == nil {
			st.seen = map[string]struct{}{}
		}
		if _, dup := st.seen[string(k)]; dup {
			return nil
		}
		st.seen[string(k)] = struct{}{}
	}
	st.count++
	switch a.Name {
	case "count":
	case "sum", "avg":
		at := a.Arg.Type().OID
		switch {
		case at == types.Float4 || at == types.Float8:
			st.fsum += v.(float64)
		case a.Name == "sum" && (at == types.Int2 || at == types.Int4):
			st.isum += v.(int64) // cannot overflow: at most 2^32 rows of int4
		default:
			x := toDecimal(v)
			if st.countNonFinite(x) {
				return nil
			}
			if st.dsum == nil {
				st.dsum = new(apd.Decimal)
			}
			if _, err := decCtx.Add(st.dsum, st.dsum, x); err != nil {
				return err
			}
		}
	case "min", "max":
		if st.val == nil {
			st.val = v
			return nil
		}
		c := types.Compare(a.Arg.Type(), v, st.val)
		if (a.Name == "min" && c < 0) || (a.Name == "max" && c > 0) {
			st.val = v
		}
	case "string_agg":
		if st.count > 1 && args[1] != nil {
			st.sb.WriteString(asText(a.Extra[0].Type(), args[1]))
		}
		st.sb.WriteString(asText(a.Arg.Type(), v))
	case "array_agg", "json_agg", "jsonb_agg":
		st.elems = append(st.elems, v)
	case "json_object_agg", "jsonb_object_agg":
		if v == nil {
			return pgerr.New(pgerr.InvalidParameterValue, "field name must not be null")
		}
		st.elems = append(st.elems, v, args[1])
	case "percentile_cont", "percentile_disc", "mode":
		st.elems = append(st.elems, v) // sorted (replaySorted)
	case "bool_and", "every":
		st.b = (st.count == 1 || st.b) && v.(bool)
	case "bool_or":
		st.b = st.b || v.(bool)
	default: // the statistics
		return st.addStat(a, v)
	}
	return nil
}

func (st *aggState) result(a *sql.Agg) (types.Datum, error) {
	if len(a.Order) > 0 && st.rows != nil {
		rows := st.rows
		st.rows = nil
		if err := st.replaySorted(a, rows); err != nil {
			return nil, err
		}
	}
	switch a.Name {
	case "count":
		return st.count, nil
	case "min", "max":
		return st.val, nil
	case "percentile_cont", "percentile_disc", "mode":
		return orderedSetResult(a, st.elems, st.direct)
	}
	if st.count == 0 {
		return nil, nil
	}
	switch a.Name {
	case "string_agg":
		return st.sb.String(), nil
	case "array_agg":
		return types.NewArray(st.elems), nil
	case "json_agg", "jsonb_agg", "json_object_agg", "jsonb_object_agg":
		return jsonAggResult(a, st.elems, st.cv)
	case "bool_and", "bool_or", "every":
		return st.b, nil
	case "sum", "avg":
	default:
		return st.statResult(a)
	}
	at := a.Arg.Type().OID
	if at == types.Float4 || at == types.Float8 {
		if a.Name == "avg" {
			return st.fsum / float64(st.count), nil
		}
		if a.T.OID == types.Float4 {
			return float64(float32(st.fsum)), nil
		}
		return st.fsum, nil
	}
	if a.Name == "sum" && (at == types.Int2 || at == types.Int4) {
		return st.isum, nil
	}
	if d := st.nonFiniteResult(); d != nil {
		return d, nil
	}
	if a.Name == "sum" {
		return st.dsum, nil
	}
	// avg: numeric division as PostgreSQL's numeric_div picks the scale.
	return types.Arith('/', types.TNumeric, st.dsum, apd.New(st.count, 0))
}

// countNonFinite counts x if it is NaN or an infinity (numeric_accum's
// NaNcount, pInfcount and nInfcount) and reports whether it did.
func (st *aggState) countNonFinite(x *apd.Decimal) bool {
	switch {
	case x.Form == apd.Finite:
		return false
	case x.Form != apd.Infinite:
		st.nonFinite.nan++
	case x.Negative:
		st.nonFinite.ninf++
	default:
		st.nonFinite.pinf++
	}
	return true
}

// nonFiniteResult is numeric sum's and avg's result when an input was NaN
// or infinite: NaN for a NaN or for infinities of both signs, else the
// infinity; nil when every input was finite.
func (st *aggState) nonFiniteResult() *apd.Decimal {
	nf := st.nonFinite
	switch {
	case nf.nan > 0 || nf.pinf > 0 && nf.ninf > 0:
		return &apd.Decimal{Form: apd.NaN}
	case nf.pinf > 0:
		return &apd.Decimal{Form: apd.Infinite}
	case nf.ninf > 0:
		return &apd.Decimal{Form: apd.Infinite, Negative: true}
	}
	return nil
}

// evalDirect evaluates a's direct argument over row, once per group.
func (st *aggState) evalDirect(ev *evalCtx, a *sql.Agg, row []types.Datum) error {
	if len(a.Direct) == 0 || st.directSeen {
		return nil
	}
	v, err := ev.eval(a.Direct[0], row)
	st.direct, st.directSeen = v, err == nil
	return err
}

// replaySorted feeds the rows an aggregate with ORDER BY collected, in
// the order its ORDER BY asks (a stable sort: ties keep input order).
func (st *aggState) replaySorted(a *sql.Agg, rows [][]types.Datum) error {
	nargs := 1 + len(a.Extra)
	keys := make([]sql.SortKey, len(a.Order))
	for i, o := range a.Order {
		keys[i] = sql.SortKey{Idx: nargs + i, Desc: o.Desc, NullsFirst: o.NullsFirst, T: o.X.Type()}
	}
	sort.SliceStable(rows, func(i, j int) bool { return compareRows(keys, rows[i], rows[j]) < 0 })
	for _, r := range rows {
		if err := st.add(a, r[:nargs]); err != nil {
			return err
		}
	}
	return nil
}

// aggIter groups its input and produces one row per group: the group key
// values, then the aggregate results. Without GROUP BY there is exactly one
// group, even for no input. With grouping sets (sql.Select.GroupingSets)
// every input row goes to one group of each set: the keys of the set's
// members, the others NULL, and the set's index in the GroupingSetID key;
// a set without keys has its one group even for no input, as the plain
// aggregate does.
type aggIter struct {
	in   rowIter
	ev   *evalCtx
	st   *sql.Select
	out  [][]types.Datum
	i    int
	done bool
	mem  *memAccount // nil: not counted
}

type group struct {
	keys   []types.Datum
	states []aggState
}

// aggInput is one aggregate's input from one row.
type aggInput struct {
	skip bool          // FILTER rejected the row
	args []types.Datum // argument values
	keys []types.Datum // ORDER BY values
}

func (it *aggIter) build(ctx context.Context) error {
	st := it.st
	sets, gid := st.GroupingSets, -1
	if sets == nil {
		// One set of every key (none without GROUP BY).
		all := make([]int, len(st.Group))
		for i := range all {
			all[i] = i
		}
		sets = [][]int{all}
	} else {
		gid = len(st.Group) - 1
	}
	groups := map[string]*group{}
	var order []*group
	var kb []byte
	// setKey appends the key of set si's group of a row with key values
	// vals to kb.
	setKey := func(si int, vals []types.Datum) {
		kb = kb[:0]
		if len(sets) > 1 {
			kb = append(kb, byte(si>>8), byte(si))
		}
		for _, i := range sets[si] {
			kb = appendKeyNull(kb, st.Group[i].Type(), vals[i])
		}
	}
	newGroup := func(si int, vals []types.Datum) (*group, error) {
		keys := make([]types.Datum, len(st.Group))
		for _, i := range sets[si] {
			keys[i] = vals[i]
		}
		if gid >= 0 {
			keys[gid] = int64(si)
		}
		g := &group{keys: keys, states: make([]aggState, len(st.Aggs))}
		groups[string(kb)] = g
		order = append(order, g)
		return g, it.mem.charge(int64(len(kb)+64) + rowSize(keys) + 96*int64(len(st.Aggs)))
	}
	vals := make([]types.Datum, len(st.Group))
	for si, set := range sets {
		if len(set) == 0 {
			setKey(si, vals)
			if _, err := newGroup(si, vals); err != nil {
				return err
			}
		}
	}
	inputs := make([]aggInput, len(st.Aggs))
	// scratch holds an aggregate's arguments for one row: add keeps the
	// values, not the slice; an aggregate with ORDER BY keeps the slice
	// and gets a new one per row and group.
	scratch := make([][]types.Datum, len(st.Aggs))
	for {
		row, ok, err := it.in.Next(ctx)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		for i, g := range st.Group {
			if i != gid {
				if vals[i], err = it.ev.eval(g, row); err != nil {
					return err
				}
			}
		}
		for i, a := range st.Aggs {
			if inputs[i], err = it.aggInput(a, row, scratch[i][:0]); err != nil {
				return err
			}
			if len(a.Order) == 0 {
				scratch[i] = inputs[i].args[:0]
			}
		}
		for si := range sets {
			setKey(si, vals)
			grp := groups[string(kb)]
			if grp == nil {
				if grp, err = newGroup(si, vals); err != nil {
					return err
				}
			}
			for i, a := range st.Aggs {
				if err := grp.states[i].evalDirect(it.ev, a, row); err != nil {
					return err
				}
				in := inputs[i]
				if in.skip {
					continue
				}
				if len(a.Order) > 0 && si > 0 {
					in.args, in.keys = slices.Clone(in.args), slices.Clone(in.keys)
				}
				if err := grp.states[i].input(a, in.args, in.keys); err != nil {
					return err
				}
			}
		}
	}
	for si, set := range sets {
		if len(set) > 0 {
			continue
		}
		// No input row, perhaps: a direct argument uses no column (the
		// binder allows only grouped ones, and the set has none).
		setKey(si, vals)
		for i, a := range st.Aggs {
			if err := groups[string(kb)].states[i].evalDirect(it.ev, a, nil); err != nil {
				return err
			}
		}
	}
	for _, g := range order {
		row := make([]types.Datum, 0, len(st.Group)+len(st.Aggs))
		row = append(row, g.keys...)
		cv := it.ev.conv()
		for i, a := range st.Aggs {
			g.states[i].cv = &cv
			v, err := g.states[i].result(a)
			if err != nil {
				return err
			}
			row = append(row, v)
		}
		it.out = append(it.out, row)
	}
	return nil
}

// aggInput evaluates aggregate a's FILTER, arguments (into args) and ORDER
// BY values over row.
func (it *aggIter) aggInput(a *sql.Agg, row []types.Datum, args []types.Datum) (aggInput, error) {
	if a.Filter != nil {
		ok, err := it.ev.evalBool(a.Filter, row)
		if err != nil || !ok {
			return aggInput{skip: true}, err
		}
	}
	if len(a.Order) > 0 {
		args = make([]types.Datum, 0, 1+len(a.Extra)+len(a.Order))
	}
	if a.Arg != nil {
		v, err := it.ev.eval(a.Arg, row)
		if err != nil {
			return aggInput{}, err
		}
		args = append(args, v)
	}
	for _, x := range a.Extra {
		v, err := it.ev.eval(x, row)
		if err != nil {
			return aggInput{}, err
		}
		args = append(args, v)
	}
	var keys []types.Datum
	for _, o := range a.Order {
		v, err := it.ev.eval(o.X, row)
		if err != nil {
			return aggInput{}, err
		}
		keys = append(keys, v)
	}
	return aggInput{args: args, keys: keys}, nil
}

func (it *aggIter) Next(ctx context.Context) ([]types.Datum, bool, error) {
	if !it.done {
		it.done = true
		if err := it.build(ctx); err != nil {
			return nil, false, err
		}
	}
	if it.i >= len(it.out) {
		return nil, false, nil
	}
	it.i++
	return it.out[it.i-1], true, nil
}

func (it *aggIter) Close() { it.in.Close() }
