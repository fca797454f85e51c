package executor

import (
	"slices"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// subResult is what an uncorrelated subquery produced.
type subResult struct {
	rows    int
	first   types.Datum         // scalar: the value
	row     []types.Datum       // row: the visible columns of the row
	elems   []types.Datum       // array: the values, in order
	set     map[string]struct{} // in: keys of the non-NULL values
	vals    []types.Datum       // in: the distinct non-NULL values (type CT)
	hasNull bool                // in: a NULL was among them
	tuples  [][]types.Datum     // rowin: the distinct rows without NULLs (fields of type CTs)
	nulls   [][]types.Datum     // rowin: the rows with a NULL
}

// runSubquery runs sp's SELECT in the statement's snapshot: once per
// statement if it is uncorrelated, else each time (with the outer row on
// c.outer).
func (c *evalCtx) runSubquery(sp *sql.SubPlan) (*subResult, error) {
	if r := c.subs[sp.Select]; r != nil {
		return r, nil
	}
	if c.x == nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "subqueries are not supported here")
	}
	x := c.x
	it, err := x.subSelect(sp.Select)
	if err != nil {
		return nil, err
	}
	defer it.Close()
	res := &subResult{}
	var innerT types.T
	if sp.Kind == "in" || sp.Kind == "rowin" {
		res.set = map[string]struct{}{}
		innerT = sp.Select.Targets[0].Type()
	}
	for {
		row, ok, err := it.Next(x.ctx)
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		res.rows++
		switch sp.Kind {
		case "exists":
		case "scalar":
			if res.rows > 1 {
				return nil, pgerr.New(pgerr.Code("21000"), "more than one row returned by a subquery used as an expression")
			}
			res.first = row[0]
			continue
		case "array":
			res.elems = append(res.elems, row[0])
			continue
		case "row":
			if res.rows > 1 {
				return nil, pgerr.New(pgerr.Code("21000"), "more than one row returned by a subquery used as an expression")
			}
			res.row = append([]types.Datum(nil), row[:sp.Select.NVisible]...)
			continue
		case "rowin":
			if err := res.addTuple(sp, row); err != nil {
				return nil, err
			}
			if !sp.Correlated {
				if err := x.s.mem.charge(rowSize(row) + 64); err != nil {
					return nil, err
				}
			}
			continue
		case "in":
			v := row[0]
			if v == nil {
				res.hasNull = true
				continue
			}
			if v, err = toCompareType(v, innerT, sp.CT); err != nil {
				return nil, err
			}
			k := string(types.AppendKey(nil, sp.CT, v))
			if _, dup := res.set[k]; !dup {
				res.set[k] = struct{}{}
				res.vals = append(res.vals, v)
				if !sp.Correlated {
					if err := x.s.mem.charge(int64(2*len(k) + 64)); err != nil {
						return nil, err
					}
				}
			}
			continue
		}
		break // exists: one row is enough
	}
	if sp.Correlated {
		return res, nil
	}
	if c.subs == nil {
		c.subs = map[*sql.Select]*subResult{}
	}
	c.subs[sp.Select] = res
	return res, nil
}

func toCompareType(v types.Datum, from, to types.T) (types.Datum, error) {
	if from.OID == to.OID || (intKind(from.OID) && intKind(to.OID)) {
		return v, nil
	}
	return types.Coerce(v, from, to, false)
}

// rowSubPlan runs a subquery of Kind "row" for row (the row SET reads)
// and returns its row: NULLs when it returned none.
func (c *evalCtx) rowSubPlan(sp *sql.SubPlan, row []types.Datum) ([]types.Datum, error) {
	if sp.Correlated {
		c.outer = append(c.outer, row)
		defer func() { c.outer = c.outer[:len(c.outer)-1] }()
	}
	res, err := c.runSubquery(sp)
	if err != nil {
		return nil, err
	}
	if res.rows == 0 {
		return make([]types.Datum, sp.Select.NVisible), nil
	}
	return res.row, nil
}

func (c *evalCtx) subPlan(sp *sql.SubPlan, row []types.Datum) (types.Datum, error) {
	if sp.Correlated {
		c.outer = append(c.outer, row)
		defer func() { c.outer = c.outer[:len(c.outer)-1] }()
	}
	res, err := c.runSubquery(sp)
	if err != nil {
		return nil, err
	}
	switch sp.Kind {
	case "exists":
		return res.rows > 0, nil
	case "scalar":
		return res.first, nil
	case "array":
		return types.NewArray(res.elems), nil
	case "rowin":
		return c.rowIn(sp, res, row)
	}
	if res.rows == 0 {
		return false, nil
	}
	v, err := c.eval(sp.X, row)
	if err != nil || v == nil {
		return nil, err
	}
	if _, ok := res.set[string(types.AppendKey(nil, sp.CT, v))]; ok {
		return true, nil
	}
	if res.hasNull {
		return nil, nil
	}
	return false, nil
}

// addTuple adds a subquery row to a "rowin" result: its fields converted
// to the comparison types; a row without NULLs goes into the set by key
// (duplicates once), one with a NULL into the list.
func (res *subResult) addTuple(sp *sql.SubPlan, row []types.Datum) error {
	t := make([]types.Datum, len(sp.CTs))
	var key []byte
	null := false
	for i, ct := range sp.CTs {
		v := row[i]
		if v == nil {
			null = true
			continue
		}
		v, err := toCompareType(v, sp.Select.Targets[i].Type(), ct)
		if err != nil {
			return err
		}
		t[i] = v
		key = types.AppendKey(append(key, 1), ct, v)
	}
	if null {
		res.nulls = append(res.nulls, t)
		return nil
	}
	if _, dup := res.set[string(key)]; !dup {
		res.set[string(key)] = struct{}{}
		res.tuples = append(res.tuples, t)
	}
	return nil
}

// rowIn is (a, b) IN (subquery) for row: true when a subquery row equals
// it, else NULL when one might (a NULL on either side where the other
// fields are equal), else false; no rows is false.
func (c *evalCtx) rowIn(sp *sql.SubPlan, res *subResult, row []types.Datum) (types.Datum, error) {
	if res.rows == 0 {
		return false, nil
	}
	vals := make([]types.Datum, len(sp.Xs))
	var key []byte
	null := false
	for i, x := range sp.Xs {
		v, err := c.eval(x, row)
		if err != nil {
			return nil, err
		}
		vals[i] = v
		if v == nil {
			null = true
			continue
		}
		key = types.AppendKey(append(key, 1), sp.CTs[i], v)
	}
	// A row without NULLs is found by its key, or made unknown by a row
	// of the subquery with a NULL; one with a NULL can only be unknown.
	check := res.nulls
	if !null {
		if _, ok := res.set[string(key)]; ok {
			return true, nil
		}
	} else {
		check = append(slices.Clip(res.tuples), res.nulls...)
	}
	for _, t := range check {
		unknown, differs := false, false
		for i, v := range vals {
			switch {
			case v == nil || t[i] == nil:
				unknown = true
			case types.Compare(sp.CTs[i], v, t[i]) != 0:
				differs = true
			}
		}
		if !differs && unknown {
			return nil, nil // this row's comparison is NULL
		}
	}
	return false, nil
}
