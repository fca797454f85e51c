package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/types"
)

// AlterColumnTypes is ALTER TABLE ... ALTER [COLUMN] c [SET DATA] TYPE t
// [COLLATE name] [USING expr], one or more columns. PostgreSQL rewrites
// the table, every row converted, unless each change keeps the stored bytes
// valid: a binary-coercible change (varchar to text, text to varchar
// without a length) or a typmod that only widens (a longer varchar, a
// numeric of more precision and the same scale, a finer timestamp), which
// changes the catalog alone.
type AlterColumnTypes struct {
	Table *catalog.Table
	Cols  []ColumnTypeChange
	// Rewrite: the rows must be converted into a new relation file; false
	// when the catalog alone changes.
	Rewrite bool
}

// ColumnTypeChange is one column's new type.
type ColumnTypeChange struct {
	Col int     // 0-based
	T   types.T // the new type
	// Conv computes the column's new value, of type T, over the row as it
	// is stored (every column of its old type, in its slot): the USING
	// expression, or the column itself, assigned to T.
	Conv Expr
}

func (*AlterColumnTypes) stmt() {}

// alterColumnTypes binds an ALTER TABLE whose subcommands are all ALTER
// COLUMN ... TYPE, in PostgreSQL's two passes: each subcommand's column,
// type and conversion first (ATPrepAlterColumnType), then, in order, a
// column changed twice and a DEFAULT that cannot take the new type
// (ATExecAlterColumnType). The views that read a column, the foreign keys
// over it and the rows are the executor's, under the table's lock.
func (b *binder) alterColumnTypes(t *catalog.Table, s *pg_query.AlterTableStmt) (*AlterColumnTypes, error) {
	out := &AlterColumnTypes{Table: t}
	for _, cn := range s.Cmds {
		c := cn.GetAlterTableCmd()
		if c.Subtype != pg_query.AlterTableType_AT_AlterColumnType {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER TABLE with ALTER COLUMN ... TYPE and other subcommands is not supported").
				WithHint("Run them as separate ALTER TABLE statements.")
		}
		ch, usingCol, err := b.columnTypeChange(t, c)
		if err != nil {
			return nil, err
		}
		if !usingCol || !relabels(colType(t.Columns[ch.Col]), ch.T) {
			out.Rewrite = true
		}
		out.Cols = append(out.Cols, ch)
	}
	changed := map[int]bool{}
	for _, ch := range out.Cols {
		col := t.Columns[ch.Col]
		if changed[ch.Col] {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot alter type of column \"%s\" twice", col.Name)
		}
		changed[ch.Col] = ch.T != colType(col)
		if col.Identity != "" && ch.T.OID != types.Int2 && ch.T.OID != types.Int4 && ch.T.OID != types.Int8 {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "identity column type must be smallint, integer, or bigint")
		}
		if col.Default == "" {
			continue
		}
		// The default as it is, of the old type, must take the new one as
		// an assignment would (PostgreSQL re-casts it; minipg keeps its
		// text, which binds to the new type the same way).
		def, err := ParseExpr(col.Default, colType(col))
		if err != nil {
			return nil, err
		}
		if _, err := b.coerce(def, ch.T, types.CastAssignment, -1); err != nil {
			if err == errMismatch {
				return nil, pgerr.New(pgerr.DatatypeMismatch, "default for column \"%s\" cannot be cast automatically to type %s", col.Name, baseName(ch.T))
			}
			return nil, err
		}
	}
	return out, nil
}

