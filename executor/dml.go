package executor

import (
	"errors"
	"fmt"
	"strings"

	"minipg/index"
	"minipg/pgerr"
	"minipg/sql"
	"minipg/storage/heap"
	"minipg/storage/page"
	"minipg/types"
)

// checkNotNull raises 23502 for a NULL in a NOT NULL column.
func (r *relation) checkNotNull(row []types.Datum) error {
	for i, c := range r.def.Columns {
		if c.NotNull && row[i] == nil {
			return pgerr.New(pgerr.NotNullViolation, "null value in column \"%s\" of relation \"%s\" violates not-null constraint", c.Name, r.def.Name).
				WithDetail("Failing row contains (%s).", r.formatRow(row)).
				WithTable(publicSchema, r.def.Name).WithColumn(c.Name)
		}
	}
	return nil
}

// formatRow is a row as "Failing row contains (...)" shows it: the
// values of the columns not dropped.
func (r *relation) formatRow(row []types.Datum) string {
	parts := make([]string, 0, len(r.types))
	for i, t := range r.types {
		switch {
		case r.isDropped(i):
		case row[i] == nil:
			parts = append(parts, "null")
		default:
			parts = append(parts, types.FormatText(t, row[i]))
		}
	}
	return strings.Join(parts, ", ")
}

func (ri *relIndex) keyEqual(key index.Key, row []types.Datum) bool {
	for i, c := range ri.cols {
		if row[c] == nil || key[i] == nil {
			if row[c] != key[i] {
				return false
			}
			continue
		}
		if types.Compare(ri.types[i], key[i], row[c]) != 0 {
			return false
		}
	}
	return true
}

func (r *relation) uniqueViolation(ri *relIndex, key index.Key) error {
	names, vals := r.keyText(ri, key)
	return pgerr.New(pgerr.UniqueViolation, "duplicate key value violates unique constraint \"%s\"", ri.def.Name).
		WithDetail("Key (%s)=(%s) already exists.", names, vals).
		WithTable(publicSchema, r.def.Name).WithConstraint(ri.def.Name)
}

// keyText gives an index key's column names and values as the details of
// unique violations print them.
func (r *relation) keyText(ri *relIndex, key index.Key) (names, vals string) {
	var ns, vs []string
	for i, c := range ri.cols {
		ns = append(ns, r.def.Columns[c].Name)
		vs = append(vs, types.FormatText(ri.types[i], key[i]))
	}
	return strings.Join(ns, ", "), strings.Join(vs, ", ")
}

// publicSchema is the schema of every table (minipg has no other).
const publicSchema = "public"

// setIndexAttrs tells the heap which columns r's indexes cover, for its HOT
// decision (an update that changes none of them and stays on its page makes
// no index entries) and HEAP_KEYS_UPDATED (columns of unique indexes). Call
// it whenever r.indexes changes, under the exclusive relation lock.
func setIndexAttrs(r *relation) {
	var a heap.IndexAttrs
	for _, ri := range r.indexes {
		a.Indexed = append(a.Indexed, ri.cols...)
		if ri.def.Unique || ri.def.Primary {
			a.Key = append(a.Key, ri.cols...)
		}
	}
	r.heap.SetIndexAttrs(a)
}

// insertIndexEntries adds row's entries (at tid) to every index of x.rel,
// checking unique indexes: a live row with the same key (heap.SatisfiesDirty)
// raises 23505; a row whose inserter or deleter is still running is waited
// for, then rechecked.
//
// old is the previous version of the row for an UPDATE (nil for INSERT): a
// unique key it already had needs no check, since the old version held it.
func (x *execCtx) insertIndexEntries(row []types.Datum, tid page.TID, old []types.Datum) error {
	_, err := x.addIndexEntries(row, tid, old, nil)
	return err
}

