package executor

// CREATE VIEW and DROP VIEW, and the views that depend on a relation a
// DROP removes. Like tables, views follow their transaction: a view the
// transaction created is dropped again by an abort, and DROP VIEW marks
// the view (catalog.View.DroppingXid: its name is free and no one finds
// it) until the commit deletes it or an abort gives it back; start-up
// settles the marks a crash left (settleViews).

import (
	"fmt"
	"strings"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/sql"
	"minipg/storage/heap"
	"minipg/types"
)

func (s *Session) createView(st *sql.CreateView) (string, error) {
	e := s.e
	def := st.Def
	xid, err := s.ensureTx().Xid()
	if err != nil {
		return "", err
	}
	if old, ok := e.cat.View(def.Name); ok && st.Replace {
		if err := replaceableView(old, &def); err != nil {
			return "", err
		}
		if _, err := e.cat.UpdateView(old.OID, func(v *catalog.View) error {
			v.Columns, v.Query, v.Relations, v.CheckOption = def.Columns, def.Query, def.Relations, def.CheckOption
			return nil
		}); err != nil {
			return "", err
		}
		return "CREATE VIEW", nil
	}
	if st.Replace && e.cat.RelationExists(def.Name) {
		return "", pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a view", def.Name)
	}
	def.CreatedXid = xid
	v, err := e.cat.CreateView(def)
	if err != nil {
		return "", err
	}
	s.noteCreated(createdView, v.OID, v.Name)
	return "CREATE VIEW", nil
}

// replaceableView applies PostgreSQL's rule for CREATE OR REPLACE VIEW:
// the new query keeps the old columns, names and types, in order, and may
// add columns at the end.
func replaceableView(old *catalog.View, def *catalog.View) error {
	if len(def.Columns) < len(old.Columns) {
		return pgerr.New(pgerr.InvalidTableDefinition, "cannot drop columns from view")
	}
	for i, oc := range old.Columns {
		nc := def.Columns[i]
		if nc.Name != oc.Name {
			return pgerr.New(pgerr.InvalidTableDefinition, "cannot change name of view column \"%s\" to \"%s\"", oc.Name, nc.Name).
				WithHint("Use ALTER VIEW ... RENAME COLUMN ... to change name of view column instead.")
		}
		if nc.TypeOID != oc.TypeOID || nc.Typmod != oc.Typmod {
			return pgerr.New(pgerr.InvalidTableDefinition, "cannot change data type of view column \"%s\" from %s to %s", oc.Name,
				types.T{OID: types.OID(oc.TypeOID), Typmod: oc.Typmod}, types.T{OID: types.OID(nc.TypeOID), Typmod: nc.Typmod})
		}
	}
	return nil
}

func (s *Session) dropView(st *sql.DropView) (string, error) {
	e := s.e
	var views []*catalog.View
	for _, name := range st.Names {
		v, ok := e.cat.View(name)
		if !ok {
			if e.cat.RelationExists(name) {
				if _, isTable := e.cat.Table(name); isTable {
					return "", pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a view", name).
						WithHint("Use DROP TABLE to remove a table.")
				}
				return "", pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a view", name)
			}
			if st.IfExists {
				s.notice(pgerr.SeverityNotice, pgerr.SuccessfulCompletion, "view \"%s\" does not exist, skipping", name)
				continue
			}
			return "", pgerr.New(pgerr.UndefinedTable, "view \"%s\" does not exist", name)
		}
		views = append(views, v)
	}
	if len(views) == 0 {
		return "DROP VIEW", nil
	}
	roots := make([]viewDepRoot, len(views))
	for i, v := range views {
		roots[i] = viewDepRoot{oid: v.OID, desc: "view " + v.Name}
	}
	dependents, err := s.viewDependents(roots, st.Cascade)
	if err != nil {
		return "", err
	}
	if err := s.hideViews(append(views, dependents...)); err != nil {
		return "", err
	}
	return "DROP VIEW", nil
}

// viewDepRoot is a relation a DROP removes: its OID and how PostgreSQL's
// messages name it ("table t", "view v").
type viewDepRoot struct {
	oid  uint32
	desc string
}

// viewDependents returns the views that read one of the roots, directly
// or through other views, in PostgreSQL's order (depth first), leaving
// out the roots themselves. Without cascade any such view fails the DROP
// (2BP01, each dependency in the detail); with it, each one is announced
// in a notice, as PostgreSQL's "drop cascades to".
func (s *Session) viewDependents(roots []viewDepRoot, cascade bool) ([]*catalog.View, error) {
	w := newViewDepWalk(s.e)
	for _, r := range roots {
		w.skip[r.oid] = true
	}
	for _, r := range roots {
		w.visit(r.oid, r.desc)
	}
	if len(w.views) == 0 {
		return nil, nil
	}
	if !cascade {
		return nil, dependentObjectsErr(roots[0].desc, w.lines)
	}
	s.cascadeNotice(w.drops)
	return w.views, nil
}

