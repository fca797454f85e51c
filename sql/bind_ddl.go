package sql

import (
	"slices"
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/reloptions"
	"minipg/types"
)

// deparseExpr renders an expression node back to SQL text.
func deparseExpr(n *pg_query.Node) (string, error) {
	res := &pg_query.ParseResult{Stmts: []*pg_query.RawStmt{{Stmt: &pg_query.Node{Node: &pg_query.Node_SelectStmt{
		SelectStmt: &pg_query.SelectStmt{TargetList: []*pg_query.Node{{Node: &pg_query.Node_ResTarget{
			ResTarget: &pg_query.ResTarget{Val: n}}}}}}}}}}
	s, err := pg_query.Deparse(res)
	if err != nil {
		return "", pgerr.New(pgerr.InternalError, "cannot deparse expression: %v", err)
	}
	return strings.TrimPrefix(s, "SELECT "), nil
}

func (b *binder) createTable(s *pg_query.CreateStmt) (*CreateTable, error) {
	if s.Relation.Relpersistence == "t" {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "temporary tables are not supported")
	}
	if len(s.InhRelations) > 0 || s.Partspec != nil || s.Partbound != nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "inheritance and partitioning are not supported")
	}
	if s.OfTypename != nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "typed tables are not supported")
	}
	if s.Oncommit > pg_query.OnCommitAction_ONCOMMIT_NOOP { // PRESERVE ROWS, DELETE ROWS, DROP
		return nil, pgerr.New(pgerr.InvalidTableDefinition, "ON COMMIT can only be used on temporary tables")
	}
	if sc := s.Relation.Schemaname; sc != "" && sc != "public" {
		return nil, b.errAt(s.Relation.Location, pgerr.Code("3F000"), "schema \"%s\" does not exist", sc)
	}
	name := s.Relation.Relname
	if len(name) >= catalog.NameDataLen {
		name = name[:catalog.NameDataLen-1]
	}
	def := &catalog.Table{Name: name, Options: map[string]string{}}
	// PRIMARY KEY and UNIQUE constraints, column and table ones, in the
	// order they are written (PostgreSQL's ixconstraints).
	var keys []ConstraintCmd
	var serials []int
	var fks []FKCmd
	var checks []checkDef
	var plainIdx []likeIndex
	for _, el := range s.TableElts {
		switch {
		case el.GetColumnDef() != nil:
			cd := el.GetColumnDef()
			t, serial, err := b.columnType(cd.TypeName)
			if err != nil {
				return nil, err
			}
			if serial {
				serials = append(serials, len(def.Columns))
				cd.IsNotNull = true
			}
			if t.OID == types.TID || t.OID == types.Unknown || t.OID == types.Void {
				return nil, b.errAt(cd.Location, pgerr.FeatureNotSupported, "columns of type %s are not supported", t.Name())
			}
			if err := checkCompression(cd.Compression, t); err != nil {
				return nil, err
			}
			if cd.CollClause != nil {
				if err := b.checkCollation(cd.CollClause.Collname, t, cd.CollClause.Location); err != nil {
					return nil, err
				}
			}
			// A serial's NOT NULL comes after the column's own constraints.
			col := catalog.Column{Name: cd.Colname, TypeOID: uint32(t.OID), Typmod: t.Typmod, NotNull: cd.IsNotNull && !serial}
			if IsSystemColumnName(cd.Colname) {
				return nil, pgerr.New(pgerr.DuplicateColumn, "column name \"%s\" conflicts with a system column name", cd.Colname)
			}
			sawNullable := false // NULL, NOT NULL or identity given (transformColumnDefinition)
			nullable := func(c *pg_query.Constraint, notNull bool) error {
				if sawNullable && col.NotNull != notNull {
					return b.errAt(c.Location, pgerr.SyntaxError, "conflicting NULL/NOT NULL declarations for column \"%s\" of table \"%s\"", cd.Colname, name)
				}
				sawNullable, col.NotNull = true, notNull
				return nil
			}
			for _, cn := range cd.Constraints {
				c := cn.GetConstraint()
				switch c.Contype {
				case pg_query.ConstrType_CONSTR_NOTNULL:
					if err := nullable(c, true); err != nil {
						return nil, err
					}
				case pg_query.ConstrType_CONSTR_NULL:
					if err := nullable(c, false); err != nil {
						return nil, err
					}
				case pg_query.ConstrType_CONSTR_DEFAULT:
					if col.Identity != "" {
						return nil, b.errAt(c.Location, pgerr.SyntaxError, "both default and identity specified for column \"%s\" of table \"%s\"", cd.Colname, name)
					}
					if slices.Contains(serials, len(def.Columns)) {
						return nil, pgerr.New(pgerr.SyntaxError, "multiple default values specified for column \"%s\" of table \"%s\"", cd.Colname, name)
					}
					txt, err := deparseExpr(c.RawExpr)
					if err != nil {
						return nil, err
					}
					if err := b.checkDefault(c.RawExpr, t, cd.Colname); err != nil {
						return nil, err
					}
					if _, err := ParseExpr(txt, t); err != nil {
						return nil, err
					}
					col.Default = txt
				case pg_query.ConstrType_CONSTR_PRIMARY, pg_query.ConstrType_CONSTR_UNIQUE:
					k, err := b.keyConstraint(c)
					if err != nil {
						return nil, err
					}
					k.Columns = []string{cd.Colname}
					keys = append(keys, k)
				case pg_query.ConstrType_CONSTR_IDENTITY:
					if col.Default != "" || slices.Contains(serials, len(def.Columns)) {
						return nil, b.errAt(c.Location, pgerr.SyntaxError, "both default and identity specified for column \"%s\" of table \"%s\"", cd.Colname, name)
					}
					switch t.OID {
					case types.Int2, types.Int4, types.Int8:
					default:
						return nil, pgerr.New(pgerr.InvalidParameterValue, "identity column type must be smallint, integer, or bigint")
					}
					if len(c.Options) > 0 {
						return nil, b.errAt(c.Location, pgerr.FeatureNotSupported, "identity sequence options are not supported")
					}
					col.Identity = c.GeneratedWhen
					if err := nullable(c, true); err != nil {
						return nil, err
					}
					serials = append(serials, len(def.Columns))
				case pg_query.ConstrType_CONSTR_FOREIGN:
					fk, err := b.fkConstraint(c, cd.Colname)
					if err != nil {
						return nil, err
					}
					fks = append(fks, fk)
				case pg_query.ConstrType_CONSTR_CHECK:
					checks = append(checks, newCheckDef(c))
				default:
					return nil, b.errAt(c.Location, pgerr.FeatureNotSupported, "%s constraints are not supported", constraintName(c.Contype))
				}
			}
			if serial {
				if sawNullable && !col.NotNull {
					return nil, pgerr.New(pgerr.SyntaxError, "conflicting NULL/NOT NULL declarations for column \"%s\" of table \"%s\"", cd.Colname, name)
				}
				col.NotNull = true
			}
			def.Columns = append(def.Columns, col)
		case el.GetConstraint() != nil:
			c := el.GetConstraint()
			switch c.Contype {
			case pg_query.ConstrType_CONSTR_PRIMARY, pg_query.ConstrType_CONSTR_UNIQUE:
				k, err := b.keyConstraint(c)
				if err != nil {
					return nil, err
				}
				keys = append(keys, k)
			case pg_query.ConstrType_CONSTR_FOREIGN:
				fk, err := b.fkConstraint(c, "")
				if err != nil {
					return nil, err
				}
				fks = append(fks, fk)
			case pg_query.ConstrType_CONSTR_CHECK:
				checks = append(checks, newCheckDef(c))
			default:
				return nil, b.errAt(c.Location, pgerr.FeatureNotSupported, "%s constraints are not supported", constraintName(c.Contype))
			}
		case el.GetTableLikeClause() != nil:
			lk, err := b.tableLike(el.GetTableLikeClause(), def)
			if err != nil {
				return nil, err
			}
			serials = append(serials, lk.serials...)
			keys = append(keys, lk.keys...)
			checks = append(checks, lk.checks...)
			plainIdx = append(plainIdx, lk.indexes...)
		default:
			return nil, pgerr.New(pgerr.FeatureNotSupported, "this table element is not supported")
		}
	}
	seen := map[string]bool{}
	for _, c := range def.Columns {
		if seen[c.Name] {
			return nil, pgerr.New(pgerr.DuplicateColumn, "column \"%s\" specified more than once", c.Name)
		}
		seen[c.Name] = true
	}
	idxs, err := b.keyIndexes(def, keys)
	if err != nil {
		return nil, err
	}
	def.Indexes = idxs
	for _, li := range plainIdx {
		idx := catalog.Index{Unique: li.unique, Options: li.options}
		for _, name := range li.cols {
			idx.Columns = append(idx.Columns, int16(def.ColumnIndex(name)+1))
		}
		def.Indexes = append(def.Indexes, idx)
	}
	if def.Checks, err = b.bindChecks(def, checks); err != nil {
		return nil, err
	}
	opts, err := b.relOptions(s.Options)
	if err != nil {
		return nil, err
	}
	def.Options = opts
	return &CreateTable{Def: def, IfNotExists: s.IfNotExists, Serials: serials, ForeignKeys: fks}, nil
}

