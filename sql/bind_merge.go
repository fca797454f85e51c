package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/types"
)

// MERGE (PostgreSQL 15): the source is joined to the target table by the
// ON condition, as a FROM clause "source LEFT JOIN target ON cond" (an
// inner join when no WHEN NOT MATCHED clause needs the unmatched source
// rows), bound by SELECT's own FROM code. Each WHEN MATCHED clause reads
// the joined row; each WHEN NOT MATCHED clause reads the source's columns
// only, and a reference to the target there gets PostgreSQL's errors
// (b.hidden). UPDATE's SET list and INSERT's column and value lists are
// bound as UPDATE's and INSERT's are.

// MergeKind is the action of a WHEN clause.
type MergeKind uint8

const (
	MergeNothing MergeKind = iota // DO NOTHING
	MergeUpdate
	MergeDelete
	MergeInsert
)

// MergeAction is one WHEN clause of MERGE.
type MergeAction struct {
	Matched bool
	Kind    MergeKind
	// Cond is the clause's AND condition, over the joined row (nil: none).
	Cond Expr
	// Set and Multi are an UPDATE's, as Update's, over the joined row.
	Set   []SetItem
	Multi []*SubPlan
	// Insert holds an INSERT's columns and its one row of values, over the
	// joined row (the target's slots NULL), and the table's defaults.
	Insert *Insert
}

// Merge is a bound MERGE. Source is the join of the source and the target
// table, which is its item Target; On is the join condition over the
// joined row, for the recheck of a row another transaction changed.
type Merge struct {
	Table   *catalog.Table
	Alias   string // the target's alias, "" for none
	Source  *Select
	Target  int
	On      Expr
	Actions []MergeAction
}

// TargetBase is the slot of the target table's first column in the joined
// row.
func (m *Merge) TargetBase() int { return m.Source.From[m.Target].Base }

func (*Merge) stmt() {}

func (b *binder) mergeStmt(s *pg_query.MergeStmt) (*Merge, error) {
	rv := s.Relation
	if v, ok := b.view(rv); ok {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot execute MERGE on relation \"%s\"", v.Name).
			WithDetail("This operation is not supported for views.")
	}
	t, err := b.table(rv)
	if err != nil {
		return nil, err
	}
	alias := t.Name
	if rv.Alias != nil && rv.Alias.Aliasname != "" {
		alias = rv.Alias.Aliasname
	}
	if name, ok := fromItemName(s.SourceRelation); ok && name == alias {
		return nil, pgerr.New(pgerr.Code("42712"), "name \"%s\" specified more than once", alias).
			WithDetail("The name is used both as MERGE target table and data source.")
	}
	kind := pg_query.JoinType_JOIN_INNER
	for _, n := range s.MergeWhenClauses {
		if !n.GetMergeWhenClause().Matched {
			kind = pg_query.JoinType_JOIN_LEFT
		}
	}
	if unreachableClause(s.MergeWhenClauses) {
		return nil, pgerr.New(pgerr.SyntaxError, "unreachable WHEN clause specified after unconditional WHEN clause")
	}
	join := &pg_query.Node{Node: &pg_query.Node_JoinExpr{JoinExpr: &pg_query.JoinExpr{
		Jointype: kind, Larg: s.SourceRelation, Rarg: &pg_query.Node{Node: &pg_query.Node_RangeVar{RangeVar: rv}},
		Quals: s.JoinCondition,
	}}}
	src := &Select{}
	fb := &fromBuilder{b: b, sc: &scope{}, out: src}
	root, err := fb.items([]*pg_query.Node{join})
	if err != nil {
		return nil, err
	}
	src.Join = root
	out := &Merge{Table: t, Source: src, Target: len(src.From) - 1, On: root.On}
	if alias != t.Name {
		out.Alias = alias
	}
	if out.On == nil {
		out.On = &Const{T: types.TBool, Val: true}
	}
	joined := &scope{tables: fb.sc.tables, exposed: fb.sc.exposed, width: fb.sc.width}
	// The scope of WHEN NOT MATCHED: the source's items alone.
	base := out.TargetBase()
	end := base + len(t.Columns) + 1
	target := fb.sc.tables[len(fb.sc.tables)-1]
	source := &scope{tables: fb.sc.tables[:len(fb.sc.tables)-1], width: fb.sc.width}
	for _, c := range fb.sc.exposed {
		if r, ok := c.e.(*ColRef); !ok || r.Idx < base || r.Idx >= end {
			source.exposed = append(source.exposed, c)
		}
	}
	defer func() { b.hidden = nil }()
	for _, n := range s.MergeWhenClauses {
		wc := n.GetMergeWhenClause()
		act := MergeAction{Matched: wc.Matched}
		sc := joined
		b.hidden = nil
		if !wc.Matched {
			sc, b.hidden = source, &target
		}
		if wc.Condition != nil {
			b.sc = sc
			if act.Cond, err = b.condition(wc.Condition, "MERGE WHEN conditions", "WHEN"); err != nil {
				return nil, err
			}
		}
		switch wc.CommandType {
		case pg_query.CmdType_CMD_NOTHING:
			act.Kind = MergeNothing
		case pg_query.CmdType_CMD_DELETE:
			act.Kind = MergeDelete
		case pg_query.CmdType_CMD_UPDATE:
			act.Kind = MergeUpdate
			b.sc, b.agg, b.aggErr = sc, nil, "MERGE WHEN conditions"
			if act.Set, act.Multi, err = b.setList(t, wc.TargetList); err != nil {
				return nil, err
			}
		case pg_query.CmdType_CMD_INSERT:
			act.Kind = MergeInsert
			if act.Insert, err = b.mergeInsert(t, wc, sc); err != nil {
				return nil, err
			}
		default:
			return nil, pgerr.New(pgerr.FeatureNotSupported, "this MERGE action is not supported")
		}
		out.Actions = append(out.Actions, act)
	}
	return out, nil
}

