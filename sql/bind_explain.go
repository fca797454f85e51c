package sql

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/pgerr"
	"minipg/types"
)

// Explain is a bound EXPLAIN of Stmt (a SELECT, INSERT, UPDATE, DELETE or
// CREATE TABLE AS / SELECT INTO).
// minipg has no cost model: the plan it prints has no cost estimates,
// whatever COSTS says.
type Explain struct {
	Stmt    Stmt
	Analyze bool
	Verbose bool
	Buffers bool
	Timing  bool // with Analyze
	Summary bool
}

func (b *binder) explainStmt(s *pg_query.ExplainStmt) (*Explain, []ResultCol, error) {
	e := &Explain{}
	timingSet, summarySet := false, false
	for _, o := range s.Options {
		d := o.GetDefElem()
		if d == nil {
			continue
		}
		name := strings.ToLower(d.Defname)
		if name == "format" {
			f := strings.ToLower(defString(d))
			switch f {
			case "text":
			case "xml", "json", "yaml":
				return nil, nil, pgerr.Unimplemented("EXPLAIN (FORMAT " + strings.ToUpper(f) + ")")
			default:
				return nil, nil, b.errAt(d.Location, pgerr.InvalidParameterValue,
					"unrecognized value for EXPLAIN option \"format\": \"%s\"", defString(d))
			}
			continue
		}
		v, ok := defBool(d)
		switch name {
		case "analyze", "verbose", "costs", "buffers", "timing", "summary", "settings", "wal":
		default:
			return nil, nil, b.errAt(d.Location, pgerr.SyntaxError, "unrecognized EXPLAIN option \"%s\"", d.Defname)
		}
		if !ok {
			return nil, nil, pgerr.New(pgerr.SyntaxError, "%s requires a Boolean value", d.Defname)
		}
		switch name {
		case "analyze":
			e.Analyze = v
		case "verbose":
			e.Verbose = v
		case "buffers":
			e.Buffers = v
		case "timing":
			e.Timing, timingSet = v, true
		case "summary":
			e.Summary, summarySet = v, true
		}
	}
	if timingSet && e.Timing && !e.Analyze {
		return nil, nil, pgerr.New(pgerr.InvalidParameterValue, "EXPLAIN option TIMING requires ANALYZE")
	}
	if !timingSet {
		e.Timing = e.Analyze
	}
	if !summarySet {
		e.Summary = e.Analyze
	}
	q := s.Query
	switch {
	case q.GetSelectStmt() != nil, q.GetInsertStmt() != nil, q.GetCreateTableAsStmt() != nil, q.GetUpdateStmt() != nil, q.GetDeleteStmt() != nil,
		q.GetMergeStmt() != nil, q.GetExecuteStmt() != nil:
	default:
		return nil, nil, pgerr.Unimplemented("EXPLAIN of " + commandName(q))
	}
	st, _, err := b.stmt(q)
	if err != nil {
		return nil, nil, err
	}
	e.Stmt = st
	return e, []ResultCol{{Name: "QUERY PLAN", T: types.TText}}, nil
}

func (*Explain) stmt() {}

// defBool is defGetBoolean: no argument, true/false/on/off, or 1/0.
func defBool(d *pg_query.DefElem) (v, ok bool) {
	if d.Arg == nil {
		return true, true
	}
	if i := d.Arg.GetInteger(); i != nil {
		switch i.Ival {
		case 0:
			return false, true
		case 1:
			return true, true
		}
		return false, false
	}
	if bv := d.Arg.GetBoolean(); bv != nil {
		return bv.Boolval, true
	}
	switch strings.ToLower(defString(d)) {
	case "true", "on":
		return true, true
	case "false", "off":
		return false, true
	}
	return false, false
}

func defString(d *pg_query.DefElem) string {
	if d.Arg == nil {
		return ""
	}
	if s := d.Arg.GetString_(); s != nil {
		return s.Sval
	}
	if i := d.Arg.GetInteger(); i != nil {
		return strconv.Itoa(int(i.Ival))
	}
	return ""
}
