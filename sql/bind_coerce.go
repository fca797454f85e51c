package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/pgerr"
	"minipg/types"
)

// baseName is a type's name without its modifier, as PostgreSQL's
// format_type_be names types in operator, function and assignment errors
// (char of any length is "character" there, not "bpchar").
func baseName(t types.T) string {
	if t.OID == types.Bpchar {
		return "character"
	}
	return types.T{OID: t.OID, Typmod: -1}.Name()
}

// isUnknown reports whether e is an untyped literal or parameter.
func isUnknown(e Expr) bool {
	return e.Type().OID == types.Unknown
}

// coerce converts e to t in the given context (types.CastImplicit,
// CastAssignment, CastExplicit). Unknown literals are converted now; unknown
// parameters take type t.
func (b *binder) coerce(e Expr, t types.T, ctx types.CastContext, loc int32) (Expr, error) {
	from := e.Type()
	if from == t {
		return e, nil
	}
	if types.IsReg(t.OID) && !types.IsReg(from.OID) && from.OID != types.Oid && !isIntType(from.OID) {
		return b.regCast(e, t, ctx, loc)
	}
	if types.IsReg(t.OID) && from.OID != t.OID {
		if types.IsReg(from.OID) {
			// pg_cast has no cast between two reg* types.
			if ctx == types.CastExplicit {
				return nil, b.errAt(loc, pgerr.CannotCoerce, "cannot cast type %s to %s", from.Name(), t.Name())
			}
			return nil, errMismatch
		}
		// Between OID types the number is kept (an int8 must fit: 22003);
		// the name is looked up.
		x, err := b.coerce(e, types.TOid, types.CastExplicit, loc)
		if err != nil {
			return nil, err
		}
		if x, err = b.coerce(x, types.TInt8, types.CastExplicit, loc); err != nil {
			return nil, err
		}
		return &Func{Name: RegCastFunc(t.OID), Args: []Expr{x}, T: t}, nil
	}
	switch x := e.(type) {
	case *Param:
		if from.OID == types.Unknown {
			b.noteParam(x.Idx)
			b.params[x.Idx] = t.OID
			x.T = types.T{OID: t.OID, Typmod: -1}
			if t.Typmod < 0 {
				return x, nil
			}
			return &Cast{X: x, T: t, Explicit: ctx == types.CastExplicit}, nil
		}
	case *Const:
		if from.OID == types.Unknown {
			if x.Val == nil {
				return &Const{T: t}, nil
			}
			base := types.T{OID: t.OID, Typmod: -1}
			if t.OID == types.Interval {
				// interval_in reads the literal with the typmod's
				// field range (interval '1' year is a year).
				base = t
			}
			v, err := types.ParseText(base, x.Val.(string))
			if err != nil {
				return nil, withPos(err, charPos(b.query, loc))
			}
			if t.OID == types.TimestampTZ || t.OID == types.TimeTZ || (t.OID == types.Interval && strings.Contains(x.Val.(string), "-")) ||
				(t.OID == types.Timestamp || t.OID == types.Date || t.OID == types.Time) && types.ReadsNow(x.Val.(string)) {
				// (An interval with a minus sign reads differently under
				// IntervalStyle sql_standard; 'now' and 'today' are the
				// transaction's.)
				// The value depends on the session's TimeZone: checked
				// here (for the error position), read at run time.
				return &Cast{X: x, T: t, Explicit: ctx == types.CastExplicit}, nil
			}
			if t.Typmod >= 0 {
				// Length and precision are checked after input, without
				// a position, as PostgreSQL's typmod coercion does.
				if v, err = types.Coerce(v, base, t, ctx == types.CastExplicit); err != nil {
					return nil, err
				}
			}
			return &Const{T: t, Val: v}, nil
		}
		if x.Val == nil {
			return &Const{T: t}, nil
		}
	}
	if from.OID == t.OID && t.Typmod < 0 {
		// Same type, dropping the modifier: nothing to do at run time.
		return e, nil
	}
	if from.OID != t.OID {
		cc := types.CastContextOf(from.OID, t.OID)
		if cc == types.CastNone || !castAllowed(cc, ctx) {
			if ctx == types.CastExplicit {
				return nil, b.errAt(loc, pgerr.CannotCoerce, "cannot cast type %s to %s", from.Name(), t.Name())
			}
			return nil, errMismatch
		}
	}
	if c, ok := e.(*Const); ok && from.OID != types.TimestampTZ && t.OID != types.TimestampTZ && t.OID != types.TimeTZ && !readsIntervalStyle(from, t) {
		// Fold a cast of a constant; a failing one is left for run time
		// (as is one that reads the session's TimeZone or IntervalStyle).
		if v, err := types.Coerce(c.Val, from, t, ctx == types.CastExplicit); err == nil {
			return &Const{T: t, Val: v, loc: c.loc, locSet: c.locSet}, nil
		}
	}
	return &Cast{X: e, T: t, Explicit: ctx == types.CastExplicit}, nil
}

