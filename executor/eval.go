package executor

import (
	"strings"
	"time"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/storage/heap"
	"minipg/storage/page"
	"minipg/types"
)

// evalCtx carries what expression evaluation needs besides the row.
type evalCtx struct {
	s      *Session
	params []types.Datum
	x      *execCtx                   // the statement (runs subqueries)
	subs   map[*sql.Select]*subResult // subquery results, computed once
	// outer holds the rows correlated subqueries are being run for,
	// innermost last (OuterRef Level 1).
	outer [][]types.Datum
}

// evalStrict2 evaluates the operands of a strict binary operator. If either
// is NULL it returns l == nil (and skips r when l is NULL): the operator's
// result is NULL.
func (c *evalCtx) evalStrict2(le, re sql.Expr, row []types.Datum) (l, r types.Datum, err error) {
	if l, err = c.eval(le, row); err != nil || l == nil {
		return nil, nil, err
	}
	if r, err = c.eval(re, row); err != nil || r == nil {
		return nil, nil, err
	}
	return l, r, nil
}

func (c *evalCtx) evalBool(e sql.Expr, row []types.Datum) (bool, error) {
	if e == nil {
		return true, nil
	}
	v, err := c.eval(e, row)
	if err != nil || v == nil {
		return false, err
	}
	return v.(bool), nil
}