func constraintName(t pg_query.ConstrType) string {
	switch t {
	case pg_query.ConstrType_CONSTR_CHECK:
		return "CHECK"
	case pg_query.ConstrType_CONSTR_FOREIGN:
		return "FOREIGN KEY"
	case pg_query.ConstrType_CONSTR_EXCLUSION:
		return "EXCLUDE"
	case pg_query.ConstrType_CONSTR_IDENTITY:
		return "identity"
	case pg_query.ConstrType_CONSTR_GENERATED:
		return "generated column"
	}
	return "deferrable"
}

// defElemValue renders a DefElem argument as text (as PostgreSQL's
// defGetString does).
func defElemValue(d *pg_query.DefElem) string {
	a := d.Arg
	switch {
	case a == nil:
		return ""
	case a.GetInteger() != nil:
		return strconv.Itoa(int(a.GetInteger().Ival))
	case a.GetFloat() != nil:
		return a.GetFloat().Fval
	case a.GetString_() != nil:
		return a.GetString_().Sval
	case a.GetBoolean() != nil:
		if a.GetBoolean().Boolval {
			return "true"
		}
		return "false"
	case a.GetTypeName() != nil:
		tn := a.GetTypeName()
		return tn.Names[len(tn.Names)-1].GetString_().GetSval()
	case a.GetAConst() != nil:
		c := a.GetAConst()
		switch {
		case c.GetIval() != nil:
			return strconv.Itoa(int(c.GetIval().Ival))
		case c.GetSval() != nil:
			return c.GetSval().Sval
		case c.GetFval() != nil:
			return c.GetFval().Fval
		case c.GetBoolval() != nil:
			if c.GetBoolval().Boolval {
				return "true"
			}
			return "false"
		}
	}
	return ""
}

