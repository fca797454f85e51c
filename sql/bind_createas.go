package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/types"
)

// CreateTableAs is a bound CREATE TABLE ... AS query or SELECT ... INTO
// new_table: Create is the table to make (its columns named and typed
// after the query's output columns), Query the rows to fill it with
// unless SkipData (WITH NO DATA). The executor creates the table as
// CREATE TABLE does (so an abort drops it again) and inserts the rows
// through INSERT ... SELECT's path; the command tag is SELECT n, or
// CREATE TABLE AS when SkipData or when IF NOT EXISTS found the table.
type CreateTableAs struct {
	Create   *CreateTable
	Query    *Select
	SkipData bool
	// SelectInto: written as SELECT ... INTO (read-only errors name it).
	SelectInto bool
}

func (*CreateTableAs) stmt() {}

// createTableAs binds CREATE TABLE ... AS (PostgreSQL's
// ExecCreateTableAs and intorel_startup): the query is bound first, then
// the table takes its output columns, renamed by the column list when one
// is given.
func (b *binder) createTableAs(s *pg_query.CreateTableAsStmt) (*CreateTableAs, error) {
	if s.Objtype != pg_query.ObjectType_OBJECT_TABLE {
		return nil, pgerr.Unimplemented("CREATE MATERIALIZED VIEW")
	}
	q := s.Query.GetSelectStmt()
	if q == nil {
		return nil, pgerr.Unimplemented("CREATE TABLE AS EXECUTE")
	}
	return b.intoTable(s.Into, q, s.IfNotExists, s.IsSelectInto)
}

// selectInto binds SELECT ... INTO new_table as CREATE TABLE new_table AS
// SELECT ..., as PostgreSQL's transformOptionalSelectInto does. The INTO
// clause belongs to the leftmost SELECT of a set operation; on any other
// arm it is 42601.
func (b *binder) selectInto(s *pg_query.SelectStmt) (*CreateTableAs, error) {
	leaf := s
	for leaf.Op != pg_query.SetOperation_SETOP_NONE && leaf.Op != pg_query.SetOperation_SET_OPERATION_UNDEFINED {
		leaf = leaf.Larg
	}
	into := leaf.IntoClause
	leaf.IntoClause = nil
	return b.intoTable(into, s, false, true)
}

// leftmostInto is the INTO clause of the leftmost SELECT of s, or nil.
func leftmostInto(s *pg_query.SelectStmt) *pg_query.IntoClause {
	for s.Op != pg_query.SetOperation_SETOP_NONE && s.Op != pg_query.SetOperation_SET_OPERATION_UNDEFINED {
		s = s.Larg
	}
	return s.IntoClause
}

// intoTable binds the query q and the table it creates.
func (b *binder) intoTable(into *pg_query.IntoClause, q *pg_query.SelectStmt, ifNotExists, selectInto bool) (*CreateTableAs, error) {
	rel := into.Rel
	if rel.Relpersistence == "t" {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "temporary tables are not supported")
	}
	if into.OnCommit > pg_query.OnCommitAction_ONCOMMIT_NOOP {
		return nil, pgerr.New(pgerr.InvalidTableDefinition, "ON COMMIT can only be used on temporary tables")
	}
	if sc := rel.Schemaname; sc != "" && sc != "public" {
		return nil, b.errAt(rel.Location, pgerr.Code("3F000"), "schema \"%s\" does not exist", sc)
	}
	if into.AccessMethod != "" && into.AccessMethod != "heap" {
		return nil, pgerr.New(pgerr.UndefinedObject, "access method \"%s\" does not exist", into.AccessMethod)
	}
	query, err := b.selectStmt(q)
	if err != nil {
		return nil, err
	}
	name := truncateName(rel.Relname)
	def := &catalog.Table{Name: name}
	if len(into.ColNames) > query.NVisible {
		return nil, pgerr.New(pgerr.SyntaxError, "too many column names were specified")
	}
	for i, c := range query.Columns[:query.NVisible] {
		colName := c.Name
		if i < len(into.ColNames) {
			colName = into.ColNames[i].GetString_().GetSval()
		}
		colName = truncateName(colName)
		if IsSystemColumnName(colName) {
			return nil, pgerr.New(pgerr.DuplicateColumn, "column name \"%s\" conflicts with a system column name", colName)
		}
		t := c.T
		if t.OID == types.TID || t.OID == types.Unknown || t.OID == types.Void {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "columns of type %s are not supported", t.Name())
		}
		def.Columns = append(def.Columns, catalog.Column{Name: colName, TypeOID: uint32(t.OID), Typmod: t.Typmod})
	}
	seen := map[string]bool{}
	for _, c := range def.Columns {
		if seen[c.Name] {
			return nil, pgerr.New(pgerr.DuplicateColumn, "column \"%s\" specified more than once", c.Name)
		}
		seen[c.Name] = true
	}
	opts, err := b.relOptions(into.Options)
	if err != nil {
		return nil, err
	}
	def.Options = opts
	return &CreateTableAs{Create: &CreateTable{Def: def, IfNotExists: ifNotExists}, Query: query,
		SkipData: into.SkipData, SelectInto: selectInto}, nil
}

// truncateName cuts an identifier to NAMEDATALEN-1 bytes, as the parser
// does.
func truncateName(name string) string {
	if len(name) >= catalog.NameDataLen {
		return name[:catalog.NameDataLen-1]
	}
	return name
}

// IsSystemColumnName reports whether name is one of a table's system
// columns.
func IsSystemColumnName(name string) bool {
	switch name {
	case "ctid", "xmin", "xmax", "cmin", "cmax", "tableoid":
		return true
	}
	return false
}