func (c *evalCtx) eval(e sql.Expr, row []types.Datum) (types.Datum, error) {
	switch x := e.(type) {
	case *sql.Const:
		return x.Val, nil
	case *sql.Param:
		if x.Idx >= len(c.params) {
			return nil, pgerr.New(pgerr.UndefinedParameter, "there is no parameter $%d", x.Idx+1)
		}
		return c.params[x.Idx], nil
	case *sql.ColRef:
		return row[x.Idx], nil
	case *sql.OuterRef:
		if x.Level > len(c.outer) {
			return nil, pgerr.New(pgerr.InternalError, "outer reference %s has no outer row", x.Name)
		}
		return c.outer[len(c.outer)-x.Level][x.Idx], nil
	case *sql.Arith:
		l, r, err := c.evalStrict2(x.L, x.R, row)
		if err != nil || l == nil {
			return nil, err
		}
		return types.Arith(x.Op, x.T, l, r)
	case *sql.Neg:
		v, err := c.eval(x.X, row)
		if err != nil || v == nil {
			return nil, err
		}
		return types.Negate(x.T, v)
	case *sql.Concat:
		l, r, err := c.evalStrict2(x.L, x.R, row)
		if err != nil || l == nil {
			return nil, err
		}
		cv := c.conv()
		return asTextConv(x.LT, l, cv) + asTextConv(x.RT, r, cv), nil
	case *sql.Cmp:
		if x.Op[0] == 'I' { // IS [NOT] DISTINCT FROM: NULLs compare as values
			l, err := c.eval(x.L, row)
			if err != nil {
				return nil, err
			}
			r, err := c.eval(x.R, row)
			if err != nil {
				return nil, err
			}
			same := (l == nil && r == nil) || (l != nil && r != nil && types.Compare(x.CT, l, r) == 0)
			return same == (x.Op == "IS NOT DISTINCT FROM"), nil
		}
		l, r, err := c.evalStrict2(x.L, x.R, row)
		if err != nil || l == nil {
			return nil, err
		}
		cmp := types.Compare(x.CT, l, r)
		switch x.Op {
		case "=":
			return cmp == 0, nil
		case "<>":
			return cmp != 0, nil
		case "<":
			return cmp < 0, nil
		case "<=":
			return cmp <= 0, nil
		case ">":
			return cmp > 0, nil
		case ">=":
			return cmp >= 0, nil
		}
		return nil, pgerr.New(pgerr.InternalError, "unknown comparison %s", x.Op)
	case *sql.BoolOp:
		switch x.Op {
		case "NOT":
			v, err := c.eval(x.Args[0], row)
			if err != nil || v == nil {
				return nil, err
			}
			return !v.(bool), nil
		case "AND":
			sawNull := false
			for _, a := range x.Args {
				v, err := c.eval(a, row)
				if err != nil {
					return nil, err
				}
				if v == nil {
					sawNull = true
				} else if !v.(bool) {
					return false, nil
				}
			}
			if sawNull {
				return nil, nil
			}
			return true, nil
		default: // OR
			sawNull := false
			for _, a := range x.Args {
				v, err := c.eval(a, row)
				if err != nil {
					return nil, err
				}
				if v == nil {
					sawNull = true
				} else if v.(bool) {
					return true, nil
				}
			}
			if sawNull {
				return nil, nil
			}
			return false, nil
		}
	case *sql.IsNull:
		v, err := c.eval(x.X, row)
		if err != nil {
			return nil, err
		}
		return (v == nil) != x.Not, nil
	case *sql.InList:
		v, err := c.eval(x.X, row)
		if err != nil || v == nil {
			return nil, err
		}
		sawNull := false
		for _, it := range x.List {
			w, err := c.eval(it, row)
			if err != nil {
				return nil, err
			}
			if w == nil {
				sawNull = true
				continue
			}
			if types.Compare(x.CT, v, w) == 0 {
				return !x.Not, nil
			}
		}
		if sawNull {
			return nil, nil
		}
		return x.Not, nil
	case *sql.Cast:
		v, err := c.eval(x.X, row)
		if err != nil || v == nil {
			return nil, err
		}
		from := x.X.Type()
		if from.OID == types.Unknown {
			base := types.T{OID: x.T.OID, Typmod: -1}
			if base.OID == types.Interval {
				base = x.T
			}
			if v, err = types.ParseTextConv(base, v.(string), c.conv()); err != nil {
				return nil, err
			}
			from = base
		}
		return types.CoerceConv(v, from, x.T, x.Explicit, c.conv())
	case *sql.Like:
		v, err := c.eval(x.X, row)
		if err != nil || v == nil {
			return nil, err
		}
		p, err := c.eval(x.Pattern, row)
		if err != nil || p == nil {
			return nil, err
		}
		s, pat := asText(x.X.Type(), v), asText(x.Pattern.Type(), p)
		if x.Fold {
			s, pat = strings.ToLower(s), strings.ToLower(pat)
		}
		m, err := likeMatch([]rune(s), []rune(pat))
		if err != nil {
			return nil, err
		}
		return m != x.Not, nil
	case *sql.SubPlan:
		return c.subPlan(x, row)
	case *sql.Case:
		for i, w := range x.Whens {
			ok, err := c.evalBool(w, row)
			if err != nil {
				return nil, err
			}
			if ok {
				return c.eval(x.Results[i], row)
			}
		}
		if x.Else == nil {
			return nil, nil
		}
		return c.eval(x.Else, row)
	case *sql.GroupingFunc:
		if len(x.Values) == 0 {
			return nil, pgerr.New(pgerr.InternalError, "GROUPING evaluated over a scan row")
		}
		if x.Set == nil {
			return int64(x.Values[0]), nil
		}
		set, err := c.eval(x.Set, row)
		if err != nil {
			return nil, err
		}
		return int64(x.Values[set.(int64)]), nil
	case *sql.GroupingSetID:
		return nil, pgerr.New(pgerr.InternalError, "grouping set id evaluated over a scan row")
	case *sql.Coalesce:
		var best types.Datum
		for _, a := range x.Args {
			v, err := c.eval(a, row)
			if err != nil {
				return nil, err
			}
			switch {
			case v == nil:
			case x.MinMax == 0:
				return v, nil
			case best == nil:
				best = v
			case x.MinMax == '>' && types.Compare(x.T, v, best) > 0, x.MinMax == '<' && types.Compare(x.T, v, best) < 0:
				best = v
			}
		}
		return best, nil
	case *sql.Func:
		return c.call(x, row)
	case *sql.ArrayExpr, *sql.Subscript, *sql.ScalarArrayOp:
		return c.evalArrayNode(e, row)
	}
	return nil, pgerr.New(pgerr.InternalError, "cannot evaluate %T", e)
}

// asText renders a value as text for ||, as PostgreSQL's casts to text do:
// char(n) loses its padding and a boolean is true or false.
func asText(t types.T, d types.Datum) string { return asTextConv(t, d, types.Conv{Loc: time.UTC}) }