// addIndexEntries is insertIndexEntries for the speculative insertion of
// INSERT ... ON CONFLICT when arb is not nil: in an arbiter index, another
// row with the key, live or whose inserter or deleter is still running,
// ends the insertion of entries at once with conflict true, without the
// entry and without waiting (PostgreSQL's UNIQUE_CHECK_PARTIAL for arbiter
// indexes; the caller takes the row back and looks for the conflict
// again). The entries made by then stay, for a row about to be dead.
func (x *execCtx) addIndexEntries(row []types.Datum, tid page.TID, old []types.Datum, arb *arbiters) (conflict bool, err error) {
	r := x.rel
	for _, ri := range r.indexes {
		key, hasNull := ri.key(row)
		if !ri.def.Unique || hasNull || (old != nil && ri.keyEqual(key, old)) {
			if err := ri.ix.Insert(key, tid); err != nil {
				return false, err
			}
			continue
		}
		for {
			var dead []page.TID
			inserted, err := ri.ix.InsertUnique(key, tid, func(others []page.TID) (bool, error) {
				return x.uniqueCheck(ri, key, others, &dead)
			})
			for _, d := range dead {
				// Pruned to a dead line pointer: the entry is useless
				// (VACUUM would drop it before the TID is reused).
				if derr := ri.ix.Delete(key, d); derr != nil && err == nil {
					err = derr
				}
			}
			if w, ok := waitXidOf(err); ok {
				if arb.has(ri) {
					return true, nil
				}
				if err := x.waitForXid(w, tid, ri.def.Name); err != nil {
					return false, err
				}
				continue
			}
			if err != nil {
				return false, err
			}
			if !inserted {
				if arb.has(ri) {
					return true, nil
				}
				return false, r.uniqueViolation(ri, key)
			}
			break
		}
	}
	return false, nil
}

// waitForXid waits as a uniqueness check said: for the decision on a
// speculative insertion when w has its token, else for the transaction,
// with the CONTEXT of an insert of tid's entry into index (waitFor).
func (x *execCtx) waitForXid(w errWaitXid, tid page.TID, index string) error {
	if w.token != 0 {
		return mapCtxErr(x.ctx, x.tx.WaitForSpeculative(x.ctx, w.xid, w.token))
	}
	return x.waitFor(w.xid, "while inserting index tuple (%d,%d) in relation \"%s\"", tid, index)
}

// waitFor waits for transaction xid to end (Txn.WaitFor), as PostgreSQL's
// XactLockTableWait does for a row: an error raised while waiting (lock
// timeout, deadlock, cancel) gets the CONTEXT line context, a format of the
// tuple's block and offset and the relation's name.
func (x *execCtx) waitFor(xid uint32, context string, tid page.TID, rel string) error {
	err := mapCtxErr(x.ctx, x.tx.WaitFor(x.ctx, xid))
	var pe *pgerr.Error
	if errors.As(err, &pe) && pe.Where == "" {
		pe.Where = fmt.Sprintf(context, tid.Block, tid.Offset, rel)
	}
	return err
}

// modifyOper is modify's oper for an UPDATE (update) or a DELETE.
func modifyOper(update bool) string {
	if update {
		return "updating"
	}
	return "deleting"
}

// uniqueCheck decides whether key may go into the unique index ri, given
// the TIDs of the other entries with the key (PostgreSQL's
// _bt_check_unique): false if one is a live row with the key, errWaitXid
// if one's inserter or deleter is still running, true otherwise. TIDs whose
// HOT chain is all dead go to *dead, for the caller to delete once the
// index is no longer locked.
func (x *execCtx) uniqueCheck(ri *relIndex, key index.Key, others []page.TID, dead *[]page.TID) (bool, error) {
	for _, other := range others {
		_, _, w, found, err := x.liveWithKey(ri, key, other, dead)
		switch {
		case err != nil:
			return false, err
		case !found:
			continue
		case w.xid != 0:
			return false, w
		}
		return false, nil
	}
	return true, nil
}

