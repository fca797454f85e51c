package sql

import (
	"sync"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/pgerr"
	"minipg/types"
)

// JSON operators and the calls that take a row: the operators of json
// and jsonb (-> ->> #> #>> @> <@ ? ?| ?& || - #-) are overloads registered
// by the executor (RegisterOperator), resolved among themselves as
// PostgreSQL's oper_select_candidate does; json has no comparison
// operators (42883, as PostgreSQL says); row_to_json, to_json, to_jsonb,
// json_agg and jsonb_agg take a whole-row reference (t for a FROM item t)
// or a ROW(...) constructor, which minipg has no record type for: the
// call is bound over the row's fields and their names.

// RecordOID is the pseudo-type record, for pg_proc's listing of the
// functions that take a row.
const RecordOID types.OID = 2249

var operators struct {
	sync.RWMutex
	byName map[string][]*Builtin
}

// RegisterOperator adds an overload of a binary operator implemented by
// f (f.Name is the function behind it, as pg_operator.oprcode names it).
func RegisterOperator(op string, f Builtin) {
	operators.Lock()
	defer operators.Unlock()
	if operators.byName == nil {
		operators.byName = map[string][]*Builtin{}
	}
	operators.byName[op] = append(operators.byName[op], &f)
}

func lookupOperators(op string) []*Builtin {
	operators.RLock()
	defer operators.RUnlock()
	return operators.byName[op]
}

var recordFuncs struct {
	sync.RWMutex
	byName map[string]*Builtin
}

// RegisterRecordFunction registers the function that computes name (one
// of row_to_json, to_jsonb) over a row: its arguments are a text[] of the
// field names and then the fields.
func RegisterRecordFunction(name string, f Builtin) {
	recordFuncs.Lock()
	defer recordFuncs.Unlock()
	if recordFuncs.byName == nil {
		recordFuncs.byName = map[string]*Builtin{}
	}
	recordFuncs.byName[name] = &f
}

func lookupRecordFunction(name string) *Builtin {
	recordFuncs.RLock()
	defer recordFuncs.RUnlock()
	return recordFuncs.byName[name]
}

func isJSONType(t types.T) bool { return t.OID == types.JSON || t.OID == types.JSONB }

// jsonOperator binds op over json or jsonb operands: ok is false when op
// is none of theirs for these operands (then the ordinary operators
// apply: text's || and the arithmetic -).
func (b *binder) jsonOperator(op string, l, r Expr, loc int32) (e Expr, ok bool, err error) {
	all := lookupOperators(op)
	if len(all) == 0 {
		return nil, false, nil
	}
	lt, rt := l.Type(), r.Type()
	switch op {
	case "||", "-":
		if lt.OID != types.JSONB && rt.OID != types.JSONB {
			return nil, false, nil
		}
	default:
		if !isJSONType(lt) && !isJSONType(rt) {
			return nil, false, nil
		}
	}
	c := &call{b: b, fc: &pg_query.FuncCall{Location: loc}, name: op, args: []Expr{l, r}, argTypes: []types.T{lt, rt}}
	e, _, err = c.resolveAmong(all)
	if pe, isPG := err.(*pgerr.Error); isPG && (pe.Code == pgerr.UndefinedFunction || pe.Code == pgerr.AmbiguousFunction) {
		if op == "||" || op == "-" {
			return nil, false, nil
		}
		return nil, true, b.opError(loc, op, lt, rt)
	}
	if f, isFunc := e.(*Func); isFunc {
		f.Name, f.Op = f.Builtin.Name, op
	}
	return e, true, err
}