// columnTypeChange binds one ALTER COLUMN ... TYPE subcommand. usingCol
// reports that the new value is the column itself (no USING, or USING
// naming just the column), as the test for a change without a rewrite
// needs.
func (b *binder) columnTypeChange(t *catalog.Table, c *pg_query.AlterTableCmd) (ColumnTypeChange, bool, error) {
	var ch ColumnTypeChange
	if IsSystemColumnName(c.Name) {
		return ch, false, pgerr.New(pgerr.FeatureNotSupported, "cannot alter system column \"%s\"", c.Name)
	}
	ch.Col = t.ColumnIndex(c.Name)
	if ch.Col < 0 {
		return ch, false, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", c.Name, t.Name)
	}
	cd := c.Def.GetColumnDef()
	if cd == nil || cd.TypeName == nil {
		return ch, false, pgerr.New(pgerr.FeatureNotSupported, "this ALTER COLUMN ... TYPE form is not supported")
	}
	nt, serial, err := b.columnType(cd.TypeName)
	if err == nil && serial {
		err = pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", cd.TypeName.Names[0].GetString_().GetSval())
	}
	if err != nil {
		// The type is looked up outside the parser: no position.
		if pe, ok := err.(*pgerr.Error); ok {
			pe.Position = 0
		}
		return ch, false, err
	}
	if nt.OID == types.TID || nt.OID == types.Unknown || nt.OID == types.Void {
		return ch, false, pgerr.New(pgerr.FeatureNotSupported, "columns of type %s are not supported", nt.Name())
	}
	if cd.CollClause != nil {
		if err := b.checkCollation(cd.CollClause.Collname, nt, -1); err != nil {
			return ch, false, err
		}
	}
	ch.T = nt
	col := t.Columns[ch.Col]
	ref := &ColRef{Idx: ch.Col, T: colType(col), Name: col.Name}
	if cd.RawDefault == nil {
		conv, err := b.coerce(ref, nt, types.CastAssignment, -1)
		if err == errMismatch {
			return ch, false, pgerr.New(pgerr.DatatypeMismatch, "column \"%s\" cannot be cast automatically to type %s", col.Name, baseName(nt)).
				WithHint("You might need to specify \"USING %s::%s\".", QuoteIdentifier(col.Name), nt.Name())
		}
		ch.Conv = conv
		return ch, true, err
	}
	saved := *b
	b.sc, b.agg, b.win, b.aggErr, b.winErr, b.noSubquery, b.srfOK = singleScope(t, t.Name), nil, nil, "transform expressions", "", "transform expression", false
	nparams := len(b.params)
	e, err := b.expr(cd.RawDefault)
	if err == nil && len(b.params) > nparams {
		err = pgerr.New(pgerr.UndefinedParameter, "there is no parameter $%d", len(b.params))
	}
	b.sc, b.agg, b.win, b.aggErr, b.winErr, b.noSubquery, b.srfOK = saved.sc, saved.agg, saved.win, saved.aggErr, saved.winErr, saved.noSubquery, saved.srfOK
	if err != nil {
		return ch, false, err
	}
	r, isRef := e.(*ColRef)
	usingCol := isRef && r.Idx == ch.Col
	if ch.Conv, err = b.coerce(e, nt, types.CastAssignment, -1); err == errMismatch {
		return ch, false, pgerr.New(pgerr.DatatypeMismatch, "result of USING clause for column \"%s\" cannot be cast automatically to type %s", col.Name, baseName(nt)).
			WithHint("You might need to add an explicit cast.")
	}
	return ch, usingCol, err
}

// relabels reports whether a value stored as type from is, byte for byte,
// the same value of type to, so that changing a column's type needs no
// rewrite: PostgreSQL's binary-coercible casts (varchar and text) and the
// length coercions its support functions turn into no-ops (varchar_support,
// numeric_support, timestamp_support).
func relabels(from, to types.T) bool {
	if from == to {
		return true
	}
	widens := func() bool { return to.Typmod < 0 || from.Typmod >= 0 && to.Typmod >= from.Typmod }
	switch {
	case from.OID == types.Varchar && to.OID == types.Text:
		return true
	case from.OID == types.Text && to.OID == types.Varchar:
		return to.Typmod < 0
	case from.OID != to.OID:
		return false
	}
	switch from.OID {
	case types.Varchar:
		return widens()
	case types.Timestamp, types.TimestampTZ:
		return widens() || to.Typmod >= 6
	case types.Numeric:
		if to.Typmod < 0 {
			return true
		}
		fp, fs, fok := from.NumericPrecScale()
		tp, ts, tok := to.NumericPrecScale()
		return fok && tok && fs == ts && tp >= fp
	}
	return false
}

// SequenceAs is sequence q's parameters after ALTER SEQUENCE ... AS t, as
// ALTER COLUMN ... TYPE changes an identity column's sequence: the bounds
// that were the old type's defaults follow the new type, with PostgreSQL's
// checks.
func SequenceAs(q *catalog.Sequence, t types.T) (catalog.Sequence, error) {
	query := "ALTER SEQUENCE s AS " + types.T{OID: t.OID, Typmod: -1}.Name()
	n, err := parseOne(query)
	if err != nil {
		return catalog.Sequence{}, err
	}
	b := &binder{query: query}
	p, err := b.seqParams(q, n.GetAlterSeqStmt().GetOptions())
	if err != nil {
		return catalog.Sequence{}, err
	}
	return p.def, nil
}