// liveWithKey looks at the HOT chain an entry of the unique index ri with
// key points at (the root tid) for a member live to a uniqueness check
// (heap.SatisfiesDirty) that still has the key: found is true with its TID
// and its inserter (t_xmin), and w says whom to wait for when its fate
// depends on a running transaction (w.xid 0: none). A chain that is all
// dead is appended to *dead.
func (x *execCtx) liveWithKey(ri *relIndex, key index.Key, root page.TID, dead *[]page.TID) (tid page.TID, xmin uint32, w errWaitXid, found bool, err error) {
	r := x.rel
	tid, tup, ok, allDead, err := r.heap.FetchHotMatch(root, func(t []byte) bool {
		live, _ := heap.SatisfiesDirty(t, x.s.ownXids(), x.s.e.txns)
		return live
	})
	if err != nil || !ok {
		if allDead && dead != nil {
			*dead = append(*dead, root)
		}
		return page.TID{}, 0, w, false, err
	}
	live, wait := heap.SatisfiesDirty(tup, x.s.ownXids(), x.s.e.txns)
	if !live {
		return page.TID{}, 0, w, false, nil
	}
	orow, err := newDecoder(r).decode(tup, tid)
	if err != nil {
		return page.TID{}, 0, w, false, err
	}
	if !ri.keyEqual(key, orow) {
		return page.TID{}, 0, w, false, nil // stale entry
	}
	xmin = heap.Xmin(tup)
	if wait != 0 {
		w.xid = wait
		if wait == xmin {
			// An inserter that has not decided on its speculative
			// insertion yet is waited for until it has.
			w.token, _ = heap.SpeculativeToken(tup)
		}
	}
	return tid, xmin, w, true, nil
}

// insertRow stores one new row (values for the table's columns).
func (x *execCtx) insertRow(row []types.Datum) (page.TID, error) {
	tid, _, err := x.insertRowArb(row, nil)
	return tid, err
}

// insertRowArb is insertRow, and with arb the speculative insertion of
// INSERT ... ON CONFLICT (ExecInsert's): the row goes into the heap
// speculatively under the transaction's speculative insertion lock, then
// into the indexes (addIndexEntries); a conflict in an arbiter index takes
// it back (super-delete) and returns conflict true, otherwise it is made
// final. The lock is released once the row is decided, before the
// foreign-key checks, as PostgreSQL releases it. An error on the way takes
// the row back too, so that no one waiting for the decision waits again; if
// even that fails, the lock stays until the transaction ends.
func (x *execCtx) insertRowArb(row []types.Datum, arb *arbiters) (tid page.TID, conflict bool, err error) {
	r := x.rel
	if err := r.checkNotNull(row); err != nil {
		return page.TID{}, false, err
	}
	if err := x.checkConstraints(r, row); err != nil {
		return page.TID{}, false, err
	}
	tup, err := r.encode(row)
	if err != nil {
		return page.TID{}, false, err
	}
	x.s.ist.RowShares(x.s.lastIns.shares(x, row))
	if arb == nil {
		tid, err = r.heap.Insert(tup, x.xid, x.cid, x.s.ist)
	} else {
		var token uint32
		if token, err = x.tx.BeginSpeculative(); err != nil {
			return page.TID{}, false, err
		}
		if tid, err = r.heap.InsertSpeculative(tup, x.xid, x.cid, token, x.s.ist); err != nil {
			x.tx.EndSpeculative()
		}
	}
	if err != nil {
		x.s.lastIns.forget()
		return page.TID{}, false, err
	}
	x.s.lastIns.remember(x, row)
	x.countInsert(1)
	row[len(r.types)] = tid
	conflict, err = x.addIndexEntries(row, tid, nil, arb)
	if arb != nil {
		if conflict || err != nil {
			if aerr := r.heap.AbortSpeculative(tid, x.xid, x.s.e.txns, x.snap.Usage); aerr != nil {
				return page.TID{}, false, aerr
			}
			x.countDelete()
		} else if err = r.heap.FinishSpeculative(tid, x.snap.Usage); err != nil {
			return page.TID{}, false, err
		}
		x.tx.EndSpeculative()
		if conflict || err != nil {
			return page.TID{}, conflict, err
		}
	}
	if err != nil {
		return page.TID{}, false, err
	}
	if err := x.checkViewOptions(row); err != nil {
		return page.TID{}, false, err
	}
	if len(r.def.ForeignKeys) > 0 {
		if err := x.checkReferencing(r, row, nil); err != nil {
			return page.TID{}, false, err
		}
	}
	return tid, false, nil
}

