package executor

// Set-returning functions: generate_series as a stream (a series of ten
// million values holds one value at a time), for FROM (fromLeaf) and for
// select lists (projectSetIter, PostgreSQL's ProjectSet).

import (
	"context"
	"time"

	"github.com/cockroachdb/apd/v3"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// seq is the values of one call of a set-returning function.
type seq interface {
	next() (types.Datum, bool, error)
}

// openSRF starts f with its arguments evaluated over row; ordinality adds
// the 1-based position after each value. The result rows have one or two
// values.
func (c *evalCtx) openSRF(f *sql.SRFCall, row []types.Datum, ordinality bool) (rowIter, error) {
	if f.Table != nil {
		return c.openTableFunc(f, row, ordinality)
	}
	s, err := c.startSeq(f, row)
	if err != nil {
		return nil, err
	}
	return &seqIter{s: s, ord: ordinality}, nil
}

// startSeq evaluates f's arguments and checks them as PostgreSQL does on
// the function's first call. A NULL argument gives no rows (the functions
// are strict).
func (c *evalCtx) startSeq(f *sql.SRFCall, row []types.Datum) (seq, error) {
	if f.Table != nil {
		// A one-column table function (a SQL function returning SETOF)
		// in a select list.
		it, err := c.openTableFunc(f, row, false)
		if err != nil {
			return nil, err
		}
		return &firstColumnSeq{it: it}, nil
	}
	args := make([]types.Datum, len(f.Args))
	for i, a := range f.Args {
		v, err := c.eval(a, row)
		if err != nil {
			return nil, err
		}
		args[i] = v
	}
	if f.Name == "" { // a scalar function in FROM: one row
		return &oneValue{v: args[0]}, nil
	}
	if f.Name == "string_to_table" {
		// Not strict: string_to_array's fields, none for a NULL string.
		a, err := stringToArray(nil, args, nil)
		if err != nil || a == nil {
			return &oneValue{done: true}, err
		}
		return &arraySeq{elems: a.(*types.Array).Elems}, nil
	}
	for _, a := range args {
		if a == nil {
			return &oneValue{done: true}, nil
		}
	}
	if s, ok, err := startOtherSeq(f, args); ok {
		return s, err
	}
	switch f.T.OID {
	case types.Numeric:
		return numericSeries(args)
	case types.Timestamp, types.TimestampTZ:
		step := args[2].(types.IntervalValue)
		sign := types.CompareInterval(step, types.IntervalValue{})
		if sign == 0 {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "step size cannot equal zero")
		}
		s := &timestampSeries{cur: args[0].(time.Time), stop: args[1].(time.Time), step: step, sign: sign}
		if f.T.OID == types.TimestampTZ {
			s.loc = c.loc()
		}
		return s, nil
	}
	step := int64(1)
	if len(args) == 3 {
		step = args[2].(int64)
	}
	if step == 0 {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "step size cannot equal zero")
	}
	lo, hi := int64(-1<<31), int64(1<<31-1)
	if f.T.OID == types.Int8 {
		lo, hi = -1<<63, 1<<63-1
	}
	return &intSeries{cur: args[0].(int64), stop: args[1].(int64), step: step, lo: lo, hi: hi}, nil
}

// oneValue is a series of one value (or none when done).
type oneValue struct {
	v    types.Datum
	done bool
}

func (s *oneValue) next() (types.Datum, bool, error) {
	if s.done {
		return nil, false, nil
	}
	s.done = true
	return s.v, true, nil
}

// intSeries is generate_series over integer or bigint; like PostgreSQL it
// stops instead of overflowing past the type's range [lo, hi].
type intSeries struct {
	cur, stop, step, lo, hi int64
	done                    bool
}

func (s *intSeries) next() (types.Datum, bool, error) {
	if s.done || (s.step > 0 && s.cur > s.stop) || (s.step < 0 && s.cur < s.stop) {
		return nil, false, nil
	}
	v := s.cur
	if (s.step > 0 && v > s.hi-s.step) || (s.step < 0 && v < s.lo-s.step) {
		s.done = true
	} else {
		s.cur += s.step
	}
	return v, true, nil
}

// numericSeries checks generate_series(numeric, numeric [, numeric]) as
// PostgreSQL 15 does: no NaN or infinity, no zero step.
func numericSeries(args []types.Datum) (seq, error) {
	special := func(d *apd.Decimal, what string) error {
		switch d.Form {
		case apd.NaN, apd.NaNSignaling:
			return pgerr.New(pgerr.InvalidParameterValue, "%s cannot be NaN", what)
		case apd.Infinite:
			return pgerr.New(pgerr.InvalidParameterValue, "%s cannot be infinity", what)
		}
		return nil
	}
	start, stop := args[0].(*apd.Decimal), args[1].(*apd.Decimal)
	if err := special(start, "start value"); err != nil {
		return nil, err
	}
	if err := special(stop, "stop value"); err != nil {
		return nil, err
	}
	step := types.NumericFromInt64(1)
	if len(args) == 3 {
		step = args[2].(*apd.Decimal)
		if err := special(step, "step size"); err != nil {
			return nil, err
		}
		if step.IsZero() {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "step size cannot equal zero")
		}
	}
	return &numSeries{cur: start, stop: stop, step: step}, nil
}

