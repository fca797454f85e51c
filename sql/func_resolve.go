package sql

import (
	"sort"
	"strings"
	"sync"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/pgerr"
	"minipg/types"
)

// AnyOID is the pseudo-type "any" (a parameter that takes a value of any
// type as it is, as concat and format take theirs).
const AnyOID types.OID = 2276

// Volatility is pg_proc.provolatile.
type Volatility byte

// The volatility classes.
const (
	Immutable Volatility = 'i'
	Stable    Volatility = 's'
	Volatile  Volatility = 'v'
)

// BuiltinFn computes a built-in function. env is what the executor passes
// (its session); args are the argument values, already converted to the
// parameter types (a NULL is nil, and only non-strict functions see one);
// f is the bound call, whose arguments' types and result type the function
// may consult.
type BuiltinFn func(env any, args []types.Datum, f *Func) (types.Datum, error)

// Builtin is one overload of a built-in function, as pg_proc lists it.
type Builtin struct {
	Name       string
	Args       []types.OID // parameter types; AnyOID takes any type
	Variadic   bool        // the last parameter repeats (one or more times)
	Result     types.OID
	Volatility Volatility
	Strict     bool // a NULL argument gives NULL without calling Fn
	// KeepUnknown leaves an "any" argument of unknown type (a quoted
	// literal, NULL) unknown, as PostgreSQL passes it (pg_typeof says
	// unknown, pg_column_size counts a C string); without it the
	// argument becomes text.
	KeepUnknown bool
	Extension   string // the extension that provides it ("": always there; see tablefunc.go)
	Fn          BuiltinFn
}

var builtins struct {
	sync.RWMutex
	byName map[string][]*Builtin
}

// RegisterBuiltin adds an overload of a built-in function. Each name and
// parameter list is registered once; a second registration is a bug and
// panics.
func RegisterBuiltin(f Builtin) {
	builtins.Lock()
	defer builtins.Unlock()
	if builtins.byName == nil {
		builtins.byName = map[string][]*Builtin{}
	}
	for _, g := range builtins.byName[f.Name] {
		if sameOIDs(g.Args, f.Args) && g.Variadic == f.Variadic {
			panic("sql: built-in function " + f.Name + " registered twice with the same arguments")
		}
	}
	builtins.byName[f.Name] = append(builtins.byName[f.Name], &f)
}

// LookupBuiltins returns the overloads of name.
func LookupBuiltins(name string) []*Builtin {
	builtins.RLock()
	defer builtins.RUnlock()
	return builtins.byName[name]
}

func sameOIDs(a, b []types.OID) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// params is f's parameter list expanded to n arguments; ok is false when f
// does not take n arguments.
func (f *Builtin) params(n int) ([]types.OID, bool) {
	if !f.Variadic {
		return f.Args, len(f.Args) == n
	}
	if n < len(f.Args) {
		return nil, false
	}
	ps := append([]types.OID(nil), f.Args...)
	for len(ps) < n {
		ps = append(ps, f.Args[len(f.Args)-1])
	}
	return ps, true
}

// resolveBuiltin chooses among the overloads of c.name the one PostgreSQL's
// func_select_candidate would choose for the argument types: an exact
// match; else the only candidate every argument converts to implicitly;
// else the candidates with the most exact matches, then the most preferred
// types where a conversion is needed, then, for unknown literals, the
// string category if any candidate takes one there (else the one category
// all take), then the type of the known arguments when they all have one.
// found is false when no overload has that name.
func (c *call) resolveBuiltin() (e Expr, found bool, err error) {
	var all []*Builtin
	for _, f := range LookupBuiltins(c.name) {
		if c.b.extensionInstalled(f.Extension) {
			all = append(all, f)
		}
	}
	return c.resolveAmong(all)
}