// lastInserted is the leading columns of the row a session inserted
// last, with its table and transaction: the heap's insert path tells by
// them which rows form groups (heap.InsertState.RowShares), as an order's
// lines share warehouse, district and order.
type lastInserted struct {
	oid, xid uint32 // oid 0: none
	lead     []types.Datum
}

// maxSharedColumns is how many leading columns lastInserted compares.
const maxSharedColumns = 8

// shares is how many leading columns row, about to be inserted into x's
// table, shares with the last row: -1 when that row was inserted into
// another table or by another transaction.
func (l *lastInserted) shares(x *execCtx, row []types.Datum) int {
	r := x.rel
	if l.oid != r.def.OID || l.xid != x.xid {
		return -1
	}
	n := 0
	for n < len(l.lead) && row[n] != nil && l.lead[n] != nil && types.Compare(r.types[n], l.lead[n], row[n]) == 0 {
		n++
	}
	return n
}

// remember makes row, just inserted into x's table, the last row. Its
// values are kept as they are: a value a later statement changed in place
// would only make a group start or end where it does not.
func (l *lastInserted) remember(x *execCtx, row []types.Datum) {
	l.oid, l.xid = x.rel.def.OID, x.xid
	l.lead = append(l.lead[:0], row[:min(len(x.rel.types), maxSharedColumns)]...)
}

// forget drops the last row (at the end of a transaction, so that its
// values are not kept).
func (l *lastInserted) forget() {
	clear(l.lead)
	l.oid, l.lead = 0, l.lead[:0]
}

func (x *execCtx) returning(exprs []sql.Expr, row []types.Datum) error {
	if x.emitReturning == nil {
		return nil
	}
	out := make([]types.Datum, len(exprs))
	for i, e := range exprs {
		v, err := x.ev.eval(e, row)
		if err != nil {
			return err
		}
		out[i] = v
	}
	x.emitReturning(out)
	return nil
}

func (x *execCtx) insert(st *sql.Insert) (int64, error) {
	x.viewChecks = st.ViewChecks
	var up *upserter
	if st.OnConflict != nil {
		up = x.newUpserter(st.OnConflict)
		if c := x.s.explainUpsert; c != nil {
			x.s.explainUpsert = nil
			defer func() { *c = up.counts }()
		}
	}
	r := x.rel
	ncols := len(r.types)
	given := make([]bool, ncols)
	for _, c := range st.Cols {
		given[c] = true
	}
	build := func(vals []types.Datum, dflt []bool) ([]types.Datum, error) {
		row := make([]types.Datum, ncols+1)
		need := make([]bool, ncols)
		for c := range need {
			need[c] = !given[c]
		}
		for i, c := range st.Cols {
			if dflt != nil && dflt[i] {
				need[c] = true
				continue
			}
			row[c] = vals[i]
		}
		for c := 0; c < ncols; c++ {
			if !need[c] || st.Defaults[c] == nil {
				continue
			}
			v, err := x.ev.eval(st.Defaults[c], nil)
			if err != nil {
				return nil, err
			}
			row[c] = v
		}
		return row, nil
	}
	var n int64
	emit := func(row []types.Datum) error {
		out := row
		if up != nil {
			// INSERT ... ON CONFLICT: the row inserted or updated, or
			// none (skipped, which the command tag does not count).
			var err error
			if out, err = up.row(row); err != nil || out == nil {
				return err
			}
		} else if _, err := x.insertRow(row); err != nil {
			return err
		}
		n++
		if n%checkEvery == 0 {
			if err := canceled(x.ctx); err != nil {
				return err
			}
		}
		return x.returning(st.Returning, out)
	}
	if st.Source != nil {
		var src rowIter
		var err error
		sx := *x
		sx.emitReturning = nil
		if st.Source.Table != nil {
			if sx.rel, err = x.openRel(st.Source.Table.OID); err != nil {
				return 0, err
			}
		} else {
			sx.rel = nil
		}
		if src, err = sx.buildSelect(st.Source); err != nil {
			return 0, err
		}
		src = x.explainedSource(src)
		defer src.Close()
		for {
			vals, ok, err := src.Next(x.ctx)
			if err != nil {
				return n, err
			}
			if !ok {
				return n, nil
			}
			row, err := build(vals, nil)
			if err != nil {
				return n, err
			}
			if err := emit(row); err != nil {
				return n, err
			}
		}
	}
	for _, exprs := range st.Values {
		vals := make([]types.Datum, len(exprs))
		dflt := make([]bool, len(exprs))
		for i, e := range exprs {
			if e == nil {
				dflt[i] = true
				continue
			}
			v, err := x.ev.eval(e, nil)
			if err != nil {
				return n, err
			}
			vals[i] = v
		}
		row, err := build(vals, dflt)
		if err != nil {
			return n, err
		}
		if err := emit(row); err != nil {
			return n, err
		}
	}
	return n, nil
}

