package sql

import (
	"maps"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/catalog"
	"minipg/pgerr"
)

// CREATE TABLE ... (LIKE source [INCLUDING | EXCLUDING ...]): the source's
// columns (names, types, NOT NULL) at the clause's place, and with the
// options PostgreSQL's expandTableLikeClause copies: DEFAULTS, IDENTITY
// (a new sequence), CONSTRAINTS (CHECK constraints, under their names)
// and INDEXES (primary key, unique constraints and plain indexes, named
// anew for the new table). COMMENTS, STORAGE, COMPRESSION, STATISTICS and
// GENERATED have nothing to copy in minipg. The source may be a view
// (columns only).

// The bits of TableLikeClause.Options (PostgreSQL's TableLikeOption).
const (
	likeConstraints = 1 << 2
	likeDefaults    = 1 << 3
	likeIdentity    = 1 << 5
	likeIndexes     = 1 << 6
)

// likeIndex is a plain index LIKE ... INCLUDING INDEXES copies, by column
// names (their positions in the new table are known once all its columns
// are).
type likeIndex struct {
	cols    []string
	unique  bool
	options map[string]string
}

// likeResult is what a LIKE clause adds besides the columns it appends to
// def: serial-like identity columns (positions in def), key constraints,
// checks and plain indexes.
type likeResult struct {
	serials []int
	keys    []ConstraintCmd
	checks  []checkDef
	indexes []likeIndex
}

func (b *binder) tableLike(lc *pg_query.TableLikeClause, def *catalog.Table) (*likeResult, error) {
	out := &likeResult{}
	rv := lc.Relation
	if v, ok := b.view(rv); ok {
		for _, c := range v.Columns {
			def.Columns = append(def.Columns, catalog.Column{Name: c.Name, TypeOID: c.TypeOID, Typmod: c.Typmod})
		}
		return out, nil
	}
	src, err := b.table(rv)
	if err != nil {
		return nil, err
	}
	opts := lc.Options
	for _, c := range src.Columns {
		if c.Dropped {
			continue
		}
		col := catalog.Column{Name: c.Name, TypeOID: c.TypeOID, Typmod: c.Typmod, NotNull: c.NotNull}
		// An identity column's sequence default is its identity's, not a DEFAULT.
		if opts&likeDefaults != 0 && c.Default != "" && c.Identity == "" {
			col.Default = c.Default
		}
		if opts&likeIdentity != 0 && c.Identity != "" {
			col.Identity = c.Identity
			out.serials = append(out.serials, len(def.Columns))
		}
		def.Columns = append(def.Columns, col)
	}
	if opts&likeConstraints != 0 {
		for _, ck := range src.Checks {
			tree, err := pg_query.Parse("SELECT " + ck.Expr)
			if err != nil {
				return nil, pgerr.New(pgerr.InternalError, "check constraint \"%s\": %v", ck.Name, err)
			}
			raw := tree.Stmts[0].Stmt.GetSelectStmt().TargetList[0].GetResTarget().Val
			out.checks = append(out.checks, checkDef{name: ck.Name, raw: raw, notValid: ck.NotValid, noInherit: ck.NoInherit})
		}
	}
	if opts&likeIndexes != 0 {
		for _, idx := range src.Indexes {
			var cols []string
			for _, a := range idx.Columns {
				cols = append(cols, src.Columns[a-1].Name)
			}
			if idx.IsConstraint() {
				out.keys = append(out.keys, ConstraintCmd{Primary: idx.Primary, Columns: cols})
				continue
			}
			out.indexes = append(out.indexes, likeIndex{cols: cols, unique: idx.Unique, options: maps.Clone(idx.Options)})
		}
	}
	return out, nil
}