// recordArg returns the fields of n and their names when n is a row: a
// ROW(...) constructor (fields f1, f2, ...) or a reference to a FROM item
// by its alias where no column has that name.
func (b *binder) recordArg(n *pg_query.Node) (names []string, fields []Expr, ok bool, err error) {
	if r := n.GetRowExpr(); r != nil {
		for i, a := range r.Args {
			x, err := b.expr(a)
			if err != nil {
				return nil, nil, true, err
			}
			if isUnknown(x) {
				if x, err = b.coerce(x, types.TText, types.CastImplicit, exprLocation(a)); err != nil {
					return nil, nil, true, err
				}
			}
			names = append(names, "f"+itoa(i+1))
			fields = append(fields, x)
		}
		return names, fields, true, nil
	}
	cr := n.GetColumnRef()
	if cr == nil || len(cr.Fields) != 1 || cr.Fields[0].GetString_() == nil || b.sc == nil {
		return nil, nil, false, nil
	}
	name := cr.Fields[0].GetString_().GetSval()
	for _, c := range b.sc.exposed {
		if c.name == name {
			return nil, nil, false, nil
		}
	}
	for _, st := range b.sc.tables {
		if st.alias != name {
			continue
		}
		for _, col := range st.cols {
			ref := &pg_query.Node{Node: &pg_query.Node_ColumnRef{ColumnRef: &pg_query.ColumnRef{
				Fields:   []*pg_query.Node{pg_query.MakeStrNode(name), pg_query.MakeStrNode(col.name)},
				Location: cr.Location}}}
			x, err := b.expr(ref)
			if err != nil {
				return nil, nil, true, err
			}
			// A table's row is its composite type, whose fields keep
			// the column names whatever the alias's column list says
			// (a subquery's row takes the alias's names).
			field := col.name
			if st.table != nil && col.attnum > 0 && int(col.attnum) <= len(st.table.Columns) {
				field = st.table.Columns[col.attnum-1].Name
			}
			names = append(names, field)
			fields = append(fields, x)
		}
		return names, fields, true, nil
	}
	return nil, nil, false, nil
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// rowFunc is the call of the record function fn (row_to_json or
// to_jsonb) over a row's fields; extra are further arguments (pretty).
func rowFunc(fn string, names []string, fields []Expr, extra []Expr) (*Func, error) {
	f := lookupRecordFunction(fn)
	if f == nil {
		return nil, pgerr.New(pgerr.InternalError, "record function %s is not registered", fn)
	}
	elems := make([]types.Datum, len(names))
	for i, n := range names {
		elems[i] = n
	}
	args := append([]Expr{&Const{T: types.ArrayOf(types.TText), Val: types.NewArray(elems)}}, fields...)
	args = append(args, extra...)
	return &Func{Name: fn, Args: args, T: types.T{OID: f.Result, Typmod: -1}, Builtin: f}, nil
}

// IsRowJSON reports whether e is the JSON of a row made by rowFunc (whose
// elements json_agg separates with a line break, as PostgreSQL's
// composite values).
func IsRowJSON(e Expr) bool {
	f, ok := e.(*Func)
	return ok && f.Builtin != nil && f.Builtin == lookupRecordFunction("row_to_json")
}

// jsonRecordCall binds row_to_json(row [, pretty]), to_json(row) and
// to_jsonb(row); found is false when the call takes no row.
func (b *binder) jsonRecordCall(name string, fc *pg_query.FuncCall) (e Expr, found bool, err error) {
	switch name {
	case "row_to_json", "to_json", "to_jsonb":
	default:
		return nil, false, nil
	}
	if len(fc.Args) == 0 || fc.AggStar || fc.AggDistinct || len(fc.AggOrder) > 0 || fc.AggFilter != nil || fc.Over != nil {
		return nil, false, nil
	}
	names, fields, ok, err := b.recordArg(fc.Args[0])
	if !ok || err != nil {
		return nil, ok, err
	}
	var extra []Expr
	if name == "row_to_json" && len(fc.Args) == 2 {
		x, err := b.expr(fc.Args[1])
		if err != nil {
			return nil, true, err
		}
		if x, err = b.coerce(x, types.TBool, types.CastImplicit, exprLocation(fc.Args[1])); err != nil {
			return nil, true, err
		}
		extra = append(extra, x)
	} else if len(fc.Args) != 1 {
		return nil, false, nil
	}
	fn := "row_to_json"
	if name == "to_jsonb" {
		fn = "to_jsonb"
	}
	f, err := rowFunc(fn, names, fields, extra)
	return f, true, err
}

// jsonAggRecordArg binds the argument of json_agg(row) and jsonb_agg(row)
// as the row's JSON; ok is false when the argument is no row.
func (b *binder) jsonAggRecordArg(name string, n *pg_query.Node) (Expr, bool, error) {
	if name != "json_agg" && name != "jsonb_agg" {
		return nil, false, nil
	}
	names, fields, ok, err := b.recordArg(n)
	if !ok || err != nil {
		return nil, ok, err
	}
	fn := "row_to_json"
	if name == "jsonb_agg" {
		fn = "to_jsonb"
	}
	f, err := rowFunc(fn, names, fields, nil)
	return f, true, err
}

// jsonUnknownArg is PostgreSQL's error for to_json and to_jsonb of an
// untyped literal.
func (c *call) jsonUnknownArg() error {
	switch c.name {
	case "to_json", "to_jsonb", "json_agg", "jsonb_agg":
		if len(c.args) == 1 && isUnknown(c.args[0]) {
			return pgerr.New(pgerr.DatatypeMismatch, "could not determine polymorphic type because input has type unknown")
		}
	}
	return nil
}

// jsonSRF binds the set-returning functions of json and jsonb that return
// one column: json[b]_array_elements[_text] (column "value") and
// json[b]_object_keys.
func (c *call) jsonSRF() (Expr, bool, error) {
	var in, out types.T
	col := ""
	switch c.name {
	case "json_array_elements":
		in, out, col = types.TJSON, types.TJSON, "value"
	case "jsonb_array_elements":
		in, out, col = types.TJSONB, types.TJSONB, "value"
	case "json_array_elements_text":
		in, out, col = types.TJSON, types.TText, "value"
	case "jsonb_array_elements_text":
		in, out, col = types.TJSONB, types.TText, "value"
	case "json_object_keys":
		in, out = types.TJSON, types.TText
	case "jsonb_object_keys":
		in, out = types.TJSONB, types.TText
	default:
		return nil, false, nil
	}
	if err := c.srfAllowed(); err != nil {
		return nil, true, err
	}
	if len(c.args) != 1 {
		return nil, true, c.undefined()
	}
	if err := c.coerceArg(0, in); err != nil {
		return nil, true, err
	}
	return &SRFCall{Name: c.name, Args: c.args, T: out, OutName: col}, true, nil
}

// jsonbSubscript binds j[a][b]... as PostgreSQL 14's jsonb subscripting
// reads it: each subscript converts to integer or text (an untyped literal
// is text) and the value is j #> the subscripts as text.
func (b *binder) jsonbSubscript(x Expr, subs []*pg_query.A_Indices) (Expr, error) {
	args := []Expr{x}
	for _, s := range subs {
		if s.IsSlice {
			loc := int32(-1)
			if s.Uidx != nil {
				loc = exprLocation(s.Uidx)
			} else if s.Lidx != nil {
				loc = exprLocation(s.Lidx)
			}
			return nil, b.errAt(loc, pgerr.DatatypeMismatch, "jsonb subscript does not support slices")
		}
		e, err := b.expr(s.Uidx)
		if err != nil {
			return nil, err
		}
		loc := exprLocation(s.Uidx)
		if !isUnknown(e) {
			switch {
			case types.CastContextOf(e.Type().OID, types.Int4).Allows(types.CastImplicit):
				if e, err = b.coerce(e, types.TInt4, types.CastImplicit, loc); err != nil {
					return nil, err
				}
			case !types.CastContextOf(e.Type().OID, types.Text).Allows(types.CastImplicit):
				return nil, b.errAt(loc, pgerr.DatatypeMismatch, "subscript type %s is not supported", baseName(e.Type())).
					WithHint("jsonb subscript must be coercible to either integer or text.")
			}
		}
		if e, err = b.coerce(e, types.TText, types.CastAssignment, loc); err != nil {
			return nil, err
		}
		args = append(args, e)
	}
	for _, f := range LookupBuiltins("jsonb_extract_path") {
		if f.Variadic {
			return &Func{Name: f.Name, Args: args, T: types.TJSONB, Builtin: f}, nil
		}
	}
	return nil, pgerr.New(pgerr.InternalError, "jsonb_extract_path is not registered")
}