// resolveAmong is resolveBuiltin over the overloads in all.
func (c *call) resolveAmong(all []*Builtin) (e Expr, found bool, err error) {
	if len(all) == 0 {
		return nil, false, nil
	}
	n := len(c.args)
	type cand struct {
		f  *Builtin
		ps []types.OID
	}
	var cands []cand
	for _, f := range all {
		ps, ok := f.params(n)
		if !ok {
			continue
		}
		exact, coercible := true, true
		for i, p := range ps {
			a := c.argTypes[i].OID
			if p == AnyOID || p == AnyElementOID {
				continue
			}
			if p == AnyArrayOID {
				if !types.IsArray(a) {
					exact, coercible = false, false
				}
				continue
			}
			if a != p {
				exact = false
			}
			if !types.CastContextOf(a, p).Allows(types.CastImplicit) {
				coercible = false
			}
		}
		if exact {
			cands = []cand{{f, ps}}
			break
		}
		if coercible {
			cands = append(cands, cand{f, ps})
		}
	}
	// Keep the candidates scoring best by score.
	narrow := func(score func(cand) int) {
		best, out := -1, cands[:0:0]
		for _, cd := range cands {
			s := score(cd)
			if s > best {
				best, out = s, out[:0]
			}
			if s == best {
				out = append(out, cd)
			}
		}
		cands = out
	}
	if len(cands) > 1 {
		narrow(func(cd cand) int {
			k := 0
			for i, p := range cd.ps {
				if c.argTypes[i].OID == p {
					k++
				}
			}
			return k
		})
	}
	if len(cands) > 1 {
		narrow(func(cd cand) int {
			k := 0
			for i, p := range cd.ps {
				a := c.argTypes[i].OID
				if a != types.Unknown && a != p && types.IsPreferred(p) && types.Category(p) == types.Category(a) {
					k++
				}
			}
			return k
		})
	}
	if len(cands) > 1 {
		for i := 0; i < n && len(cands) > 1; i++ {
			if c.argTypes[i].OID != types.Unknown {
				continue
			}
			var cat byte
			same, anyString, anyPreferred := true, false, false
			for j, cd := range cands {
				pc := types.Category(cd.ps[i])
				if pc == 'S' {
					anyString = true
				}
				if j == 0 {
					cat = pc
				} else if pc != cat {
					same = false
				}
			}
			switch {
			case anyString:
				cat = 'S'
			case !same:
				continue
			}
			for _, cd := range cands {
				if types.Category(cd.ps[i]) == cat && types.IsPreferred(cd.ps[i]) {
					anyPreferred = true
				}
			}
			var out []cand
			for _, cd := range cands {
				if types.Category(cd.ps[i]) == cat && (!anyPreferred || types.IsPreferred(cd.ps[i])) {
					out = append(out, cd)
				}
			}
			cands = out
		}
	}
	if len(cands) > 1 {
		var known types.OID
		sameKnown := true
		for _, t := range c.argTypes {
			if t.OID == types.Unknown {
				continue
			}
			if known != 0 && t.OID != known {
				sameKnown = false
			}
			known = t.OID
		}
		if sameKnown && known != 0 {
			var out []cand
			for _, cd := range cands {
				ok := true
				for i, p := range cd.ps {
					if c.argTypes[i].OID == types.Unknown && p != AnyOID && !types.CastContextOf(known, p).Allows(types.CastImplicit) {
						ok = false
					}
				}
				if ok {
					out = append(out, cd)
				}
			}
			if len(out) == 1 {
				cands = out
			}
		}
	}
	switch {
	case len(cands) == 0:
		return nil, true, c.undefined()
	case len(cands) > 1:
		return nil, true, c.notUnique()
	}
	f, ps := cands[0].f, cands[0].ps
	result, err := c.resolvePolymorphic(f, ps)
	if err != nil {
		return nil, true, err
	}
	for i, p := range ps {
		if p == AnyArrayOID || p == AnyElementOID {
			continue
		}
		if p == AnyOID {
			if isUnknown(c.args[i]) && !f.KeepUnknown {
				if err := c.coerceArg(i, types.TText); err != nil {
					return nil, true, err
				}
			}
			continue
		}
		if err := c.coerceArg(i, types.T{OID: p, Typmod: -1}); err != nil {
			return nil, true, err
		}
	}
	return &Func{Name: c.name, Args: c.args, T: result, Builtin: f}, true, nil
}

// notUnique is 42725 naming the function as called.
func (c *call) notUnique() error {
	var ts []string
	for _, t := range c.argTypes {
		ts = append(ts, baseName(t))
	}
	return c.b.errAt(c.fc.Location, pgerr.AmbiguousFunction, "function %s is not unique", c.name+"("+strings.Join(ts, ", ")+")").
		WithHint("Could not choose a best candidate function. You might need to add explicit type casts.")
}

// operatorFuncs names the overload set an operator resolves in (the
// functions behind PostgreSQL's pg_operator entries for the operator).
var operatorFuncs = map[string][]string{"^": {"power"}, "@": {"abs"}, "|/": {"dsqrt"}, "||/": {"dcbrt"},
	"&": {"int2and", "int4and", "int8and"}, "|": {"int2or", "int4or", "int8or"}, "#": {"int2xor", "int4xor", "int8xor"},
	"<<": {"int2shl", "int4shl", "int8shl"}, ">>": {"int2shr", "int4shr", "int8shr"}}

// prefixOperatorFuncs are the functions behind prefix operators whose name
// a binary operator also has (~ is a regular expression match between two
// operands).
var prefixOperatorFuncs = map[string][]string{"~": {"int2not", "int4not", "int8not"}}

