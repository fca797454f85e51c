package executor

// Creations undone by ROLLBACK. minipg's catalog is not versioned by
// transaction, so its DDL takes effect at once. What a transaction
// creates (tables, indexes, sequences) is noted, and an abort drops it
// again, in reverse order, so that BEGIN; CREATE TABLE ...; ROLLBACK, a
// migration that fails half-way, or a multi-statement query whose later
// statement fails leaves nothing behind, as in PostgreSQL. Drops and
// ALTER TABLE are not undone, and other sessions can see a created table
// before its transaction ends (README, "Where minipg departs").

import (
	"context"

	"minipg/sql"
)

// createdObject is a relation the current transaction created.
type createdObject struct {
	kind byte   // 't' table, 'i' index, 's' sequence
	oid  uint32 // the table's (for an index, its table's) or the sequence's OID
	name string
}

// noteCreated records a relation the current transaction created.
func (s *Session) noteCreated(kind byte, oid uint32, name string) {
	s.created = append(s.created, createdObject{kind: kind, oid: oid, name: name})
}

// undoCreated drops what the aborted transaction created, newest first.
// Each object is dropped only if it is still the one created (a later
// statement may have dropped it or reused its name). The notices the
// drops raise are not sent: PostgreSQL's abort raises none.
func (s *Session) undoCreated() {
	created := s.created
	s.created = nil
	if len(created) == 0 {
		return
	}
	ctx := context.Background()
	notices := len(s.notices)
	for i := len(created) - 1; i >= 0; i-- {
		c := created[i]
		var err error
		switch c.kind {
		case 't':
			if t, ok := s.e.cat.Table(c.name); ok && t.OID == c.oid {
				_, err = s.dropTable(ctx, &sql.DropTable{Names: []string{c.name}, Cascade: true, IfExists: true})
			}
		case 'i':
			if t, _, ok := s.e.cat.IndexByName(c.name); ok && t.OID == c.oid {
				err = s.e.dropIndex(ctx, c.oid, c.name)
			}
		case 's':
			if q, ok := s.e.cat.Sequence(c.name); ok && q.OID == c.oid {
				_, err = s.dropSequence(ctx, &sql.DropSequence{Names: []string{c.name}, IfExists: true}, true)
			}
		}
		if err != nil {
			s.e.log.Warn("could not drop a relation its aborted transaction created", "relation", c.name, "err", err)
		}
	}
	s.notices = s.notices[:notices]
}