// readsIntervalStyle reports whether a cast between from and to converts
// an interval to or from text, which IntervalStyle governs.
func readsIntervalStyle(from, to types.T) bool {
	f, t := from.OID, to.OID
	if types.IsArray(f) && types.IsArray(t) {
		f, t = types.ElemOID(f), types.ElemOID(t)
	}
	return (f == types.Interval && t != types.Interval) || (t == types.Interval && f != types.Interval)
}

var errMismatch = pgerr.New(pgerr.DatatypeMismatch, "type mismatch")

// castAllowed reports whether a cast of context have may be applied where
// want is required.
func castAllowed(have, want types.CastContext) bool {
	rank := func(c types.CastContext) int {
		switch c {
		case types.CastImplicit:
			return 3
		case types.CastAssignment:
			return 2
		case types.CastExplicit:
			return 1
		}
		return 0
	}
	return rank(have) >= rank(want)
}

// withPos sets the position of a *pgerr.Error that has none.
func withPos(err error, pos int32) error {
	if pe, ok := err.(*pgerr.Error); ok && pe.Position == 0 {
		c := *pe
		c.Position = pos
		return &c
	}
	return err
}

// assign coerces e for storing into a column of type t (INSERT/UPDATE), as
// PostgreSQL's transformAssignedExpr: without an implicit or assignment cast
// it is 42804 naming both types without modifiers, at loc (the leftmost
// location of the expression).
func (b *binder) assign(e Expr, t types.T, colName string, loc int32) (Expr, error) {
	out, err := b.coerce(e, t, types.CastAssignment, loc)
	if err == errMismatch {
		return nil, b.errAt(loc, pgerr.DatatypeMismatch, "column \"%s\" is of type %s but expression is of type %s",
			colName, baseName(t), baseName(e.Type())).WithHint("You will need to rewrite or cast the expression.")
	}
	return out, err
}

// intRank orders the integer types by width (0: not an integer).
func intRank(oid types.OID) int {
	switch oid {
	case types.Int2:
		return 1
	case types.Int4:
		return 2
	case types.Int8:
		return 3
	}
	return 0
}

// numericCommon is the result type of an arithmetic operator on two
// numeric-category types, as PostgreSQL's operator resolution picks it.
func numericCommon(a, b types.OID) types.T {
	switch {
	case a == types.Float4 && b == types.Float4:
		return types.TFloat4
	case a == types.Float8 || b == types.Float8 || a == types.Float4 || b == types.Float4:
		return types.TFloat8
	case a == types.Numeric || b == types.Numeric:
		return types.TNumeric
	}
	if intRank(a) >= intRank(b) {
		return types.T{OID: a, Typmod: -1}
	}
	return types.T{OID: b, Typmod: -1}
}

// selectCommonType is PostgreSQL's select_common_type over the operands of
// IN, CASE or COALESCE: the common type of those that are not unknown
// literals, text if all are. When two cannot be matched, ok is false and t
// and bad are the types that clash. Among string types the first one
// wins: they all convert to each other implicitly, so PostgreSQL keeps
// the type it has (varchar and text give varchar, text and varchar text).
func selectCommonType(es []Expr) (t, bad types.T, ok bool) {
	var firstString types.OID
	for _, e := range es {
		if isUnknown(e) {
			continue
		}
		if firstString == 0 && e.Type().Category() == 'S' {
			firstString = e.Type().OID
		}
		if t.OID == 0 {
			t = types.T{OID: e.Type().OID, Typmod: -1}
			continue
		}
		c, ok := commonType(t, e.Type())
		if !ok {
			return t, e.Type(), false
		}
		t = c
	}
	if t.OID == 0 {
		t = types.TText
	}
	if t.OID == types.Text && firstString != 0 {
		t = types.T{OID: firstString, Typmod: -1}
	}
	return t, types.T{}, true
}