// datetimeOperatorFuncs are the functions behind + - * / when an operand
// is a date, timestamp, timestamptz or interval (pg_operator's entries for
// them).
var datetimeOperatorFuncs = map[string][]string{
	"+": {"date_pli", "integer_pl_date", "timestamp_pl_interval", "interval_pl_timestamp", "timestamptz_pl_interval",
		"interval_pl_timestamptz", "date_pl_interval", "interval_pl_date", "interval_pl",
		"time_pl_interval", "interval_pl_time", "timetz_pl_interval", "interval_pl_timetz",
		"datetime_pl", "timedate_pl", "datetimetz_pl", "timetzdate_pl"},
	"-": {"date_mi", "date_mii", "timestamp_mi_interval", "timestamptz_mi_interval", "date_mi_interval",
		"timestamp_mi", "timestamptz_mi", "interval_mi",
		"time_mi_time", "time_mi_interval", "timetz_mi_interval"},
	"*": {"interval_mul", "mul_d_interval"},
	"/": {"interval_div"},
}

func isDatetime(oid types.OID) bool {
	switch oid {
	case types.Date, types.Timestamp, types.TimestampTZ, types.Interval, types.Time, types.TimeTZ:
		return true
	}
	return false
}

// builtinOperator binds a prefix (one operand) or binary operator that
// PostgreSQL implements with a built-in function: ok is false when op is
// not one. A failed lookup is "operator does not exist", as for any other
// operator.
func (b *binder) builtinOperator(op string, operands []Expr, loc int32) (e Expr, ok bool, err error) {
	if len(operands) == 2 {
		if e, ok, err := b.jsonOperator(op, operands[0], operands[1], loc); ok {
			return e, true, err
		}
	}
	fns, ok := operatorFuncs[op]
	if pf, prefix := prefixOperatorFuncs[op]; prefix && len(operands) == 1 {
		fns, ok = pf, true
	}
	if !ok && len(operands) == 2 && (isDatetime(operands[0].Type().OID) || isDatetime(operands[1].Type().OID)) {
		fns, ok = datetimeOperatorFuncs[op]
	}
	if !ok && len(operands) == 1 && op == "-" && operands[0].Type().OID == types.Interval {
		fns, ok = []string{"interval_um"}, true
	}
	if !ok {
		return nil, false, nil
	}
	// An unknown operand of a binary operator is first tried as the other
	// operand's type, as PostgreSQL's oper_select_candidate does.
	if len(operands) == 2 {
		for i, x := range operands {
			if other := operands[1-i]; isUnknown(x) && !isUnknown(other) {
				for _, fn := range fns {
					for _, f := range LookupBuiltins(fn) {
						if f.Args[i] == other.Type().OID && f.Args[1-i] == other.Type().OID {
							x2, err := b.coerce(x, types.T{OID: other.Type().OID, Typmod: -1}, types.CastImplicit, exprLoc(x, loc))
							if err != nil {
								return nil, true, err
							}
							operands[i] = x2
						}
					}
				}
			}
		}
	}
	if op == "+" && len(operands) == 2 && (isUnknown(operands[0]) || isUnknown(operands[1])) &&
		(operands[0].Type().OID == types.Date || operands[1].Type().OID == types.Date) {
		// PostgreSQL also has date + interval, time and time with time
		// zone, and cannot choose among them for an unknown literal.
		return nil, true, b.errAt(loc, pgerr.AmbiguousFunction, "operator is not unique: %s + %s", baseName(operands[0].Type()), baseName(operands[1].Type())).
			WithHint("Could not choose a best candidate operator. You might need to add explicit type casts.")
	}
	var all []*Builtin
	for _, fn := range fns {
		all = append(all, LookupBuiltins(fn)...)
	}
	c := &call{b: b, fc: &pg_query.FuncCall{Location: loc}, name: fns[0], args: operands}
	for _, x := range operands {
		c.argTypes = append(c.argTypes, x.Type())
	}
	e, _, err = c.resolveAmong(all)
	if pe, isPG := err.(*pgerr.Error); isPG && (pe.Code == pgerr.UndefinedFunction || pe.Code == pgerr.AmbiguousFunction) {
		if len(operands) == 1 {
			return nil, true, b.errAt(loc, pe.Code, "operator does not exist: %s %s", op, baseName(c.argTypes[0])).
				WithHint("No operator matches the given name and argument type. You might need to add an explicit type cast.")
		}
		return nil, true, b.opError(loc, op, c.argTypes[0], c.argTypes[1])
	}
	return e, true, err
}

// builtinCall is a call of the built-in function name, which has one
// overload without arguments (the SQL-standard CURRENT_TIMESTAMP is now()).
func builtinCall(name string) (Expr, error) {
	for _, f := range LookupBuiltins(name) {
		if len(f.Args) == 0 {
			return &Func{Name: name, T: types.T{OID: f.Result, Typmod: -1}, Builtin: f}, nil
		}
	}
	return nil, pgerr.New(pgerr.InternalError, "built-in function %s() is not registered", name)
}

// BuiltinNames returns the names of the built-in functions, sorted.
func BuiltinNames() []string {
	builtins.RLock()
	defer builtins.RUnlock()
	out := make([]string, 0, len(builtins.byName))
	for n := range builtins.byName {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
