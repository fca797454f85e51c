package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/types"
)

// CreateSequence is a bound CREATE SEQUENCE: Def carries the parameters
// with PostgreSQL's defaults applied and checked. OwnedBy names the owning
// column (OWNED BY t.c) as written; the executor resolves it.
type CreateSequence struct {
	Def         catalog.Sequence
	IfNotExists bool
	OwnedBy     []string // nil or [table, column]
}

// DropSequence is a bound DROP SEQUENCE.
type DropSequence struct {
	Names    []string
	IfExists bool
	Cascade  bool // drops the column defaults that call nextval on it
}

// AlterDefault is ALTER TABLE t ALTER COLUMN c SET DEFAULT expr / DROP
// DEFAULT: Expr is the default's SQL text, "" to drop it.
type AlterDefault struct {
	Table *catalog.Table
	Col   int // 0-based
	Expr  string
}

// AlterNotNull is ALTER TABLE t ALTER COLUMN c SET NOT NULL / DROP NOT NULL.
type AlterNotNull struct {
	Table *catalog.Table
	Col   int // 0-based
	Set   bool
}

func (*AlterNotNull) stmt()   {}
func (*CreateSequence) stmt() {}
func (*DropSequence) stmt()   {}
func (*AlterDefault) stmt()   {}

// SequenceCatalog is implemented by catalogs that know sequences; the
// binder uses it to resolve nextval('s') and friends when it can.
type SequenceCatalog interface {
	Sequence(name string) (*catalog.Sequence, bool)
}

// createSequence binds CREATE SEQUENCE as PostgreSQL's init_params does:
// AS type bounds MINVALUE/MAXVALUE; an ascending sequence starts at
// MINVALUE (default 1), a descending one at MAXVALUE (default -1).
func (b *binder) createSequence(s *pg_query.CreateSeqStmt) (*CreateSequence, error) {
	rv := s.Sequence
	if rv.Relpersistence == "t" {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "temporary sequences are not supported")
	}
	if sc := rv.Schemaname; sc != "" && sc != "public" {
		return nil, b.errAt(rv.Location, pgerr.Code("3F000"), "schema \"%s\" does not exist", sc)
	}
	name := rv.Relname
	if len(name) >= catalog.NameDataLen {
		name = name[:catalog.NameDataLen-1]
	}
	out := &CreateSequence{IfNotExists: s.IfNotExists}
	p, err := b.seqParams(nil, s.Options)
	if err != nil {
		return nil, err
	}
	if p.restart != nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "CREATE SEQUENCE option restart is not supported")
	}
	def := p.def
	def.Name = name
	if len(p.ownedBy) > 0 {
		out.OwnedBy = p.ownedBy
	}
	out.Def = def
	return out, nil
}

// dropSequence binds DROP SEQUENCE [IF EXISTS] names.
func (b *binder) dropSequence(s *pg_query.DropStmt) (*DropSequence, error) {
	names, err := dropNames(s)
	if err != nil {
		return nil, err
	}
	return &DropSequence{Names: names, IfExists: s.MissingOk, Cascade: s.Behavior == pg_query.DropBehavior_DROP_CASCADE}, nil
}

// alterDefault binds ALTER COLUMN c SET DEFAULT expr / DROP DEFAULT.
func (b *binder) alterDefault(t *catalog.Table, c *pg_query.AlterTableCmd) (*AlterDefault, error) {
	col := t.ColumnIndex(c.Name)
	if col < 0 {
		return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", c.Name, t.Name)
	}
	if t.Columns[col].Identity != "" {
		e := pgerr.New(pgerr.SyntaxError, "column \"%s\" of relation \"%s\" is an identity column", c.Name, t.Name)
		if c.Def == nil {
			e = e.WithHint("Use ALTER TABLE ... ALTER COLUMN ... DROP IDENTITY instead.")
		}
		return nil, e
	}
	out := &AlterDefault{Table: t, Col: col}
	if c.Def == nil {
		return out, nil
	}
	ct := types.T{OID: types.OID(t.Columns[col].TypeOID), Typmod: t.Columns[col].Typmod}
	if err := b.checkDefault(c.Def, ct, c.Name); err != nil {
		return nil, err
	}
	txt, err := deparseExpr(c.Def)
	if err != nil {
		return nil, err
	}
	if _, err := ParseExpr(txt, ct); err != nil {
		return nil, err
	}
	out.Expr = txt
	return out, nil
}