// isRelOption reports whether name is a declared storage parameter.
func isRelOption(name string) bool { return reloptions.IsReloption(name) }

// relOptions validates WITH (...) storage parameters as PostgreSQL's
// reloptions do, against the parameters declared in package reloptions,
// and returns their canonical values.
func (b *binder) relOptions(defs []*pg_query.Node) (map[string]string, error) {
	opts := map[string]string{}
	for _, n := range defs {
		d := n.GetDefElem()
		if d.Defnamespace != "" {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "unrecognized parameter namespace \"%s\"", d.Defnamespace)
		}
		v := "true" // a parameter without a value, as PostgreSQL's defGetString gives it
		if d.Arg != nil {
			v = defElemValue(d)
		}
		if _, dup := opts[d.Defname]; dup {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "parameter \"%s\" specified more than once", d.Defname)
		}
		cv, err := reloptions.CheckReloption(d.Defname, v)
		if err != nil {
			return nil, err
		}
		opts[d.Defname] = cv
	}
	return opts, nil
}

func (b *binder) dropStmt(s *pg_query.DropStmt) (Stmt, error) {
	switch s.RemoveType {
	case pg_query.ObjectType_OBJECT_TABLE:
	case pg_query.ObjectType_OBJECT_SEQUENCE:
		return b.dropSequence(s)
	case pg_query.ObjectType_OBJECT_VIEW:
		return b.dropView(s)
	case pg_query.ObjectType_OBJECT_EXTENSION:
		return b.dropExtension(s)
	case pg_query.ObjectType_OBJECT_FUNCTION:
		return b.dropFunction(s)
	case pg_query.ObjectType_OBJECT_INDEX:
		if s.Concurrent && len(s.Objects) > 1 {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "DROP INDEX CONCURRENTLY does not support dropping multiple objects")
		}
		if s.Concurrent && s.Behavior == pg_query.DropBehavior_DROP_CASCADE {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "DROP INDEX CONCURRENTLY does not support CASCADE")
		}
		out := &DropIndex{IfExists: s.MissingOk, Concurrent: s.Concurrent}
		for _, o := range s.Objects {
			items := o.GetList().GetItems()
			if len(items) > 0 {
				out.Names = append(out.Names, items[len(items)-1].GetString_().GetSval())
			}
		}
		return out, nil
	default:
		return nil, pgerr.Unimplemented("DROP " + strings.TrimPrefix(s.RemoveType.String(), "OBJECT_"))
	}
	names, err := dropNames(s)
	if err != nil {
		return nil, err
	}
	return &DropTable{Names: names, IfExists: s.MissingOk, Cascade: s.Behavior == pg_query.DropBehavior_DROP_CASCADE}, nil
}

