package executor

// The expressions of EXPLAIN's output, written as PostgreSQL's ruleutils
// writes them.

import (
	"fmt"
	"strings"

	"minipg/sql"
	"minipg/types"
)

// deparse prints an expression as PostgreSQL's EXPLAIN does (ruleutils):
// operators in parentheses, constants with their type, columns by name.
func (e *explainer) deparse(x sql.Expr) string {
	switch x := x.(type) {
	case nil:
		return ""
	case *sql.ColRef:
		return x.Name
	case *sql.OuterRef:
		return x.Name
	case *sql.Param:
		// A plan for the values at hand (PostgreSQL's custom plan) shows them.
		if e.x != nil && e.x.ev != nil && x.Idx < len(e.x.ev.params) {
			return e.deparseValue(&sql.Const{Val: e.x.ev.params[x.Idx], T: x.T})
		}
		return fmt.Sprintf("$%d", x.Idx+1)
	case *sql.Const:
		return e.deparseValue(x)
	case *sql.Cmp:
		return "(" + e.deparse(x.L) + " " + x.Op + " " + e.deparse(x.R) + ")"
	case *sql.BoolOp:
		if x.Op == "NOT" && len(x.Args) == 1 {
			return "(NOT " + e.deparse(x.Args[0]) + ")"
		}
		parts := make([]string, len(x.Args))
		for i, a := range x.Args {
			parts[i] = e.deparse(a)
		}
		return "(" + strings.Join(parts, " "+x.Op+" ") + ")"
	case *sql.Arith:
		return "(" + e.deparse(x.L) + " " + string(x.Op) + " " + e.deparse(x.R) + ")"
	case *sql.Neg:
		return "(- " + e.deparse(x.X) + ")"
	case *sql.Concat:
		return "(" + e.deparse(x.L) + " || " + e.deparse(x.R) + ")"
	case *sql.IsNull:
		if x.Not {
			return "(" + e.deparse(x.X) + " IS NOT NULL)"
		}
		return "(" + e.deparse(x.X) + " IS NULL)"
	case *sql.InList:
		vals := make([]string, len(x.List))
		allConst := true
		for i, v := range x.List {
			c, ok := v.(*sql.Const)
			if !ok || c.Val == nil {
				allConst = false
				break
			}
			vals[i] = types.FormatText(c.T, c.Val)
		}
		op := "= ANY"
		if x.Not {
			op = "<> ALL"
		}
		if allConst {
			return fmt.Sprintf("(%s %s ('{%s}'::%s[]))", e.deparse(x.X), op, strings.Join(vals, ","), x.CT.Name())
		}
		for i, v := range x.List {
			vals[i] = e.deparse(v)
		}
		return fmt.Sprintf("(%s %s (ARRAY[%s]))", e.deparse(x.X), op, strings.Join(vals, ", "))
	case *sql.Like:
		op := "~~"
		if x.Fold {
			op = "~~*"
		}
		if x.Not {
			op = "!" + op
		}
		return "(" + e.deparse(x.X) + " " + op + " " + e.deparse(x.Pattern) + ")"
	case *sql.Cast:
		if c, ok := x.X.(*sql.Const); ok && c.Val != nil {
			return "'" + strings.ReplaceAll(types.FormatText(x.T, c.Val), "'", "''") + "'::" + x.T.Name()
		}
		return "(" + e.deparse(x.X) + ")::" + x.T.Name()
	case *sql.Func:
		if x.SysColumn {
			return x.Name
		}
		args := make([]string, len(x.Args))
		for i, a := range x.Args {
			args[i] = e.deparse(a)
		}
		if x.Op != "" && len(args) == 2 {
			return "(" + args[0] + " " + x.Op + " " + args[1] + ")"
		}
		return x.Name + "(" + strings.Join(args, ", ") + ")"
	case *sql.GroupingFunc:
		args := make([]string, len(x.Args))
		for i, a := range x.Args {
			args[i] = e.deparse(a)
		}
		return "GROUPING(" + strings.Join(args, ", ") + ")"
	case *sql.Coalesce:
		args := make([]string, len(x.Args))
		for i, a := range x.Args {
			args[i] = e.deparse(a)
		}
		name := map[byte]string{0: "COALESCE", '>': "GREATEST", '<': "LEAST"}[x.MinMax]
		return name + "(" + strings.Join(args, ", ") + ")"
	case *sql.Case:
		var b strings.Builder
		b.WriteString("CASE")
		for i, w := range x.Whens {
			b.WriteString(" WHEN " + e.deparse(w) + " THEN " + e.deparse(x.Results[i]))
		}
		if x.Else != nil {
			b.WriteString(" ELSE " + e.deparse(x.Else))
		}
		b.WriteString(" END")
		return b.String()
	case *sql.SubPlan:
		n := e.subNo[x]
		switch {
		case (x.Kind == "in" || x.Kind == "rowin") && !x.Correlated:
			s := fmt.Sprintf("(hashed SubPlan %d)", n)
			if x.Not {
				return "(NOT " + s + ")"
			}
			return s
		case x.Kind == "scalar" && !x.Correlated:
			return fmt.Sprintf("$%d", n-1)
		case x.Kind == "exists" && x.Not:
			return fmt.Sprintf("(NOT (SubPlan %d))", n)
		}
		return fmt.Sprintf("(SubPlan %d)", n)
	}
	return fmt.Sprintf("%T", x)
}

// deparseValue prints a constant: numbers bare (negative ones quoted with
// their type), everything else quoted with its type, NULL typed.
func (e *explainer) deparseValue(x sql.Expr) string {
	c, ok := x.(*sql.Const)
	if !ok {
		return e.deparse(x)
	}
	if name, ok := c.Val.(outerName); ok {
		return string(name)
	}
	if c.Val == nil {
		return "NULL::" + c.T.Name()
	}
	text := types.FormatText(c.T, c.Val)
	switch c.T.OID {
	case types.Int4, types.Numeric:
		if !strings.HasPrefix(text, "-") && text != "NaN" {
			return text
		}
	case types.Bool:
		if c.Val == true {
			return "true"
		}
		return "false"
	}
	return "'" + strings.ReplaceAll(text, "'", "''") + "'::" + c.T.Name()
}