// modify applies fn (Update or Delete of the version at tid) with
// PostgreSQL's READ COMMITTED rules: wait for a running modifier, follow a
// committed update to the newest version and recheck it there
// (EvalPlanQual: recheck says whether that version still qualifies). It
// returns the row it was applied to, or ok=false if the row is gone or no
// longer qualifies. oper names the change in the CONTEXT of an error raised
// while waiting ("updating", "deleting" or "locking").
func (x *execCtx) modify(oper string, row []types.Datum, recheck func(next []types.Datum) (bool, error), fn func(row []types.Datum, tid page.TID) (heap.Result, heap.FailureData, error)) ([]types.Datum, bool, error) {
	r := x.rel
	ncols := len(r.types)
	for {
		tid := row[ncols].(page.TID)
		res, fd, err := fn(row, tid)
		if err != nil {
			return nil, false, err
		}
		switch res {
		case heap.TMOk:
			return row, true, nil
		case heap.TMSelfModified, heap.TMDeleted, heap.TMInvisible:
			return nil, false, nil
		case heap.TMBeingModified:
			if err := x.waitFor(fd.Xmax, "while "+oper+" tuple (%d,%d) in relation \"%s\"", tid, r.def.Name); err != nil {
				return nil, false, err
			}
			continue
		case heap.TMUpdated:
			next, ok, err := x.fetchNewer(fd.Ctid, fd.Xmax)
			if err != nil || !ok {
				return nil, false, err
			}
			pass, err := recheck(next)
			if err != nil {
				return nil, false, err
			}
			if !pass {
				return nil, false, nil
			}
			row = next
		default:
			return nil, false, pgerr.New(pgerr.InternalError, "unexpected heap result %v", res)
		}
	}
}

// fetchNewer reads the version at tid that transaction updater created,
// waiting while its inserter runs.
func (x *execCtx) fetchNewer(tid page.TID, updater uint32) ([]types.Datum, bool, error) {
	for {
		if err := canceled(x.ctx); err != nil {
			return nil, false, err
		}
		tup, ok, err := x.rel.heap.FetchAny(tid)
		if err != nil || !ok {
			return nil, false, err
		}
		xmin := heap.Xmin(tup)
		if updater != 0 && xmin != updater {
			return nil, false, nil // the slot was reused: the row is gone
		}
		if !x.s.ownXids().Has(xmin) {
			switch x.s.e.txns.Status(xmin) {
			case heap.XidAborted:
				return nil, false, nil
			case heap.XidInProgress:
				if err := x.waitFor(xmin, "while rechecking updated tuple (%d,%d) in relation \"%s\"", tid, x.rel.def.Name); err != nil {
					return nil, false, err
				}
				continue
			}
		}
		row, err := newDecoder(x.rel).decode(tup, tid)
		return row, err == nil, err
	}
}

// whereCheck is modify's recheck of a newer version of a row of x.rel:
// where evaluated over it.
func (x *execCtx) whereCheck(where sql.Expr) func(next []types.Datum) (bool, error) {
	return func(next []types.Datum) (bool, error) { return x.ev.evalBool(where, next) }
}

// lockRow takes a FOR UPDATE lock on row, returning the (possibly newer)
// version locked.
func (x *execCtx) lockRow(row []types.Datum, where sql.Expr) ([]types.Datum, bool, error) {
	return x.modify("locking", row, x.whereCheck(where), func(_ []types.Datum, tid page.TID) (heap.Result, heap.FailureData, error) {
		return x.rel.heap.Lock(x.snap, tid, x.xid, x.cid)
	})
}