// dropNames are the relation names of a DROP TABLE / SEQUENCE, schema
// "public" or none (42P01 for another schema, as no relation is there).
func dropNames(s *pg_query.DropStmt) ([]string, error) {
	var names []string
	for _, o := range s.Objects {
		items := o.GetList().GetItems()
		if len(items) == 0 {
			continue
		}
		if len(items) == 2 && items[0].GetString_().GetSval() != "public" {
			return nil, pgerr.New(pgerr.UndefinedTable, "relation \"%s.%s\" does not exist", items[0].GetString_().GetSval(), items[1].GetString_().GetSval())
		}
		names = append(names, items[len(items)-1].GetString_().GetSval())
	}
	return names, nil
}

func (b *binder) createIndex(s *pg_query.IndexStmt) (*CreateIndex, error) {
	if s.AccessMethod != "" && s.AccessMethod != "btree" {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "index access method \"%s\" is not supported", s.AccessMethod)
	}
	if s.WhereClause != nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "partial indexes are not supported")
	}
	if len(s.IndexIncludingParams) > 0 {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "INCLUDE columns are not supported")
	}
	t, err := b.table(s.Relation)
	if err != nil {
		return nil, err
	}
	if s.NullsNotDistinct {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "NULLS NOT DISTINCT is not supported")
	}
	idx := catalog.Index{Name: s.Idxname, Unique: s.Unique || s.Primary, Primary: s.Primary}
	if idx.Options, err = indexOptions(s.Options); err != nil {
		return nil, err
	}
	var names []string
	for _, p := range s.IndexParams {
		ie := p.GetIndexElem()
		if ie.Expr != nil {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "expression indexes are not supported")
		}
		if len(ie.Opclassopts) > 0 && len(ie.Opclass) > 0 {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "operator class %s has no options",
				ie.Opclass[len(ie.Opclass)-1].GetString_().GetSval())
		}
		if ie.Ordering == pg_query.SortByDir_SORTBY_DESC {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "descending index columns are not supported")
		}
		c := colIndex(t, ie.Name)
		if c < 0 {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" does not exist", ie.Name)
		}
		if len(ie.Collation) > 0 {
			ct := colType(t.Columns[c])
			if err := b.checkCollation(ie.Collation, ct, -1); err != nil {
				return nil, err
			}
		}
		if ct := colType(t.Columns[c]); ct.OID == types.JSON {
			return nil, pgerr.New(pgerr.UndefinedObject, "data type json has no default operator class for access method \"btree\"").
				WithHint("You must specify an operator class for the index or define a default operator class for the data type.")
		}
		idx.Columns = append(idx.Columns, int16(c+1))
		names = append(names, ie.Name)
	}
	return &CreateIndex{Table: t, Index: idx, IfNotExists: s.IfNotExists, Concurrent: s.Concurrent}, nil
}

