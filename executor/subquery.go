package executor

import (
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
	if sp.Kind == "in" {
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
