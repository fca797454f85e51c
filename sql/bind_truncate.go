package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/catalog"
	"minipg/pgerr"
)

// Truncate is TRUNCATE [TABLE] t [, ...] [RESTART IDENTITY | CONTINUE
// IDENTITY] [CASCADE | RESTRICT].
type Truncate struct {
	Tables          []*catalog.Table
	RestartIdentity bool
	Cascade         bool
}

func (*Truncate) stmt() {}

func (b *binder) truncateStmt(s *pg_query.TruncateStmt) (*Truncate, error) {
	out := &Truncate{RestartIdentity: s.RestartSeqs, Cascade: s.Behavior == pg_query.DropBehavior_DROP_CASCADE}
	seen := map[uint32]bool{}
	for _, n := range s.Relations {
		rv := n.GetRangeVar()
		t, err := b.table(rv)
		if err != nil {
			if sc, ok := b.cat.(SequenceCatalog); ok && pgerr.CodeOf(err) == pgerr.UndefinedTable {
				if _, isSeq := sc.Sequence(rv.Relname); isSeq {
					return nil, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a table", rv.Relname)
				}
			}
			// TRUNCATE opens its relations outside the parser: no position.
			if pe, ok := err.(*pgerr.Error); ok && pgerr.CodeOf(err) == pgerr.UndefinedTable {
				pe.Position = 0
			}
			return nil, err
		}
		if t.OID < catalog.FirstNormalObjectID {
			return nil, pgerr.New(pgerr.InsufficientPrivilege, "permission denied: \"%s\" is a system catalog", t.Name)
		}
		if !seen[t.OID] {
			seen[t.OID] = true
			out.Tables = append(out.Tables, t)
		}
	}
	return out, nil
}