// checkCompression vets a column's COMPRESSION clause as PostgreSQL 15
// does. minipg compresses nothing (nor TOASTs), so an accepted method
// changes nothing on disk.
func checkCompression(method string, t types.T) error {
	switch method {
	case "":
		return nil
	case "pglz", "lz4", "default":
	default:
		return pgerr.New(pgerr.InvalidParameterValue, "invalid compression method \"%s\"", method)
	}
	if t.Len() >= 0 {
		return pgerr.New(pgerr.FeatureNotSupported, "column data type %s does not support compression", t.Name())
	}
	return nil
}

// indexParams are the storage parameters of a btree index.
var indexParams = map[string]*reloptions.Param{
	"fillfactor":        {Name: "fillfactor", Kind: reloptions.Int, Min: 10, Max: 100},
	"deduplicate_items": {Name: "deduplicate_items", Kind: reloptions.Bool},
}

// indexOptions validates CREATE INDEX's WITH (...) against indexParams and
// returns them canonical (nil for none). minipg's btree keeps no posting
// lists, so deduplicate_items = on, PostgreSQL's default, is refused.
func indexOptions(defs []*pg_query.Node) (map[string]string, error) {
	var opts map[string]string
	for _, n := range defs {
		d := n.GetDefElem()
		if d.Defnamespace != "" {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "unrecognized parameter namespace \"%s\"", d.Defnamespace)
		}
		p, ok := indexParams[d.Defname]
		if !ok {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "unrecognized parameter \"%s\"", d.Defname)
		}
		v := "true"
		if d.Arg != nil {
			v = defElemValue(d)
		}
		if _, dup := opts[d.Defname]; dup {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "parameter \"%s\" specified more than once", d.Defname)
		}
		cv, err := p.ParseReloption(v)
		if err != nil {
			return nil, err
		}
		if p.Name == "deduplicate_items" && cv == "on" {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "deduplicate_items = on is not supported").
				WithHint("minipg's btree indexes keep no posting lists; use deduplicate_items = off.")
		}
		if opts == nil {
			opts = map[string]string{}
		}
		opts[d.Defname] = cv
	}
	return opts, nil
}

func (b *binder) copyStmt(s *pg_query.CopyStmt) (Stmt, error) {
	if !s.IsFrom {
		return b.copyTo(s)
	}
	if s.Query != nil || s.Relation == nil {
		return nil, pgerr.New(pgerr.SyntaxError, "COPY (query) FROM is not allowed")
	}
	if s.Filename != "" || s.IsProgram {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY FROM a file or program is not supported").
			WithHint("Use COPY ... FROM STDIN.")
	}
	if s.WhereClause != nil {
		return nil, pgerr.Unimplemented("COPY ... WHERE")
	}
	t, err := b.table(s.Relation)
	if err != nil {
		return nil, err
	}
	out := &Copy{Table: t, Format: "text", Delimiter: '\t', Null: `\N`, Quote: '"', Escape: '"'}
	if len(s.Attlist) == 0 {
		out.Cols = t.LiveColumns()
	} else {
		for _, a := range s.Attlist {
			name := a.GetString_().GetSval()
			c := colIndex(t, name)
			if c < 0 {
				return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", name, t.Name)
			}
			for _, x := range out.Cols {
				if x == c {
					return nil, pgerr.New(pgerr.DuplicateColumn, "column \"%s\" specified more than once", name)
				}
			}
			out.Cols = append(out.Cols, c)
		}
	}
	if err := b.copyOptions(out, s.Options, true); err != nil {
		return nil, err
	}
	if out.Defaults, err = Defaults(t); err != nil {
		return nil, err
	}
	return out, nil
}