// mergeInsert binds the INSERT of a WHEN NOT MATCHED clause as INSERT's
// column list and one VALUES row are bound, the values over scope sc.
func (b *binder) mergeInsert(t *catalog.Table, wc *pg_query.MergeWhenClause, sc *scope) (*Insert, error) {
	out := &Insert{Table: t}
	var err error
	if out.Defaults, err = Defaults(t); err != nil {
		return nil, err
	}
	if len(wc.TargetList) == 0 && len(wc.Values) == 0 {
		// DEFAULT VALUES
		out.Values = [][]Expr{{}}
		return out, nil
	}
	if out.Cols, err = b.insertColumns(t, wc.TargetList); err != nil {
		return nil, err
	}
	for _, c := range out.Cols {
		out.ColTypes = append(out.ColTypes, colType(t.Columns[c]))
	}
	ins := &pg_query.InsertStmt{Cols: wc.TargetList, Override: wc.Override}
	row := &pg_query.Node{Node: &pg_query.Node_List{List: &pg_query.List{Items: wc.Values}}}
	if err := b.insertValuesIn(ins, []*pg_query.Node{row}, out, sc); err != nil {
		return nil, err
	}
	if err := identityValues(ins, nil, out); err != nil {
		return nil, err
	}
	return out, nil
}

// unreachableClause reports a WHEN clause after an unconditional one of
// the same kind (MATCHED or NOT MATCHED), which PostgreSQL refuses.
func unreachableClause(list []*pg_query.Node) bool {
	var final [2]bool
	for _, n := range list {
		wc := n.GetMergeWhenClause()
		k := 0
		if wc.Matched {
			k = 1
		}
		if final[k] {
			return true
		}
		final[k] = wc.Condition == nil
	}
	return false
}

// fromItemName is the name a FROM item is referred to by, when it has one
// of its own: a table's alias or name, a subquery's or function's alias.
func fromItemName(n *pg_query.Node) (string, bool) {
	switch {
	case n.GetRangeVar() != nil:
		rv := n.GetRangeVar()
		if rv.Alias != nil && rv.Alias.Aliasname != "" {
			return rv.Alias.Aliasname, true
		}
		return rv.Relname, true
	case n.GetRangeSubselect() != nil && n.GetRangeSubselect().Alias != nil:
		return n.GetRangeSubselect().Alias.Aliasname, true
	case n.GetRangeFunction() != nil && n.GetRangeFunction().Alias != nil:
		return n.GetRangeFunction().Alias.Aliasname, true
	}
	return "", false
}