// SeqName turns a regclass-style text argument of nextval and friends into
// a relation name as PostgreSQL's regclassin does: an unquoted name is
// folded to lower case, a double-quoted one kept; "public." is dropped.
// ok is false for another schema or a malformed name.
func SeqName(arg string) (name string, ok bool) {
	parts, ok := splitQualified(arg)
	if !ok {
		return "", false
	}
	if len(parts) == 2 {
		if parts[0] != "public" {
			return parts[1], false
		}
		parts = parts[1:]
	}
	if len(parts) != 1 {
		return "", false
	}
	return parts[0], true
}

// splitQualified splits a possibly quoted, dotted name into its parts.
func splitQualified(s string) ([]string, bool) {
	var parts []string
	s = strings.TrimSpace(s)
	for {
		var part string
		if strings.HasPrefix(s, `"`) {
			var sb strings.Builder
			i := 1
			for {
				if i >= len(s) {
					return nil, false
				}
				if s[i] == '"' {
					if i+1 < len(s) && s[i+1] == '"' {
						sb.WriteByte('"')
						i += 2
						continue
					}
					i++
					break
				}
				sb.WriteByte(s[i])
				i++
			}
			part, s = sb.String(), s[i:]
		} else {
			j := strings.IndexByte(s, '.')
			if j < 0 {
				j = len(s)
			}
			part, s = strings.ToLower(strings.TrimSpace(s[:j])), s[j:]
			if part == "" {
				return nil, false
			}
		}
		parts = append(parts, part)
		if s == "" {
			return parts, true
		}
		if s[0] != '.' {
			return nil, false
		}
		s = s[1:]
	}
}

// sequenceFunc binds nextval(regclass), currval(regclass),
// setval(regclass, bigint[, boolean]) and lastval(). The sequence argument
// is text naming the sequence (minipg has no regclass type); a constant
// name is checked against the catalog here, so that a missing sequence is
// 42P01 at the literal, as PostgreSQL's regclass input reports it.
func (c *call) sequenceFunc() (Expr, error) {
	want := map[string][]int{"nextval": {1}, "currval": {1}, "setval": {2, 3}, "lastval": {0}}[c.name]
	okArgs := false
	for _, n := range want {
		okArgs = okArgs || len(c.args) == n
	}
	if !okArgs {
		return nil, c.undefined()
	}
	if c.name == "lastval" {
		return &Func{Name: c.name, T: types.TInt8}, nil
	}
	if err := c.coerceArg(0, types.TText); err != nil {
		return nil, err
	}
	if k, ok := c.args[0].(*Const); ok && k.Val != nil {
		arg := stripRegclass(c.fc.Args[0])
		if sc, ok := c.b.cat.(SequenceCatalog); ok {
			name, valid := SeqName(k.Val.(string))
			if !valid {
				return nil, c.b.errAt(arg.GetAConst().GetLocation(), pgerr.UndefinedTable, "relation \"%s\" does not exist", k.Val.(string))
			}
			if _, found := sc.Sequence(name); !found {
				if _, isTable := c.b.cat.Table(name); !isTable {
					return nil, c.b.errAt(arg.GetAConst().GetLocation(), pgerr.UndefinedTable, "relation \"%s\" does not exist", name)
				}
			}
		}
	}
	if c.name == "setval" {
		if err := c.coerceArg(1, types.TInt8); err != nil {
			return nil, err
		}
		if len(c.args) == 3 {
			if err := c.coerceArg(2, types.TBool); err != nil {
				return nil, err
			}
		}
	}
	return &Func{Name: c.name, Args: c.args, T: types.TInt8}, nil
}

// seqFuncs are the functions whose first argument names a sequence.
var seqFuncs = map[string]bool{"nextval": true, "currval": true, "setval": true}

// stripRegclass returns the operand of 'name'::regclass ('s'::regclass is
// how pg_dump and psql write a sequence argument): minipg has no regclass
// type and passes the name as text.
func stripRegclass(n *pg_query.Node) *pg_query.Node {
	if tc := n.GetTypeCast(); tc != nil {
		if tn := tc.TypeName.Names; len(tn) > 0 && tn[len(tn)-1].GetString_().GetSval() == "regclass" {
			return tc.Arg
		}
	}
	return n
}
