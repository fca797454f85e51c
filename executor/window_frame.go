package executor

// Window frames: a row's frame is a range of its partition's rows (ROWS:
// counted in rows; GROUPS: in peer groups; RANGE: by the ORDER BY value,
// with in_range's arithmetic for an offset), less the rows EXCLUDE takes
// out (the current row, its peer group, or its peers but itself).

import (
	"math"
	"sort"
	"time"

	"github.com/cockroachdb/apd/v3"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// winFrame is rows [start, end) of a partition but the excluded ranges
// [ex1, ex1e) and [ex2, ex2e).
type winFrame struct {
	start, end int
	ex1, ex1e  int
	ex2, ex2e  int
}

func (f winFrame) excluded(j int) bool {
	return (j >= f.ex1 && j < f.ex1e) || (j >= f.ex2 && j < f.ex2e)
}

// nth is the k-th row (1-based) of the frame, -1 if it has fewer.
func (f winFrame) nth(k int) int {
	for j := f.start; j < f.end; j++ {
		if !f.excluded(j) {
			if k--; k == 0 {
				return j
			}
		}
	}
	return -1
}

// last is the frame's last row, -1 if it is empty.
func (f winFrame) last() int {
	for j := f.end - 1; j >= f.start; j-- {
		if !f.excluded(j) {
			return j
		}
	}
	return -1
}

// offsets evaluates the frame's offsets at the partition's start: NULL
// is 22004, and a negative ROWS or GROUPS offset 22013 (RANGE offsets
// are checked by in_range).
func (p *winPartition) offsets() error {
	if p.offsetsSet {
		return nil
	}
	p.offsetsSet = true
	f := p.w.Frame
	var row []types.Datum
	if len(p.rows) > 0 {
		row = p.rows[0]
	}
	eval := func(b sql.FrameBound, which string) (types.Datum, error) {
		if b.Offset == nil {
			return nil, nil
		}
		v, err := p.it.ev.eval(b.Offset, row)
		if err != nil {
			return nil, err
		}
		if v == nil {
			return nil, pgerr.New(pgerr.NullValueNotAllowed, "frame %s offset must not be null", which)
		}
		if f.Mode != sql.FrameRange && v.(int64) < 0 {
			return nil, pgerr.New(pgerr.InvalidPrecedingOrFollowingSize, "frame %s offset must not be negative", which)
		}
		return v, nil
	}
	var err error
	if p.startOff, err = eval(f.Start, "starting"); err != nil {
		return err
	}
	if p.endOff, err = eval(f.End, "ending"); err != nil {
		return err
	}
	if f.Mode == sql.FrameRange && (p.startOff != nil || p.endOff != nil) {
		// The NULLs of the one ORDER BY column are at one end.
		p.nnStart, p.nnEnd = 0, len(p.rows)
		for p.nnStart < p.nnEnd && p.keys[p.nnStart][p.order[0].Idx] == nil {
			p.nnStart++
		}
		for p.nnEnd > p.nnStart && p.keys[p.nnEnd-1][p.order[0].Idx] == nil {
			p.nnEnd--
		}
	}
	return nil
}

// frame is row i's frame.
func (p *winPartition) frame(i int) (winFrame, error) {
	if err := p.offsets(); err != nil {
		return winFrame{}, err
	}
	f := p.w.Frame
	n := len(p.rows)
	ps, pe := p.peers(i)
	var fr winFrame
	var err error
	switch f.Start.Kind {
	case sql.BoundUnboundedPreceding:
		fr.start = 0
	case sql.BoundCurrentRow:
		fr.start = ps
		if f.Mode == sql.FrameRows {
			fr.start = i
		}
	default:
		if fr.start, err = p.offsetBound(i, f.Start.Kind, p.startOff, true); err != nil {
			return winFrame{}, err
		}
	}
	switch f.End.Kind {
	case sql.BoundUnboundedFollowing:
		fr.end = n
	case sql.BoundCurrentRow:
		fr.end = pe
		if f.Mode == sql.FrameRows {
			fr.end = i + 1
		}
	default:
		if fr.end, err = p.offsetBound(i, f.End.Kind, p.endOff, false); err != nil {
			return winFrame{}, err
		}
	}
	if fr.end < fr.start {
		fr.end = fr.start
	}
	switch f.Exclude {
	case sql.ExcludeCurrentRow:
		fr.ex1, fr.ex1e = i, i+1
	case sql.ExcludeGroup:
		fr.ex1, fr.ex1e = ps, pe
	case sql.ExcludeTies:
		fr.ex1, fr.ex1e, fr.ex2, fr.ex2e = ps, i, i+1, pe
	}
	return fr, nil
}

// clampAdd is i + d limited to [lo, hi].
func clampAdd(i int, d int64, lo, hi int) int {
	if d > int64(hi-i) {
		return hi
	}
	if d < int64(lo-i) {
		return lo
	}
	return i + int(d)
}

// offsetBound is the row where an offset PRECEDING / FOLLOWING bound
// puts the frame's start (isStart) or end (exclusive) for row i.
func (p *winPartition) offsetBound(i int, kind sql.BoundKind, off types.Datum, isStart bool) (int, error) {
	n := len(p.rows)
	switch p.w.Frame.Mode {
	case sql.FrameRows:
		d := off.(int64)
		if kind == sql.BoundPreceding {
			d = -d
		}
		if isStart {
			return clampAdd(i, d, 0, n), nil
		}
		return clampAdd(i, d, -1, n-1) + 1, nil
	case sql.FrameGroups:
		d := off.(int64)
		if kind == sql.BoundPreceding {
			d = -d
		}
		ng := len(p.groupStart) - 1
		g := clampAdd(p.group[i], d, -1, ng)
		if isStart {
			if g < 0 {
				return 0, nil
			}
			return p.groupStart[g], nil
		}
		if g < 0 {
			return 0, nil
		}
		if g >= ng {
			return n, nil
		}
		return p.groupStart[g+1], nil
	}
	// RANGE: a NULL current row's frame ends at its peers (the NULLs);
	// otherwise the NULLs are outside the offset's reach.
	ps, pe := p.peers(i)
	col := p.order[0]
	cur := p.keys[i][col.Idx]
	if cur == nil {
		if isStart {
			return ps, nil
		}
		return pe, nil
	}
	sub := kind == sql.BoundPreceding
	less := !isStart
	if col.Desc {
		sub, less = !sub, !less
	}
	var ferr error
	k := sort.Search(p.nnEnd-p.nnStart, func(k int) bool {
		if ferr != nil {
			return true
		}
		ok, err := p.inRange(p.keys[p.nnStart+k][col.Idx], cur, off, sub, less)
		if err != nil {
			ferr = err
			return true
		}
		// The start is the first row in range; the end the first one
		// past it.
		return ok == isStart
	})
	return p.nnStart + k, ferr
}

func errRangeSize() error {
	return pgerr.New(pgerr.InvalidPrecedingOrFollowingSize, "invalid preceding or following size in window function")
}

// inRange is PostgreSQL's in_range support function of the ORDER BY
// column's type: whether val <= base +/- offset (less) or val >= base
// +/- offset (not less), sub choosing minus.
func (p *winPartition) inRange(val, base, off types.Datum, sub, less bool) (bool, error) {
	t := p.order[0].T
	cmp := func(c int) bool {
		if less {
			return c <= 0
		}
		return c >= 0
	}
	switch t.OID {
	case types.Int2, types.Int4, types.Int8:
		o := off.(int64)
		if o < 0 {
			return false, errRangeSize()
		}
		b := base.(int64)
		if sub {
			o = -o
		}
		sum := b + o
		if (o > 0 && sum < b) || (o < 0 && sum > b) {
			// The sum overflows: it is beyond every value.
			if sub {
				return !less, nil
			}
			return less, nil
		}
		v := val.(int64)
		return cmp(compareInt(v, sum)), nil
	case types.Float4, types.Float8:
		o := off.(float64)
		if math.IsNaN(o) || o < 0 {
			return false, errRangeSize()
		}
		v, b := val.(float64), base.(float64)
		if math.IsNaN(v) {
			if math.IsNaN(b) {
				return true, nil
			}
			return !less, nil
		}
		if math.IsNaN(b) {
			return less, nil
		}
		if math.IsInf(o, 1) && math.IsInf(b, 0) && ((sub && b > 0) || (!sub && b < 0)) {
			return true, nil
		}
		sum := b + o
		if sub {
			sum = b - o
		}
		if less {
			return v <= sum, nil
		}
		return v >= sum, nil
	case types.Numeric:
		o := off.(*apd.Decimal)
		if o.Form == apd.NaN || o.Form == apd.NaNSignaling || o.Negative && !o.IsZero() {
			return false, errRangeSize()
		}
		v, b := val.(*apd.Decimal), base.(*apd.Decimal)
		vNaN, bNaN := v.Form == apd.NaN, b.Form == apd.NaN
		switch {
		case vNaN && bNaN:
			return true, nil
		case vNaN:
			return !less, nil
		case bNaN:
			return less, nil
		}
		var sum *apd.Decimal
		if o.Form == apd.Infinite {
			if b.Form == apd.Infinite && b.Negative != sub {
				return true, nil
			}
			sum = &apd.Decimal{Form: apd.Infinite, Negative: sub}
		} else {
			var err error
			op := byte('+')
			if sub {
				op = '-'
			}
			if sum, err = types.NumericArith(op, b, o); err != nil {
				return false, err
			}
		}
		return cmp(types.Compare(types.TNumeric, v, sum)), nil
	case types.Date, types.Timestamp, types.TimestampTZ:
		o := off.(types.IntervalValue)
		if types.CompareInterval(o, types.IntervalValue{}) < 0 {
			return false, errRangeSize()
		}
		if sub {
			var err error
			if o, err = negInterval(o); err != nil {
				return false, err
			}
		}
		var loc *time.Location
		if t.OID == types.TimestampTZ {
			loc = p.it.ev.loc()
		}
		sum, err := timestampPlInterval(base.(time.Time), o, loc)
		if err != nil {
			return false, err
		}
		return cmp(types.Compare(types.TTimestamp, val, sum)), nil
	case types.Interval:
		o := off.(types.IntervalValue)
		if types.CompareInterval(o, types.IntervalValue{}) < 0 {
			return false, errRangeSize()
		}
		sign := int64(1)
		if sub {
			sign = -1
		}
		sum, err := addInterval(base.(types.IntervalValue), o, sign)
		if err != nil {
			return false, err
		}
		return cmp(types.CompareInterval(val.(types.IntervalValue), sum.(types.IntervalValue))), nil
	}
	return false, pgerr.New(pgerr.FeatureNotSupported, "RANGE with offset PRECEDING/FOLLOWING is not supported for column type %s", t.Name())
}

func compareInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