// commonType picks the type two operands of a comparison are compared in;
// ok is false when their categories differ.
func commonType(l, r types.T) (types.T, bool) {
	lc, rc := l.Category(), r.Category()
	switch {
	case l.OID == r.OID:
		return types.T{OID: l.OID, Typmod: -1}, true
	case isOIDType(l.OID) || isOIDType(r.OID):
		// oid and the reg* types compare as oid, with integers too.
		if (isOIDType(l.OID) || isIntType(l.OID)) && (isOIDType(r.OID) || isIntType(r.OID)) {
			return types.TOid, true
		}
		return types.T{}, false
	case lc == 'A' && rc == 'A':
		// Arrays meet in their elements' common type (int4[] and
		// numeric[] in numeric[]).
		e, ok := commonType(types.ElemType(l), types.ElemType(r))
		if !ok || types.ArrayOID(e.OID) == 0 {
			return types.T{}, false
		}
		return types.T{OID: types.ArrayOID(e.OID), Typmod: -1}, true
	case lc == 'N' && rc == 'N':
		return numericCommon(l.OID, r.OID), true
	case lc == 'S' && rc == 'S':
		return types.TText, true
	case l.OID == types.Time || l.OID == types.TimeTZ || r.OID == types.Time || r.OID == types.TimeTZ:
		// time converts implicitly to timetz only; no other date/time
		// type meets them.
		if (l.OID == types.Time || l.OID == types.TimeTZ) && (r.OID == types.Time || r.OID == types.TimeTZ) {
			return types.TTimeTZ, true
		}
		return types.T{}, false
	case lc == 'D' && rc == 'D':
		if l.OID == types.TimestampTZ || r.OID == types.TimestampTZ {
			return types.TTimestampTZ, true
		}
		return types.TTimestamp, true
	}
	return types.T{}, false
}

// castTo wraps e in an implicit cast to t unless it already has type t (or
// both are integers and the comparison can use int64 directly).
func (b *binder) castTo(e Expr, t types.T, loc int32) (Expr, error) {
	if e.Type().OID == t.OID {
		return e, nil
	}
	if intRank(e.Type().OID) > 0 && intRank(t.OID) > 0 {
		return e, nil
	}
	return b.coerce(e, t, types.CastImplicit, loc)
}

// requireBool is coerce_to_boolean: the argument of clause must be boolean
// (an unknown literal is converted).
func (b *binder) requireBool(x Expr, clause string, loc int32) (Expr, error) {
	if isUnknown(x) {
		return b.coerce(x, types.TBool, types.CastImplicit, loc)
	}
	if x.Type().OID != types.Bool {
		return nil, b.errAt(loc, pgerr.DatatypeMismatch, "argument of %s must be type boolean, not type %s", clause, x.Type().Name())
	}
	return x, nil
}

// typeName resolves a type name with its modifiers (varchar(10),
// numeric(12,2), ...).
func (b *binder) typeName(tn *pg_query.TypeName) (types.T, error) {
	if tn == nil || len(tn.Names) == 0 {
		return types.T{}, pgerr.New(pgerr.SyntaxError, "missing type name")
	}
	name := tn.Names[len(tn.Names)-1].GetString_().GetSval()
	var mods []int32
	for _, m := range tn.Typmods {
		c := m.GetAConst()
		if c == nil || c.GetIval() == nil {
			if c != nil && c.GetVal() == nil {
				mods = append(mods, 0)
				continue
			}
			return types.T{}, b.errAt(tn.Location, pgerr.SyntaxError, "type modifiers must be simple constants or identifiers")
		}
		mods = append(mods, c.GetIval().Ival)
	}
	var t types.T
	var err error
	if name == "char" {
		// The grammar turns CHAR into pg_catalog.bpchar: a bare "char"
		// was quoted, and is the one-byte "char".
		if len(mods) > 0 {
			return types.T{}, b.errAt(tn.Location, pgerr.SyntaxError, "type modifier is not allowed for type \"char\"")
		}
		t = types.TChar
	} else if t, err = types.TypeByName(name, mods); err != nil {
		return types.T{}, withPos(err, charPos(b.query, tn.Location))
	}
	if len(tn.ArrayBounds) > 0 {
		return b.arrayTypeName(tn, t)
	}
	return t, nil
}

