package executor

// Advisory locks: pg_advisory_lock and its family (PostgreSQL 15's section
// 9.27.10). A lock is named by one bigint or by two integers (two name
// spaces, as PostgreSQL's locktag field 4 tells them apart) and held shared
// or exclusively, by the session (until unlocked, or the session ends) or by
// the transaction (until it ends, or a rollback to a savepoint set before
// it). A session's own holds never conflict with each other, and each hold
// is counted: a lock taken twice is released by two unlocks. A wait ends
// when the lock is granted, the statement is cancelled, or lock_timeout
// passes (55P03). A wait that would close a cycle of sessions waiting for
// each other's advisory locks fails at once with 40P01 (a cycle through a
// row lock wait is not seen: that graph is txn's). pg_locks lists the
// holds and the waits (lockRows).

import (
	"context"
	"sync"
	"time"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/txn"
	"minipg/types"
)

// advisoryKey names an advisory lock.
type advisoryKey struct {
	a, b int64
	pair bool // named by two integers
}

// advisoryHold is one kind of hold on a lock.
type advisoryHold struct {
	key    advisoryKey
	shared bool
}

// mode is the lock mode of the hold as pg_locks names it.
func (h advisoryHold) mode() string {
	if h.shared {
		return "ShareLock"
	}
	return "ExclusiveLock"
}

// advisoryLock is a lock some session holds or waits for.
type advisoryLock struct {
	excl    *Session // the exclusive holder, nil if none
	exclN   int      // its holds
	shared  map[*Session]int
	changed chan struct{} // closed (and dropped) when a hold is released
	// waiting are the sessions waiting for the lock (pg_locks).
	waiting map[*Session]advisoryWait
}

// advisoryWait is a session's wait for a lock.
type advisoryWait struct {
	shared bool
	since  time.Time
}

// advisoryTable is the server's advisory locks.
type advisoryTable struct {
	mu    sync.Mutex
	locks map[advisoryKey]*advisoryLock
	// waitsOn is the lock each waiting session waits for.
	waitsOn map[*Session]advisoryHold
}

// blockers returns the sessions other than s whose holds on l keep s from
// taking it (shared or not).
func (l *advisoryLock) blockers(s *Session, shared bool) []*Session {
	var out []*Session
	if l.excl != nil && l.excl != s {
		out = append(out, l.excl)
	}
	if !shared {
		for o := range l.shared {
			if o != s {
				out = append(out, o)
			}
		}
	}
	return out
}

// closesCycle reports whether s waiting for h would close a cycle: a
// session that blocks s waits, directly or through others, for a lock s
// holds. Caller holds t.mu.
func (t *advisoryTable) closesCycle(s *Session, h advisoryHold) bool {
	seen := map[*Session]bool{}
	var reaches func(o *Session) bool
	reaches = func(o *Session) bool {
		if o == s {
			return true
		}
		if seen[o] {
			return false
		}
		seen[o] = true
		w, ok := t.waitsOn[o]
		if !ok {
			return false
		}
		l := t.locks[w.key]
		if l == nil {
			return false
		}
		for _, b := range l.blockers(o, w.shared) {
			if reaches(b) {
				return true
			}
		}
		return false
	}
	l := t.locks[h.key]
	for _, b := range l.blockers(s, h.shared) {
		if reaches(b) {
			return true
		}
	}
	return false
}

// grantable reports whether s may take l (shared or not) now: only s holds
// what would conflict.
func (l *advisoryLock) grantable(s *Session, shared bool) bool {
	if l.excl != nil && l.excl != s {
		return false
	}
	if shared {
		return true
	}
	for o := range l.shared {
		if o != s {
			return false
		}
	}
	return true
}

// acquire takes the lock for s, waiting unless try; ok false: try found it
// taken.
func (t *advisoryTable) acquire(ctx context.Context, s *Session, h advisoryHold, try bool) (bool, error) {
	for {
		t.mu.Lock()
		if t.locks == nil {
			t.locks = map[advisoryKey]*advisoryLock{}
		}
		l := t.locks[h.key]
		if l == nil {
			l = &advisoryLock{shared: map[*Session]int{}}
			t.locks[h.key] = l
		}
		if l.grantable(s, h.shared) {
			if h.shared {
				l.shared[s]++
			} else {
				l.excl = s
				l.exclN++
			}
			t.mu.Unlock()
			return true, nil
		}
		if try {
			t.mu.Unlock()
			return false, nil
		}
		if t.closesCycle(s, h) {
			t.mu.Unlock()
			return false, pgerr.New(pgerr.DeadlockDetected, "deadlock detected").
				WithDetail("Process %d waits for %s on advisory lock; the holders wait, directly or through others, for a lock process %d holds.",
					s.pid, h.mode(), s.pid).
				WithHint("See server log for query details.")
		}
		if t.waitsOn == nil {
			t.waitsOn = map[*Session]advisoryHold{}
		}
		t.waitsOn[s] = h
		if l.changed == nil {
			l.changed = make(chan struct{})
		}
		ch := l.changed
		if _, ok := l.waiting[s]; !ok {
			if l.waiting == nil {
				l.waiting = map[*Session]advisoryWait{}
			}
			l.waiting[s] = advisoryWait{shared: h.shared, since: time.Now()}
		}
		t.mu.Unlock()
		err := txn.WaitClosed(ctx, ch)
		t.mu.Lock()
		delete(t.waitsOn, s)
		if l := t.locks[h.key]; l != nil {
			delete(l.waiting, s)
			if l.excl == nil && len(l.shared) == 0 && len(l.waiting) == 0 {
				delete(t.locks, h.key)
			}
		}
		t.mu.Unlock()
		if err != nil {
			return false, mapCtxErr(ctx, err)
		}
	}
}