// viewDepWalk collects the views that depend on some objects, each with
// its dependents after it (depth first, each view once), as PostgreSQL's
// findDependentObjects reports them: the lines of a 2BP01 error's detail
// ("view v depends on ...") and of a CASCADE's notice ("drop cascades to
// view v").
type viewDepWalk struct {
	e     *Engine
	skip  map[uint32]bool // views already met, or being dropped themselves
	views []*catalog.View
	lines []string // "x depends on y", one per view
	drops []string // "drop cascades to x", one per view
}

func newViewDepWalk(e *Engine) *viewDepWalk { return &viewDepWalk{e: e, skip: map[uint32]bool{}} }

// add records v, which depends on the object desc names ("column c of
// table t"), then the views that read v.
func (w *viewDepWalk) add(v *catalog.View, desc string) {
	if w.skip[v.OID] {
		return
	}
	w.skip[v.OID] = true
	w.views = append(w.views, v)
	w.lines = append(w.lines, fmt.Sprintf("view %s depends on %s", v.Name, desc))
	w.drops = append(w.drops, "drop cascades to view "+v.Name)
	w.visit(v.OID, "view "+v.Name)
}

// visit adds the views that read relation oid (described by desc).
func (w *viewDepWalk) visit(oid uint32, desc string) {
	for _, v := range w.e.cat.DependentViews(oid) {
		w.add(v, desc)
	}
}

// dependentObjectsErr is PostgreSQL's 2BP01 for a DROP without CASCADE
// that other objects need: what names the object dropped ("table t",
// "column c of table t"), lines each dependency.
func dependentObjectsErr(what string, lines []string) error {
	return pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop %s because other objects depend on it", what).
		WithDetail("%s", strings.Join(lines, "\n")).
		WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
}

// cascadeNotice raises PostgreSQL's notice for the objects a CASCADE
// drops (lines: "drop cascades to ..."): one line as the message, several
// counted, with the lines as the detail.
func (s *Session) cascadeNotice(lines []string) {
	switch len(lines) {
	case 0:
	case 1:
		s.notice(pgerr.SeverityNotice, pgerr.SuccessfulCompletion, "%s", lines[0])
	default:
		n := pgerr.New(pgerr.SuccessfulCompletion, "drop cascades to %d other objects", len(lines)).WithDetail("%s", strings.Join(lines, "\n"))
		n.Severity = pgerr.SeverityNotice
		s.notices = append(s.notices, n)
	}
}

// hideViews marks views dropped by the current transaction: the commit
// deletes them, an abort gives them back.
func (s *Session) hideViews(views []*catalog.View) error {
	xid, err := s.ensureTx().Xid()
	if err != nil {
		return err
	}
	for _, v := range views {
		if _, err := s.e.cat.UpdateView(v.OID, func(v *catalog.View) error {
			v.DroppingXid = xid
			return nil
		}); err != nil {
			return err
		}
		s.noteDropped(droppedView, v.OID)
	}
	return nil
}

// settleViews ends the CREATE and DROP VIEWs a crash interrupted, as
// settleHiddenTables does for tables: first the views whose creation did
// not commit and those whose drop did go, then the marks left on the
// others are cleared (a view dropped and created again under its name by
// a transaction that did not commit gets the name back).
func (e *Engine) settleViews() error {
	var keep []*catalog.View
	for _, v := range e.cat.Views() {
		gone := v.CreatedXid != 0 && e.txns.Status(v.CreatedXid) != heap.XidCommitted ||
			v.DroppingXid != 0 && e.txns.Status(v.DroppingXid) == heap.XidCommitted
		if gone {
			if err := e.cat.DropView(v.OID); err != nil {
				return err
			}
		} else if v.CreatedXid != 0 || v.DroppingXid != 0 {
			keep = append(keep, v)
		}
	}
	for _, v := range keep {
		if _, err := e.cat.UpdateView(v.OID, func(v *catalog.View) error {
			v.CreatedXid, v.DroppingXid = 0, 0
			return nil
		}); err != nil {
			return err
		}
	}
	return nil
}

// View is the catalog's view called name as session s's statements see
// it: one created by another transaction not yet committed is not found.
func (c sessionCatalog) View(name string) (*catalog.View, bool) {
	v, ok := c.catalogStore.View(name)
	if !ok || v.CreatedXid == 0 || c.visibleCreation(v.CreatedXid) {
		return v, ok
	}
	return nil, false
}

// visibleViews are the views the system catalogs list: not those being
// dropped.
func (e *Engine) visibleViews() []*catalog.View {
	var out []*catalog.View
	for _, v := range e.cat.Views() {
		if v.DroppingXid == 0 {
			out = append(out, v)
		}
	}
	return out
}

// yesNo is information_schema's yes_or_no for b.
func yesNo(b bool) string {
	if b {
		return "YES"
	}
	return "NO"
}