func (b *binder) vacuumStmt(s *pg_query.VacuumStmt) (*Vacuum, error) {
	analyze, noSkip, full := false, false, false
	for _, o := range s.Options {
		d := o.GetDefElem()
		switch d.Defname {
		case "verbose", "freeze", "skip_locked", "index_cleanup", "truncate", "process_toast", "parallel":
		case "disable_page_skipping":
			v, ok := defBool(d)
			if !ok {
				return nil, pgerr.New(pgerr.SyntaxError, "disable_page_skipping requires a Boolean value")
			}
			noSkip = v
		case "analyze":
			analyze = true
		case "full":
			v, ok := defBool(d)
			if !ok {
				return nil, pgerr.New(pgerr.SyntaxError, "full requires a Boolean value")
			}
			full = v
		default:
			return nil, pgerr.New(pgerr.SyntaxError, "unrecognized VACUUM option \"%s\"", d.Defname)
		}
	}
	out := &Vacuum{Analyze: analyze, AnalyzeOnly: !s.IsVacuumcmd, DisablePageSkipping: noSkip, Full: full && s.IsVacuumcmd}
	for _, r := range s.Rels {
		vr := r.GetVacuumRelation()
		if v, ok := b.view(vr.Relation); ok {
			out.Views = append(out.Views, v.Name)
			continue
		}
		t, err := b.table(vr.Relation)
		if err != nil {
			if pe, ok := err.(*pgerr.Error); ok {
				pe.Position = 0 // PostgreSQL looks VACUUM's tables up without a position
			}
			return nil, err
		}
		out.Tables = append(out.Tables, t)
	}
	return out, nil
}

func (b *binder) txnStmt(s *pg_query.TransactionStmt) (*Txn, error) {
	readOnly, readWrite := false, false
	for _, o := range s.Options {
		d := o.GetDefElem()
		if d.Defname == "transaction_read_only" {
			readOnly = defElemValue(d) == "1"
			readWrite = !readOnly
		}
		if d.Defname == "transaction_isolation" {
			v := strings.ToLower(defElemValue(d))
			if v != "read committed" && v != "read uncommitted" {
				return nil, pgerr.New(pgerr.FeatureNotSupported, "isolation level %s is not supported", strings.ToUpper(v)).
					WithHint("minipg runs every transaction at READ COMMITTED.")
			}
		}
	}
	switch s.Kind {
	case pg_query.TransactionStmtKind_TRANS_STMT_BEGIN:
		return &Txn{Kind: TxnBegin, Tag: "BEGIN", ReadOnly: readOnly, ReadWrite: readWrite}, nil
	case pg_query.TransactionStmtKind_TRANS_STMT_START:
		return &Txn{Kind: TxnBegin, Tag: "START TRANSACTION", ReadOnly: readOnly, ReadWrite: readWrite}, nil
	case pg_query.TransactionStmtKind_TRANS_STMT_COMMIT:
		return &Txn{Kind: TxnCommit, Tag: "COMMIT", Chain: s.Chain}, nil
	case pg_query.TransactionStmtKind_TRANS_STMT_ROLLBACK:
		return &Txn{Kind: TxnRollback, Tag: "ROLLBACK", Chain: s.Chain}, nil
	case pg_query.TransactionStmtKind_TRANS_STMT_SAVEPOINT:
		return &Txn{Kind: TxnSavepoint, Tag: "SAVEPOINT", Savepoint: s.SavepointName}, nil
	case pg_query.TransactionStmtKind_TRANS_STMT_RELEASE:
		return &Txn{Kind: TxnRelease, Tag: "RELEASE", Savepoint: s.SavepointName}, nil
	case pg_query.TransactionStmtKind_TRANS_STMT_ROLLBACK_TO:
		return &Txn{Kind: TxnRollbackTo, Tag: "ROLLBACK", Savepoint: s.SavepointName}, nil
	}
	return nil, pgerr.Unimplemented("two-phase commit")
}