// checkDefault binds a column's DEFAULT expression where CREATE TABLE
// writes it, as PostgreSQL's cookDefault: errors point into the statement,
// and without an assignment cast to the column's type (its length or
// precision is enforced only when the default is used) it is 42804.
func (b *binder) checkDefault(raw *pg_query.Node, t types.T, colName string) error {
	savedSc, savedAgg, savedErr, savedSub := b.sc, b.agg, b.aggErr, b.noSubquery
	defer func() { b.sc, b.agg, b.aggErr, b.noSubquery = savedSc, savedAgg, savedErr, savedSub }()
	b.sc, b.agg, b.aggErr, b.noSubquery = nil, nil, "DEFAULT expressions", "DEFAULT expression"
	e, err := b.expr(raw)
	if err != nil {
		return err
	}
	_, err = b.coerce(e, types.T{OID: t.OID, Typmod: -1}, types.CastAssignment, exprLocation(raw))
	if err == errMismatch {
		return pgerr.New(pgerr.DatatypeMismatch, "column \"%s\" is of type %s but default expression is of type %s",
			colName, baseName(t), baseName(e.Type())).WithHint("You will need to rewrite or cast the expression.")
	}
	return err
}

// typeCast binds CAST(x AS t) and x::t, an explicit coercion.
func (b *binder) typeCast(tc *pg_query.TypeCast) (Expr, error) {
	t, err := b.typeName(tc.TypeName)
	if err != nil {
		return nil, err
	}
	if ae := tc.Arg.GetAArrayExpr(); ae != nil && types.IsArray(t.OID) {
		et := types.ElemType(t)
		x, err := b.arrayExpr(ae, &et)
		if err != nil {
			return nil, err
		}
		return b.coerce(x, t, types.CastExplicit, tc.Location)
	}
	x, err := b.expr(tc.Arg)
	if err != nil {
		return nil, err
	}
	loc := tc.Location
	if c := tc.Arg.GetAConst(); c != nil && isUnknown(x) {
		// A bad literal is reported at the literal, as coerce_type does.
		loc = c.Location
	}
	return b.coerce(x, t, types.CastExplicit, loc)
}

func isIntType(oid types.OID) bool {
	return oid == types.Int2 || oid == types.Int4 || oid == types.Int8
}

// RegCastFunc names the function the executor registers to make a value
// of the OID alias type oid (regclass, ...) from a name (text) or a number
// (int8): the name lookup needs the catalog.
func RegCastFunc(oid types.OID) string { return "pg_catalog." + types.TypName(oid) + "_in" }

// regCast converts a string (a name, as the reg* input functions read
// it) to an OID alias type.
func (b *binder) regCast(e Expr, t types.T, ctx types.CastContext, loc int32) (Expr, error) {
	if !isUnknown(e) && e.Type().Category() != 'S' {
		return nil, b.errAt(loc, pgerr.CannotCoerce, "cannot cast type %s to %s", e.Type().Name(), t.Name())
	}
	if !isUnknown(e) && !types.CastContextOf(e.Type().OID, t.OID).Allows(ctx) {
		// Only text and varchar -> regclass are implicit (pg_cast).
		return nil, errMismatch
	}
	name := RegCastFunc(t.OID)
	if t.OID == types.RegClass && (e.Type().OID == types.Text || e.Type().OID == types.Varchar) {
		// regclass(text) reads a name only, where regclassin also
		// takes a number.
		name = RegClassTextFunc
	}
	x, err := b.coerce(e, types.TText, types.CastExplicit, loc)
	if err != nil {
		return nil, err
	}
	return &Func{Name: name, Args: []Expr{x}, T: t}, nil
}

// RegClassTextFunc is the function of the cast from text or varchar to
// regclass: a relation name, never a number.
const RegClassTextFunc = "pg_catalog.text_regclass"

func isOIDType(oid types.OID) bool { return oid == types.Oid || types.IsReg(oid) }