// modifyRows is the row loop of UPDATE and DELETE: for every row of x.rel
// that satisfies where it runs apply through modify (READ COMMITTED wait,
// update-chain follow and recheck), then finish on the row it was applied
// to, which returns the row RETURNING sees (the new version for UPDATE). It
// returns the number of rows changed.
func (x *execCtx) modifyRows(where sql.Expr, returning []sql.Expr,
	apply func(old []types.Datum, tid page.TID) (heap.Result, heap.FailureData, error),
	finish func(row []types.Datum) ([]types.Datum, error), update bool) (int64, error) {
	src, err := x.stmtSource(where)
	if err != nil {
		return 0, err
	}
	defer src.Close()
	if update {
		// The rows one UPDATE changes belong together: the heap may ask
		// where they are, when a new version must leave its page, so that
		// it can join siblings the statement has not reached yet. Only for
		// a statement of a few rows, whose index entries are cheap to read
		// twice and which are related in a useful sense.
		var ahead func() []uint32
		if bp, ok := src.(blockPeeker); ok {
			ahead = func() []uint32 {
				blocks, _ := bp.peekBlocks(maxPeekEntries)
				return blocks
			}
		}
		x.s.ist.SetStatementBlocks(x.rel.heap, x.xid, ahead)
		defer x.s.ist.SetStatementBlocks(x.rel.heap, x.xid, nil)
		if uniqueLookup(src) {
			// One row, found by a unique key: no siblings to join.
			x.s.ist.SetStatementSingleRow(x.rel.heap, x.xid, true)
			defer x.s.ist.SetStatementSingleRow(x.rel.heap, x.xid, false)
		}
	}
	src = x.explainedSource(src)

	recheck := x.whereCheck(where)
	var n int64
	for {
		row, ok, err := src.Next(x.ctx)
		if err != nil {
			return n, err
		}
		if !ok {
			return n, nil
		}
		row, ok, err = x.modify(modifyOper(update), row, recheck, apply)
		if err != nil {
			return n, err
		}
		if !ok {
			continue
		}
		if row, err = finish(row); err != nil {
			return n, err
		}
		n++
		if err := x.returning(returning, row); err != nil {
			return n, err
		}
	}
}

func (x *execCtx) update(st *sql.Update) (int64, error) {
	x.viewChecks = st.ViewChecks
	r := x.rel
	ncols := len(r.types)
	u := x.newRowUpdate(st.Set, st.Multi)
	// over is the row SET reads, given the old version: the version itself,
	// or the joined row of UPDATE ... FROM with it in the target's slots.
	over := func(old []types.Datum) []types.Datum { return old }
	var jr *joinedRow
	if st.From != nil {
		jr = &joinedRow{base: st.From.TargetBase(), n: ncols + 1}
		over = jr.with
	}
	apply := func(old []types.Datum, tid page.TID) (heap.Result, heap.FailureData, error) {
		return u.apply(old, tid, over(old))
	}
	if jr != nil {
		return x.modifyJoined("updating", st.From, jr, st.Where, st.Returning, apply, u.finish)
	}
	return x.modifyRows(st.Where, st.Returning, apply, u.finish, true)
}

// rowUpdate is the change of one row by UPDATE (ExecUpdate), which INSERT
// ... ON CONFLICT DO UPDATE makes too: apply builds the new version from
// the SET items over the row they read, checks it (NOT NULL, CHECK) and
// updates the heap; finish, once that succeeded, adds the new version's
// index entries (none after a HOT update) and checks the foreign keys on
// both sides.
type rowUpdate struct {
	x      *execCtx
	set    []sql.SetItem
	multi  []*sql.SubPlan
	refs   []fkRef
	newRow []types.Datum // the new version apply made last
	hot    bool          // apply's update was heap-only
}

func (x *execCtx) newRowUpdate(set []sql.SetItem, multi []*sql.SubPlan) *rowUpdate {
	return &rowUpdate{x: x, set: set, multi: multi, refs: x.s.e.referencing(x.rel.def.OID)}
}

