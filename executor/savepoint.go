package executor

// SAVEPOINT, RELEASE SAVEPOINT and ROLLBACK TO SAVEPOINT.
//
// A savepoint is a subtransaction (txn.Txn.BeginSub): the rows written
// after it carry its own xid, so rolling back to it aborts that xid and the
// rows are dead, to this transaction too, while the rows written before it
// stay. A release hands the subtransaction's xid to the enclosing level; it
// commits or aborts with it. As in PostgreSQL, ROLLBACK TO leaves the
// savepoint in place (a new subtransaction starts under the same name),
// RELEASE and ROLLBACK TO act on the innermost savepoint of the name and
// on every savepoint after it, and ROLLBACK TO is the one statement besides
// ROLLBACK and COMMIT that a failed transaction block accepts: it ends the
// failure.
//
// Besides the rows, a rollback to a savepoint puts back what the session
// keeps for its transaction, as it was at the savepoint:
//
//   - relations created, dropped or ALTER SEQUENCEd since (ddl_undo.go) are
//     undone, newest first;
//   - settings changed since (SET, SET LOCAL) get their values back;
//   - cursors declared since are closed;
//   - transaction-level advisory locks taken since are released;
//   - the rolled-back row changes count in the statistics as an aborted
//     transaction's do (PostgreSQL's AtEOSubXact_PgStat);
//   - tables created or truncated since no longer allow COPY FREEZE, which
//     wants them new in the current subtransaction.
//
// Relation locks are held per statement in minipg, so there are none to
// release. A row lock taken in a subtransaction is released by its
// rollback. A row the enclosing transaction locked (SELECT ... FOR UPDATE)
// and a subtransaction then updated or deleted keeps a single xmax, the
// subtransaction's: rolling the subtransaction back leaves the row
// unlocked, where PostgreSQL keeps the lock in a MultiXact (README, "Where
// minipg departs").

import (
	"maps"

	"minipg/pgerr"
	"minipg/pgstat"
	"minipg/sql"
)

// savepoint is one open savepoint: what the session's transaction state
// was when it was set.
type savepoint struct {
	name string
	ddl  int // len(Session.ddl)
	adv  int // len(Session.adv.xact)
	// prior holds the value at the savepoint of each setting changed
	// since (noteSetting), absent ones as absent.
	prior            map[string]priorSetting
	gucUndo, gucKeep map[string]string
	cursors          map[string]bool // names of the cursors open
	xstat            pgstat.Xact     // a copy of the row-change counts
	newRels          map[uint32]bool // Session.newRels (COPY FREEZE)
}

// priorSetting is a setting's value before a change: ok is false if the
// setting had none.
type priorSetting struct {
	v  string
	ok bool
}

// noteSetting records, for the innermost savepoint, the value setting name
// has before a change. assignSetting calls it.
func (s *Session) noteSetting(name string) {
	n := len(s.savepoints)
	if n == 0 {
		return
	}
	sp := &s.savepoints[n-1]
	if _, ok := sp.prior[name]; ok {
		return
	}
	if sp.prior == nil {
		sp.prior = map[string]priorSetting{}
	}
	v, ok := s.settings[name]
	sp.prior[name] = priorSetting{v, ok}
}

// savepointControl runs SAVEPOINT, RELEASE and ROLLBACK TO.
func (s *Session) savepointControl(st *sql.Txn) (string, error) {
	if !s.explicit {
		what := map[sql.TxnKind]string{sql.TxnSavepoint: "SAVEPOINT", sql.TxnRelease: "RELEASE SAVEPOINT",
			sql.TxnRollbackTo: "ROLLBACK TO SAVEPOINT"}[st.Kind]
		return "", pgerr.New(pgerr.NoActiveSQLTransaction, "%s can only be used in transaction blocks", what)
	}
	if st.Kind == sql.TxnSavepoint {
		s.setSavepoint(st.Savepoint)
		return st.Tag, nil
	}
	i := len(s.savepoints) - 1
	for i >= 0 && s.savepoints[i].name != st.Savepoint {
		i--
	}
	if i < 0 {
		return "", pgerr.New(pgerr.InvalidSavepointSpecification, "savepoint \"%s\" does not exist", st.Savepoint)
	}
	if st.Kind == sql.TxnRelease {
		for len(s.savepoints) > i {
			s.releaseSavepoint()
		}
		return st.Tag, nil
	}
	for len(s.savepoints) > i {
		if err := s.rollbackSavepoint(); err != nil {
			return "", err
		}
	}
	s.failed = false
	s.setSavepoint(st.Savepoint)
	return st.Tag, nil
}

// setSavepoint starts a subtransaction and notes the session's state.
func (s *Session) setSavepoint(name string) {
	sp := savepoint{name: name, ddl: len(s.ddl), adv: len(s.adv.xact),
		gucUndo: maps.Clone(s.gucUndo), gucKeep: maps.Clone(s.gucKeep),
		xstat: s.xstat.Clone(), newRels: s.newRels}
	for name := range s.cursors {
		if sp.cursors == nil {
			sp.cursors = map[string]bool{}
		}
		sp.cursors[name] = true
	}
	s.newRels = nil
	s.tx.BeginSub()
	s.savepoints = append(s.savepoints, sp)
}

// releaseSavepoint ends the innermost savepoint's subtransaction as
// committed into the enclosing level, which keeps what it did.
func (s *Session) releaseSavepoint() {
	n := len(s.savepoints) - 1
	sp := s.savepoints[n]
	s.savepoints = s.savepoints[:n]
	s.tx.ReleaseSub()
	if n > 0 {
		// The enclosing savepoint restores what this one would have.
		parent := &s.savepoints[n-1]
		for name, p := range sp.prior {
			if _, ok := parent.prior[name]; !ok {
				if parent.prior == nil {
					parent.prior = map[string]priorSetting{}
				}
				parent.prior[name] = p
			}
		}
	}
	if len(s.newRels) > 0 {
		if sp.newRels == nil {
			sp.newRels = map[uint32]bool{}
		}
		maps.Copy(sp.newRels, s.newRels)
	}
	s.newRels = sp.newRels
}

// rollbackSavepoint aborts the innermost savepoint's subtransaction and
// puts the session's transaction state back as it was at the savepoint.
func (s *Session) rollbackSavepoint() error {
	n := len(s.savepoints) - 1
	sp := s.savepoints[n]
	s.savepoints = s.savepoints[:n]
	// The cursors first: one may hold a lock on a table the undo drops.
	for name := range s.cursors {
		if !sp.cursors[name] {
			s.cursors[name].Close()
			delete(s.cursors, name)
		}
	}
	err := s.tx.RollbackSub()
	s.undoDDLAfter(sp.ddl)
	s.releaseXactAdvisory(sp.adv)
	for name, p := range sp.prior {
		if !p.ok {
			// A placeholder the subtransaction created stays, empty,
			// as in PostgreSQL.
			s.setValue(name, "")
		} else if s.settings[name] != p.v {
			s.setValue(name, p.v)
			s.e.walSettingChanged(name, p.v)
		}
	}
	s.gucUndo, s.gucKeep = sp.gucUndo, sp.gucKeep
	if rolledBack := s.xstat.Since(sp.xstat); len(rolledBack) > 0 {
		s.e.stats.EndXact(rolledBack, false)
	}
	s.xstat = sp.xstat
	s.newRels = sp.newRels
	return err
}
