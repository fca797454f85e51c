package catalog

// The catalog's part in DDL that follows its transaction (the executor's
// ddl_undo.go): a table dropped by a transaction still running keeps its
// files and rows under hidden names until the transaction ends, and a
// table records the transaction that created it until that one commits.

import (
	"fmt"
	"slices"

	"minipg/pgerr"
)

// PendingDrop is a dropped table's state until its transaction ends: the
// dropping transaction and the names the table and its indexes had, which
// ROLLBACK (or a crash before the commit) gives back.
type PendingDrop struct {
	Xid     uint32   `json:"xid"`
	Name    string   `json:"name"`
	Indexes []string `json:"indexes,omitempty"`
}

// HideTable is the first half of a DROP TABLE made by transaction xid: the
// table and its indexes take hidden names (pg_dropped_OID, and _N for the
// indexes), so that their names are free for the transaction's next
// statements and no statement finds them by name, while their files and
// rows stay until the transaction ends: DropTable then, or UnhideTable
// for a rollback.
func (c *Catalog) HideTable(oid, xid uint32) (*Table, error) {
	return c.updateTable(oid, func(t *Table) error {
		if t.Dropping != nil {
			return errNoTable(oid)
		}
		pd := &PendingDrop{Xid: xid, Name: t.Name}
		c.mu.RLock()
		defer c.mu.RUnlock()
		// A name no relation has (a user may have called one so).
		hidden := func(format string, args ...any) string {
			name := fmt.Sprintf(format, args...)
			for n := 1; c.relationExistsLocked(name); n++ {
				name = fmt.Sprintf(format+"_%d", append(args, n)...)
			}
			return name
		}
		t.Name = hidden("pg_dropped_%d", t.OID)
		for i := range t.Indexes {
			pd.Indexes = append(pd.Indexes, t.Indexes[i].Name)
			t.Indexes[i].Name = hidden("pg_dropped_%d_%d", t.OID, i)
		}
		t.Dropping = pd
		return nil
	})
}

// UnhideTable gives a table HideTable hid its names back (42P07 if one of
// them has been taken since).
func (c *Catalog) UnhideTable(oid uint32) (*Table, error) {
	return c.updateTable(oid, func(t *Table) error {
		pd := t.Dropping
		if pd == nil {
			return nil
		}
		c.mu.RLock()
		taken := slices.ContainsFunc(append([]string{pd.Name}, pd.Indexes...), c.relationExistsLocked)
		c.mu.RUnlock()
		if taken {
			return pgerr.New(pgerr.DuplicateTable, "cannot restore table \"%s\": its name or an index's is taken", pd.Name)
		}
		t.Name = pd.Name
		for i := range t.Indexes {
			t.Indexes[i].Name = pd.Indexes[i]
		}
		t.Dropping = nil
		return nil
	})
}

// ClearCreated marks table oid's creating transaction committed
// (CreatedXid 0).
func (c *Catalog) ClearCreated(oid uint32) error {
	_, err := c.updateTable(oid, func(t *Table) error {
		t.CreatedXid = 0
		return nil
	})
	return err
}