// apply replaces old, the version at tid, by the version SET makes over in
// (the row the SET items read: old itself for a plain UPDATE); a Result
// other than TMOk changed nothing (see modify).
func (u *rowUpdate) apply(old []types.Datum, tid page.TID, in []types.Datum) (heap.Result, heap.FailureData, error) {
	x := u.x
	r := x.rel
	ncols := len(r.types)
	u.newRow, u.hot = make([]types.Datum, ncols+1), false
	copy(u.newRow, old[:ncols+1])
	// SET (a, b) = (SELECT ...): each subquery runs once for the row.
	multi := make([][]types.Datum, len(u.multi))
	for i, sp := range u.multi {
		vals, err := x.ev.rowSubPlan(sp, in)
		if err != nil {
			return 0, heap.FailureData{}, err
		}
		multi[i] = vals
	}
	for _, it := range u.set {
		src := in
		if it.Multi > 0 {
			src = multi[it.Multi-1]
		}
		v, err := x.ev.eval(it.E, src)
		if err != nil {
			return 0, heap.FailureData{}, err
		}
		u.newRow[it.Col] = v
	}
	if err := r.checkNotNull(u.newRow); err != nil {
		return 0, heap.FailureData{}, err
	}
	if err := x.checkConstraints(r, u.newRow); err != nil {
		return 0, heap.FailureData{}, err
	}
	tup, err := r.encode(u.newRow)
	if err != nil {
		return 0, heap.FailureData{}, err
	}
	ntid, res, fd, err := r.heap.Update(x.snap, tid, tup, x.xid, x.cid, x.s.ist)
	if err == nil && res == heap.TMOk {
		u.newRow[ncols] = ntid
		u.hot = heap.IsHeapOnly(tup)
	}
	return res, fd, err
}

// finish completes the update apply made of old and returns the new
// version, the row RETURNING reads.
func (u *rowUpdate) finish(old []types.Datum) ([]types.Datum, error) {
	x := u.x
	r := x.rel
	newRow := u.newRow
	// A HOT update changed no indexed column and its new version is
	// reached through the chain root the index entries point at.
	x.countUpdate(u.hot)
	if !u.hot {
		if err := x.insertIndexEntries(newRow, newRow[len(r.types)].(page.TID), old); err != nil {
			return nil, err
		}
	}
	if err := x.checkViewOptions(newRow); err != nil {
		return nil, err
	}
	if len(r.def.ForeignKeys) > 0 {
		if err := x.checkReferencing(r, newRow, old); err != nil {
			return nil, err
		}
	}
	if len(u.refs) > 0 {
		if err := x.checkReferenced(r, u.refs, old, newRow); err != nil {
			return nil, err
		}
	}
	return newRow, nil
}

// maxPeekEntries is the most index entries an UPDATE reads ahead to tell
// the heap where its rows are.
const maxPeekEntries = 64

func (x *execCtx) delete(st *sql.Delete) (int64, error) {
	d := x.newRowDelete()
	if st.From != nil {
		jr := &joinedRow{base: st.From.TargetBase(), n: len(x.rel.types) + 1}
		return x.modifyJoined("deleting", st.From, jr, st.Where, st.Returning, d.apply, d.finish)
	}
	return x.modifyRows(st.Where, st.Returning, d.apply, d.finish, false)
}

// rowDelete is the deletion of one row by DELETE (ExecDelete), which MERGE
// makes too: apply deletes the version at tid; finish, once that
// succeeded, checks the foreign keys that reference the table.
type rowDelete struct {
	x    *execCtx
	refs []fkRef
}

func (x *execCtx) newRowDelete() *rowDelete {
	d := &rowDelete{x: x, refs: x.s.e.referencing(x.rel.def.OID)}
	if x.skipReferenced {
		d.refs = nil
	}
	return d
}

func (d *rowDelete) apply(_ []types.Datum, tid page.TID) (heap.Result, heap.FailureData, error) {
	x := d.x
	return x.rel.heap.Delete(x.snap, tid, x.xid, x.cid)
}

func (d *rowDelete) finish(row []types.Datum) ([]types.Datum, error) {
	x := d.x
	if len(d.refs) > 0 {
		if err := x.checkReferenced(x.rel, d.refs, row, nil); err != nil {
			return nil, err
		}
	}
	x.countDelete()
	return row, nil
}
