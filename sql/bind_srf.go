package sql

import (
	"minipg/pgerr"
	"minipg/types"
)

// Set-returning functions: generate_series over integer, bigint, numeric,
// and timestamp or timestamp with time zone with an interval step. They
// are allowed in a select list and in FROM.

// srfAllowed is the check of every set-returning function: a select list
// and FROM allow one, other clauses not.
func (c *call) srfAllowed() error {
	if c.b.srfOK {
		return nil
	}
	clause := c.b.aggErr
	if clause == "" {
		clause = "this context"
	}
	return c.b.errAt(c.fc.Location, pgerr.FeatureNotSupported, "set-returning functions are not allowed in %s", clause)
}

// findSRF returns the first set-returning function call in e, or nil.
func findSRF(e Expr) *SRFCall {
	var found *SRFCall
	Walk(e, func(x Expr) {
		if s, ok := x.(*SRFCall); ok && found == nil {
			found = s
		}
	})
	return found
}

// srfWithin refuses a set-returning function inside the expressions es
// of a construct that evaluates them once per row, as PostgreSQL does
// (CASE, COALESCE, an aggregate's arguments): msg names it.
func (b *binder) srfWithin(msg string, es ...Expr) error {
	for _, e := range es {
		if s := findSRF(e); s != nil {
			return b.errAt(s.Loc, pgerr.FeatureNotSupported, "%s", msg).
				WithHint("You might be able to move the set-returning function into a LATERAL FROM item.")
		}
	}
	return nil
}

// generateSeries binds generate_series(start, stop [, step]): the
// arguments take the smallest of integer, bigint and numeric that holds all
// of them, as PostgreSQL's function resolution picks among its overloads.
func (c *call) generateSeries() (Expr, error) {
	b := c.b
	if err := c.srfAllowed(); err != nil {
		return nil, err
	}
	if len(c.args) < 2 || len(c.args) > 3 {
		return nil, c.undefined()
	}
	if len(c.args) == 3 && (c.args[2].Type().OID == types.Interval || isDatetime(c.args[0].Type().OID) || isDatetime(c.args[1].Type().OID)) {
		return c.timestampSeries()
	}
	rank := 0 // 0 none decided, 1 integer, 2 bigint, 3 numeric
	for _, a := range c.args {
		if isUnknown(a) {
			continue
		}
		r := 0
		switch a.Type().OID {
		case types.Int2, types.Int4:
			r = 1
		case types.Int8:
			r = 2
		case types.Numeric:
			r = 3
		default:
			return nil, c.undefined()
		}
		if r > rank {
			rank = r
		}
	}
	if rank == 0 {
		return nil, b.errAt(c.fc.Location, pgerr.Code("42725"), "function %s is not unique", c.signature()).
			WithHint("Could not choose a best candidate function. You might need to add explicit type casts.")
	}
	t := []types.T{types.TInt4, types.TInt4, types.TInt8, types.TNumeric}[rank]
	for i := range c.args {
		x, err := b.coerce(c.args[i], t, types.CastImplicit, exprLocation(c.fc.Args[i]))
		if err == errMismatch {
			return nil, c.undefined()
		}
		if err != nil {
			return nil, err
		}
		c.args[i] = x
	}
	return &SRFCall{Name: "generate_series", Args: c.args, T: t}, nil
}

// timestampSeries binds generate_series(timestamp, timestamp, interval)
// and (timestamptz, timestamptz, interval): timestamp when the known
// bounds are all timestamp, else timestamptz (the preferred type, which a
// date converts to as well, and that unknown literals are taken as), as
// PostgreSQL's resolution picks.
func (c *call) timestampSeries() (Expr, error) {
	b := c.b
	known, allTS := 0, true
	for _, a := range c.args[:2] {
		if isUnknown(a) {
			continue
		}
		known++
		switch a.Type().OID {
		case types.Timestamp:
		case types.TimestampTZ, types.Date:
			allTS = false
		default:
			return nil, c.undefined()
		}
	}
	t := types.TTimestampTZ
	if allTS && known > 0 {
		t = types.TTimestamp
	}
	for i, want := range []types.T{t, t, types.TInterval} {
		x, err := b.coerce(c.args[i], want, types.CastImplicit, exprLocation(c.fc.Args[i]))
		if err == errMismatch {
			return nil, c.undefined()
		}
		if err != nil {
			return nil, err
		}
		c.args[i] = x
	}
	return &SRFCall{Name: "generate_series", Args: c.args, T: t}, nil
}