// release gives back one hold of s; false if s has none.
func (t *advisoryTable) release(s *Session, h advisoryHold) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	l := t.locks[h.key]
	if l == nil {
		return false
	}
	switch {
	case h.shared && l.shared[s] > 0:
		if l.shared[s]--; l.shared[s] == 0 {
			delete(l.shared, s)
		}
	case !h.shared && l.excl == s && l.exclN > 0:
		if l.exclN--; l.exclN == 0 {
			l.excl = nil
		}
	default:
		return false
	}
	if l.changed != nil {
		close(l.changed)
		l.changed = nil
	}
	if l.excl == nil && len(l.shared) == 0 && len(l.waiting) == 0 {
		delete(t.locks, h.key)
	}
	return true
}

// lockRows are pg_locks' rows of the advisory locks: a row per holder and
// mode, granted, and per waiter, not granted, with when it began to wait.
func (t *advisoryTable) lockRows() [][]types.Datum {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out [][]types.Datum
	for k, l := range t.locks {
		classid, objid, sub := uint32(uint64(k.a)>>32), uint32(k.a), int64(1)
		if k.pair {
			classid, objid, sub = uint32(k.a), uint32(k.b), 2
		}
		row := func(s *Session, shared, granted bool, since types.Datum) {
			mode := advisoryHold{shared: shared}.mode()
			out = append(out, []types.Datum{"advisory", int64(databaseOID), nil, nil, nil, nil, nil,
				int64(classid), int64(objid), sub, nil, int64(s.pid), mode, granted, false, since})
		}
		if l.excl != nil {
			row(l.excl, false, true, nil)
		}
		for s := range l.shared {
			row(s, true, true, nil)
		}
		for s, w := range l.waiting {
			row(s, w.shared, false, tsDatum(w.since))
		}
	}
	return out
}

// advisoryLocks is what a session holds: its session-level holds, counted,
// and its transaction's, in order of taking.
type advisoryLocks struct {
	session map[advisoryHold]int
	xact    []advisoryHold
}

// releaseXactAdvisory gives back the transaction's holds after the first
// mark (0: all of them, at the transaction's end).
func (s *Session) releaseXactAdvisory(mark int) {
	for _, h := range s.adv.xact[mark:] {
		s.e.advisory.release(s, h)
	}
	s.adv.xact = s.adv.xact[:mark]
}

// releaseAllAdvisory gives back the session-level holds (pg_advisory_unlock_all,
// and the session's end).
func (s *Session) releaseAllAdvisory() {
	for h, n := range s.adv.session {
		for range n {
			s.e.advisory.release(s, h)
		}
	}
	s.adv.session = nil
}

func init() {
	i4, i8, bo, vd := types.Int4, types.Int8, types.Bool, types.Void
	for _, args := range [][]types.OID{{i8}, {i4, i4}} {
		key := func(a []types.Datum) advisoryKey {
			if len(a) == 1 {
				return advisoryKey{a: a[0].(int64)}
			}
			return advisoryKey{a: a[0].(int64), b: a[1].(int64), pair: true}
		}
		for _, f := range []struct {
			name      string
			shared    bool
			xact, try bool
		}{
			{"pg_advisory_lock", false, false, false}, {"pg_advisory_lock_shared", true, false, false},
			{"pg_try_advisory_lock", false, false, true}, {"pg_try_advisory_lock_shared", true, false, true},
			{"pg_advisory_xact_lock", false, true, false}, {"pg_advisory_xact_lock_shared", true, true, false},
			{"pg_try_advisory_xact_lock", false, true, true}, {"pg_try_advisory_xact_lock_shared", true, true, true},
		} {
			result := vd
			if f.try {
				result = bo
			}
			sql.RegisterBuiltin(sql.Builtin{Name: f.name, Args: args, Result: result, Volatility: sql.Volatile, Strict: true,
				Fn: func(env any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
					c := env.(*evalCtx)
					s := c.s
					ctx := context.Background()
					if c.x != nil && c.x.ctx != nil {
						ctx = c.x.ctx
					}
					h := advisoryHold{key: key(a), shared: f.shared}
					ok, err := s.e.advisory.acquire(ctx, s, h, f.try)
					if err != nil || !ok {
						return false, err
					}
					if f.xact {
						s.adv.xact = append(s.adv.xact, h)
					} else {
						if s.adv.session == nil {
							s.adv.session = map[advisoryHold]int{}
						}
						s.adv.session[h]++
					}
					if f.try {
						return true, nil
					}
					return nil, nil
				}})
		}
		for _, f := range []struct {
			name   string
			shared bool
		}{{"pg_advisory_unlock", false}, {"pg_advisory_unlock_shared", true}} {
			sql.RegisterBuiltin(sql.Builtin{Name: f.name, Args: args, Result: bo, Volatility: sql.Volatile, Strict: true,
				Fn: func(env any, a []types.Datum, _ *sql.Func) (types.Datum, error) {
					s := session(env)
					h := advisoryHold{key: key(a), shared: f.shared}
					if s.adv.session[h] == 0 || !s.e.advisory.release(s, h) {
						s.notice(pgerr.SeverityWarning, pgerr.Warning, "you don't own a lock of type %s", h.mode())
						return false, nil
					}
					if s.adv.session[h]--; s.adv.session[h] == 0 {
						delete(s.adv.session, h)
					}
					return true, nil
				}})
		}
	}
	sql.RegisterBuiltin(sql.Builtin{Name: "pg_advisory_unlock_all", Result: types.Void, Volatility: sql.Volatile, Strict: true,
		Fn: func(env any, _ []types.Datum, _ *sql.Func) (types.Datum, error) {
			session(env).releaseAllAdvisory()
			return nil, nil
		}})
}
