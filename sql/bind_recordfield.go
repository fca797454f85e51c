package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"minipg/pgerr"
)

// Field selection from a table function's record in the select list:
// (page_header(get_raw_page('t', 0))).lower, or .* for all its columns.
// PostgreSQL evaluates the call for each row of FROM (a set-returning
// function giving one row per row it returns). minipg has records only in
// FROM, so liftRecordFields moves the call there, as a LATERAL item after
// the others, and selects its columns: the same rows for a query that
// neither groups, aggregates nor uses DISTINCT, and whose select list
// calls one such function (repeating the same call is one call, as
// PostgreSQL runs identical set-returning calls in step). Other queries
// keep the table function's error.

// liftRecordFields returns s with its select-list items (f(...)).col and
// (f(...)).* rewritten to read a lateral call of f, or s itself when there
// is nothing to rewrite or the query is not of the form above.
func (b *binder) liftRecordFields(s *pg_query.SelectStmt) (*pg_query.SelectStmt, error) {
	type field struct {
		i    int // in the target list
		name string
		loc  int32 // the call's
	}
	var call *pg_query.FuncCall
	var key string
	var fields []field
	for i, tn := range s.TargetList {
		fc, name, ok := b.recordField(tn.GetResTarget().GetVal())
		if !ok {
			continue
		}
		k := callKey(fc)
		if call != nil && k != key {
			return s, nil // two different calls: PostgreSQL runs them in step
		}
		call, key = fc, k
		fields = append(fields, field{i, name, fc.Location})
	}
	if call == nil || len(s.GroupClause) > 0 || s.HavingClause != nil || len(s.DistinctClause) > 0 ||
		len(s.WindowClause) > 0 || callsAggregate(s.TargetList) || callsAggregate(s.SortClause) {
		return s, nil
	}
	out := proto.Clone(s).(*pg_query.SelectStmt)
	const alias = "?record?"
	for _, f := range fields {
		rt := out.TargetList[f.i].GetResTarget()
		col := pg_query.MakeAStarNode()
		if f.name != "" {
			// Checked here, against every overload of the function, so
			// that a wrong name is reported as PostgreSQL reports it.
			if !tableFuncHasColumn(opName(call.Funcname), f.name) {
				return nil, b.errAt(f.loc, pgerr.UndefinedColumn, "could not identify column \"%s\" in record data type", f.name)
			}
			col = pg_query.MakeStrNode(f.name)
		}
		rt.Val = pg_query.MakeColumnRefNode([]*pg_query.Node{pg_query.MakeStrNode(alias), col}, f.loc)
	}
	rf := &pg_query.RangeFunction{Lateral: true, Alias: &pg_query.Alias{Aliasname: alias},
		Functions: []*pg_query.Node{pg_query.MakeListNode([]*pg_query.Node{{Node: &pg_query.Node_FuncCall{FuncCall: proto.Clone(call).(*pg_query.FuncCall)}}, nil})}}
	out.FromClause = append(out.FromClause, &pg_query.Node{Node: &pg_query.Node_RangeFunction{RangeFunction: rf}})
	return out, nil
}

// recordField reports whether n is (f(...)).field or (f(...)).* with f a
// table function visible here; field is "" for *.
func (b *binder) recordField(n *pg_query.Node) (fc *pg_query.FuncCall, field string, ok bool) {
	ind := n.GetAIndirection()
	if ind == nil || len(ind.Indirection) != 1 {
		return nil, "", false
	}
	fc = ind.Arg.GetFuncCall()
	if fc == nil || fc.Over != nil || fc.AggStar || fc.AggDistinct || len(fc.AggOrder) > 0 || fc.AggFilter != nil {
		return nil, "", false
	}
	if len(fc.Funcname) == 2 && fc.Funcname[0].GetString_().GetSval() != "pg_catalog" {
		return nil, "", false
	}
	visible := false
	for _, f := range lookupTableFuncs(opName(fc.Funcname)) {
		visible = visible || b.extensionInstalled(f.Extension)
	}
	if !visible {
		return nil, "", false
	}
	switch i := ind.Indirection[0]; {
	case i.GetAStar() != nil:
		return fc, "", true
	case i.GetString_() != nil:
		return fc, i.GetString_().Sval, true
	}
	return nil, "", false
}

// tableFuncHasColumn reports whether an overload of table function name
// has a column called col.
func tableFuncHasColumn(name, col string) bool {
	for _, f := range lookupTableFuncs(name) {
		for _, c := range f.Cols {
			if c.Name == col {
				return true
			}
		}
	}
	return false
}

// callKey identifies a call by its parse tree without locations.
func callKey(fc *pg_query.FuncCall) string {
	c := proto.Clone(fc)
	walkMessages(c.ProtoReflect(), func(m protoreflect.Message) bool {
		if fd := m.Descriptor().Fields().ByName("location"); fd != nil && fd.Kind() == protoreflect.Int32Kind {
			m.Clear(fd)
		}
		return true
	})
	b, _ := proto.MarshalOptions{Deterministic: true}.Marshal(c)
	return string(b)
}

// callsAggregate reports whether a function call under ns, outside a
// subquery, is an aggregate (or a window function): the query then
// groups.
func callsAggregate(ns []*pg_query.Node) bool {
	found := false
	for _, n := range ns {
		if n == nil {
			continue
		}
		walkMessages(n.ProtoReflect(), func(m protoreflect.Message) bool {
			switch x := m.Interface().(type) {
			case *pg_query.SubLink:
				return false // a subquery's aggregates are its own
			case *pg_query.FuncCall:
				name := opName(x.Funcname)
				found = found || aggNames[name] || orderedSetAggs[name] || x.AggStar || x.Over != nil || x.AggWithinGroup
			}
			return !found
		})
	}
	return found
}

// walkMessages calls fn on m and, while fn returns true for a message, on
// each message below it.
func walkMessages(m protoreflect.Message, fn func(protoreflect.Message) bool) {
	if !fn(m) {
		return
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				walkMessages(l.Get(i).Message(), fn)
			}
		case fd.Message() != nil && !fd.IsMap():
			walkMessages(v.Message(), fn)
		}
		return true
	})
}