// numSeries is generate_series over numeric.
type numSeries struct {
	cur, stop, step *apd.Decimal
}

func (s *numSeries) next() (types.Datum, bool, error) {
	c := types.Compare(types.TNumeric, s.cur, s.stop)
	if (!s.step.Negative && c > 0) || (s.step.Negative && c < 0) {
		return nil, false, nil
	}
	v := s.cur
	n, err := types.NumericArith('+', s.cur, s.step)
	if err != nil {
		return nil, false, err
	}
	s.cur = n
	return v, true, nil
}

// seqIter turns a series into rows of one value (and its ordinal).
type seqIter struct {
	s   seq
	ord bool
	n   int64
}

func (it *seqIter) Next(ctx context.Context) ([]types.Datum, bool, error) {
	v, ok, err := it.s.next()
	if err != nil || !ok {
		return nil, false, err
	}
	it.n++
	if it.n%checkEvery == 0 {
		if err := canceled(ctx); err != nil {
			return nil, false, err
		}
	}
	if it.ord {
		return []types.Datum{v, it.n}, true, nil
	}
	return []types.Datum{v}, true, nil
}

func (it *seqIter) Close() {}

// projectSetIter runs the select list's set-returning functions for each
// input row in lockstep: one output row per position until all of them
// are exhausted (the shorter ones give NULL), the row followed by their
// values. An input row for which all of them are empty gives no output.
type projectSetIter struct {
	in   rowIter
	ev   *evalCtx
	srfs []*sql.SRFCall
	row  []types.Datum
	seqs []seq // nil: read the next input row
	done []bool
}

func (it *projectSetIter) Next(ctx context.Context) ([]types.Datum, bool, error) {
	for {
		if it.seqs == nil {
			row, ok, err := it.in.Next(ctx)
			if err != nil || !ok {
				return nil, false, err
			}
			it.row = append([]types.Datum(nil), row...)
			it.seqs, it.done = make([]seq, len(it.srfs)), make([]bool, len(it.srfs))
			for i, f := range it.srfs {
				if it.seqs[i], err = it.ev.startSeq(f, it.row); err != nil {
					return nil, false, err
				}
			}
		}
		out := make([]types.Datum, len(it.row), len(it.row)+len(it.srfs))
		copy(out, it.row)
		got := false
		for i, s := range it.seqs {
			var v types.Datum
			if !it.done[i] {
				var ok bool
				var err error
				if v, ok, err = s.next(); err != nil {
					return nil, false, err
				}
				if ok {
					got = true
				} else {
					it.done[i] = true
				}
			}
			out = append(out, v)
		}
		if got {
			return out, true, nil
		}
		it.seqs = nil
	}
}

func (it *projectSetIter) Close() { it.in.Close() }

// openTableFunc runs a table function with its arguments evaluated over
// row; ordinality adds the 1-based position after each row's values.
func (c *evalCtx) openTableFunc(f *sql.SRFCall, row []types.Datum, ordinality bool) (rowIter, error) {
	args := make([]types.Datum, len(f.Args))
	for i, a := range f.Args {
		v, err := c.eval(a, row)
		if err != nil {
			return nil, err
		}
		if v == nil && f.Table.Strict {
			return &sliceIter{}, nil
		}
		args[i] = v
	}
	rows, err := f.Table.Fn(c, args)
	if err != nil {
		return nil, err
	}
	if ordinality {
		for i, r := range rows {
			rows[i] = append(r[:len(r):len(r)], int64(i+1))
		}
	}
	return &sliceIter{rows: rows}, nil
}

// timestampSeries is generate_series over timestamp (loc nil) or
// timestamptz (calendar steps in loc): each value is the previous one plus
// step (timestamp_pl_interval), so '1 month' from January 31 goes to
// February 29 and then March 29.
type timestampSeries struct {
	cur, stop time.Time
	step      types.IntervalValue
	sign      int
	loc       *time.Location
	done      bool
}

func (s *timestampSeries) next() (types.Datum, bool, error) {
	if s.done {
		return nil, false, nil
	}
	c := types.Compare(types.TTimestamp, s.cur, s.stop)
	if (s.sign > 0 && c > 0) || (s.sign < 0 && c < 0) {
		s.done = true
		return nil, false, nil
	}
	v := s.cur
	n, err := timestampPlInterval(s.cur, s.step, s.loc)
	if err != nil {
		return nil, false, err
	}
	s.cur = n.(time.Time)
	return v, true, nil
}

// firstColumnSeq is the first column of a table function's rows.
type firstColumnSeq struct{ it rowIter }

func (s *firstColumnSeq) next() (types.Datum, bool, error) {
	row, ok, err := s.it.Next(context.Background())
	if err != nil || !ok {
		return nil, false, err
	}
	return row[0], true, nil
}