func (b *binder) setStmt(s *pg_query.VariableSetStmt) (*Set, error) {
	name := strings.ToLower(s.Name)
	switch s.Kind {
	case pg_query.VariableSetKind_VAR_SET_VALUE:
		var parts []string
		for _, a := range s.Args {
			c := a.GetAConst()
			switch {
			case c == nil:
				if a.GetTypeCast() != nil {
					tc := a.GetTypeCast()
					if cc := tc.Arg.GetAConst(); cc != nil && cc.GetSval() != nil {
						parts = append(parts, cc.GetSval().Sval)
						continue
					}
				}
				return nil, pgerr.New(pgerr.SyntaxError, "invalid value for SET %s", name)
			case c.GetSval() != nil:
				parts = append(parts, c.GetSval().Sval)
			case c.GetIval() != nil:
				parts = append(parts, strconv.Itoa(int(c.GetIval().Ival)))
			case c.GetFval() != nil:
				parts = append(parts, c.GetFval().Fval)
			case c.GetBoolval() != nil:
				parts = append(parts, strconv.FormatBool(c.GetBoolval().Boolval))
			}
		}
		return &Set{Name: name, Value: strings.Join(parts, ", "), Local: s.IsLocal}, nil
	case pg_query.VariableSetKind_VAR_SET_DEFAULT:
		return &Set{Name: name, Reset: true, Local: s.IsLocal, Tag: "SET"}, nil
	case pg_query.VariableSetKind_VAR_RESET:
		return &Set{Name: name, Reset: true, Local: s.IsLocal}, nil
	case pg_query.VariableSetKind_VAR_RESET_ALL:
		return &Set{Reset: true}, nil
	case pg_query.VariableSetKind_VAR_SET_MULTI:
		if s.Name == "TRANSACTION SNAPSHOT" {
			return &Set{Name: "transaction_snapshot", Local: true}, nil
		}
		// SET TRANSACTION / SET SESSION CHARACTERISTICS: accept READ COMMITTED only.
		readOnly := ""
		for _, a := range s.Args {
			if d := a.GetDefElem(); d != nil && d.Defname == "transaction_read_only" {
				readOnly = "off"
				if defElemValue(d) == "1" {
					readOnly = "on"
				}
			}
			if d := a.GetDefElem(); d != nil && d.Defname == "transaction_isolation" {
				v := strings.ToLower(defElemValue(d))
				if v != "read committed" && v != "read uncommitted" {
					return nil, pgerr.New(pgerr.FeatureNotSupported, "isolation level %s is not supported", strings.ToUpper(v))
				}
			}
		}
		if readOnly != "" {
			if s.Name == "TRANSACTION" {
				return &Set{Name: "transaction_read_only", Value: readOnly, Local: true}, nil
			}
			return &Set{Name: "default_transaction_read_only", Value: readOnly}, nil
		}
		return &Set{Name: "", Value: "", Reset: false, Local: true}, nil
	}
	return nil, pgerr.Unimplemented("SET FROM CURRENT")
}

// columnType resolves a column's type name; serial, bigserial and
// smallserial (and serial4/serial8/serial2) are integer columns whose
// sequence the executor creates (serial reports them).
func (b *binder) columnType(tn *pg_query.TypeName) (types.T, bool, error) {
	if tn != nil && len(tn.Names) == 1 && len(tn.ArrayBounds) == 0 && len(tn.Typmods) == 0 {
		switch tn.Names[0].GetString_().GetSval() {
		case "serial", "serial4":
			return types.TInt4, true, nil
		case "bigserial", "serial8":
			return types.TInt8, true, nil
		case "smallserial", "serial2":
			return types.TInt2, true, nil
		}
	}
	t, err := b.typeName(tn)
	return t, false, err
}