// loc is the session's TimeZone (UTC outside a session).
func (c *evalCtx) loc() *time.Location {
	if c == nil || c.s == nil {
		return time.UTC
	}
	return c.s.Location()
}

// conv is the session's TimeZone and IntervalStyle (UTC and postgres
// outside a session).
func (c *evalCtx) conv() types.Conv {
	if c == nil || c.s == nil {
		return types.Conv{Loc: time.UTC}
	}
	return c.s.Conv()
}

// asTextConv is asText with the session's TimeZone and IntervalStyle.
func asTextConv(t types.T, d types.Datum, cv types.Conv) string {
	if b, ok := d.(bool); ok {
		if b {
			return "true"
		}
		return "false"
	}
	if s, ok := d.(string); ok {
		if t.OID == types.Bpchar {
			return strings.TrimRight(s, " ")
		}
		return s
	}
	return string(types.AppendTextConv(nil, t, d, cv))
}

func (c *evalCtx) call(f *sql.Func, row []types.Datum) (types.Datum, error) {
	if f.Builtin != nil {
		return c.callBuiltin(f, row)
	}
	rf := sql.LookupFunction(f.Name)
	args := make([]types.Datum, len(f.Args))
	for i, a := range f.Args {
		v, err := c.eval(a, row)
		if err != nil {
			return nil, err
		}
		if v == nil && (rf == nil || !rf.NonStrict) {
			return nil, nil
		}
		args[i] = v
	}
	if f.SysColumn {
		return c.systemColumn(f.Name, args[0].(page.TID), uint32(args[1].(int64)))
	}
	if v, ok, err := c.callSequenceFunc(f, args); ok {
		return v, err
	}
	switch f.Name {
	case "version":
		return "PostgreSQL " + c.s.e.settings["server_version"] + " (minipg) on x86_64-pc-linux-gnu, 64-bit", nil
	case "current_user", "session_user":
		return c.s.user, nil
	case "current_database":
		return c.s.database, nil
	case "pg_backend_pid":
		return int64(c.s.pid), nil
	}
	if rf != nil {
		return rf.Fn(c.s.e, args)
	}
	return nil, pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", f.Name)
}

// likeMatch matches s against a LIKE pattern: % any run, _ one character,
// backslash escapes the next character.
func likeMatch(s, p []rune) (bool, error) {
	for len(p) > 0 {
		switch p[0] {
		case '%':
			for len(p) > 0 && p[0] == '%' {
				p = p[1:]
			}
			if len(p) == 0 {
				return true, nil
			}
			for i := 0; i <= len(s); i++ {
				if ok, err := likeMatch(s[i:], p); ok || err != nil {
					return ok, err
				}
			}
			return false, nil
		case '_':
			if len(s) == 0 {
				return false, nil
			}
			s, p = s[1:], p[1:]
		case '\\':
			if len(p) < 2 {
				return false, pgerr.New(pgerr.InvalidEscapeSequence, "LIKE pattern must not end with escape character")
			}
			if len(s) == 0 || s[0] != p[1] {
				return false, nil
			}
			s, p = s[1:], p[2:]
		default:
			if len(s) == 0 || s[0] != p[0] {
				return false, nil
			}
			s, p = s[1:], p[1:]
		}
	}
	return len(s) == 0, nil
}

// systemColumn reads system column name (sql.Func.SysColumn) of the
// version at tid of table oid: t_xmin, t_xmax, t_cid (cmin and cmax both,
// raw, as PostgreSQL's heap_getsysattr gives them) from its header, or the
// OID itself for tableoid.
func (c *evalCtx) systemColumn(name string, tid page.TID, oid uint32) (types.Datum, error) {
	if name == "tableoid" {
		return int64(oid), nil
	}
	r, err := c.s.e.rel(oid)
	if err != nil {
		return nil, err
	}
	tup, ok, err := r.heap.FetchAny(tid)
	if err != nil || !ok {
		return nil, err
	}
	switch name {
	case "xmin":
		return int64(heap.Xmin(tup)), nil
	case "xmax":
		return int64(heap.Xmax(tup)), nil
	}
	return int64(heap.Cid(tup)), nil
}