// copyOptions applies COPY's WITH options to out (from: COPY FROM).
func (b *binder) copyOptions(out *Copy, opts []*pg_query.Node, from bool) error {
	var delim, null, quote, escape *string
	for _, n := range opts {
		d := n.GetDefElem()
		v := defElemValue(d)
		switch d.Defname {
		case "format":
			switch v {
			case "text", "csv", "binary":
				out.Format = v
			default:
				return pgerr.New(pgerr.InvalidParameterValue, "COPY format \"%s\" not recognized", v)
			}
		case "delimiter":
			delim = &v
		case "null":
			null = &v
		case "header":
			switch strings.ToLower(v) {
			case "", "true", "on", "1", "yes":
				out.Header = true
			case "false", "off", "0", "no":
				out.Header = false
			case "match":
				if !from {
					return pgerr.New(pgerr.FeatureNotSupported, "cannot use \"match\" with HEADER in COPY TO")
				}
				out.Header = true
			default:
				return pgerr.New(pgerr.SyntaxError, "header requires a Boolean value or \"match\"")
			}
		case "quote":
			quote = &v
		case "escape":
			escape = &v
		case "encoding":
			if u := strings.ToUpper(strings.ReplaceAll(v, "-", "")); u != "UTF8" && u != "SQL_ASCII" {
				return pgerr.Unimplemented("COPY encoding " + v)
			}
		case "force_quote":
			if from {
				return pgerr.New(pgerr.FeatureNotSupported, "COPY FORCE_QUOTE cannot be used with COPY FROM")
			}
			if d.Arg != nil && d.Arg.GetAStar() != nil {
				out.ForceQuoteAll = true
				continue
			}
			for _, it := range d.Arg.GetList().GetItems() {
				out.ForceQuote = append(out.ForceQuote, it.GetString_().GetSval())
			}
		case "freeze":
			if !from {
				continue // PostgreSQL 15 accepts and ignores it
			}
			switch strings.ToLower(v) {
			case "", "true", "on", "1", "yes":
				out.Freeze = true
			case "false", "off", "0", "no":
			default:
				return pgerr.New(pgerr.SyntaxError, "freeze requires a Boolean value")
			}
		default:
			return pgerr.New(pgerr.SyntaxError, "option \"%s\" not recognized", d.Defname)
		}
	}
	if out.Format == "binary" && (delim != nil || null != nil || quote != nil || escape != nil) {
		return pgerr.New(pgerr.SyntaxError, "cannot specify DELIMITER in BINARY mode")
	}
	if out.Format == "csv" {
		out.Delimiter, out.Null = ',', ""
	}
	if delim != nil {
		if len(*delim) != 1 {
			return pgerr.New(pgerr.FeatureNotSupported, "COPY delimiter must be a single one-byte character")
		}
		out.Delimiter = (*delim)[0]
	}
	if null != nil {
		out.Null = *null
	}
	if quote != nil {
		if out.Format != "csv" {
			return pgerr.New(pgerr.FeatureNotSupported, "COPY quote available only in CSV mode")
		}
		if len(*quote) != 1 {
			return pgerr.New(pgerr.FeatureNotSupported, "COPY quote must be a single one-byte character")
		}
		out.Quote, out.Escape = (*quote)[0], (*quote)[0]
	}
	if escape != nil {
		if out.Format != "csv" {
			return pgerr.New(pgerr.FeatureNotSupported, "COPY escape available only in CSV mode")
		}
		if len(*escape) != 1 {
			return pgerr.New(pgerr.FeatureNotSupported, "COPY escape must be a single one-byte character")
		}
		out.Escape = (*escape)[0]
	}
	if out.Format == "text" && out.Header {
		// PostgreSQL 15 allows HEADER in text mode too.
	}
	if len(out.ForceQuote) > 0 || out.ForceQuoteAll {
		if out.Format != "csv" {
			return pgerr.New(pgerr.FeatureNotSupported, "COPY force quote available only in CSV mode")
		}
	}
	return nil
}

// Cluster is CLUSTER [VERBOSE] [table [USING index]]: Table nil for every
// table clustered before; Index "" for the table's clustered index.
type Cluster struct {
	Table *catalog.Table
	Index string
}

func (*Cluster) stmt() {}

func (b *binder) clusterStmt(s *pg_query.ClusterStmt) (*Cluster, error) {
	out := &Cluster{Index: s.Indexname}
	for _, p := range s.Params {
		if d := p.GetDefElem(); d.Defname != "verbose" {
			return nil, pgerr.New(pgerr.SyntaxError, "unrecognized CLUSTER option \"%s\"", d.Defname)
		}
	}
	if s.Relation == nil {
		return out, nil
	}
	t, err := b.table(s.Relation)
	if err != nil {
		if pe, ok := err.(*pgerr.Error); ok {
			pe.Position = 0 // looked up without a position, as VACUUM's tables
		}
		return nil, err
	}
	out.Table = t
	return out, nil
}
