package catalog

import (
	"slices"

	"minipg/pgerr"
)

// Check is a CHECK constraint: its expression as SQL text over the
// table's columns, bound by the SQL layer when the table is opened.
type Check struct {
	Name string `json:"name"`
	Expr string `json:"expr"`
	// NotValid: added with NOT VALID, so the rows stored before were not
	// checked (pg_constraint.convalidated false).
	NotValid  bool `json:"not_valid,omitempty"`
	NoInherit bool `json:"no_inherit,omitempty"`
}

// SetChecks drops the CHECK constraints named in drop and adds those in
// add, in one synced batch. 42704 for a drop of a name the table has no
// check of; 42710 for an added name another constraint of the table has.
func (c *Catalog) SetChecks(tableOID uint32, drop []string, add []Check) (*Table, error) {
	return c.updateTable(tableOID, func(t *Table) error {
		for _, name := range drop {
			i := slices.IndexFunc(t.Checks, func(ck Check) bool { return ck.Name == name })
			if i < 0 {
				return pgerr.New(pgerr.UndefinedObject, "constraint \"%s\" of relation \"%s\" does not exist", name, t.Name)
			}
			t.Checks = slices.Delete(t.Checks, i, i+1)
		}
		for _, ck := range add {
			if t.HasConstraint(ck.Name) {
				return pgerr.New(pgerr.DuplicateObject, "constraint \"%s\" for relation \"%s\" already exists", ck.Name, t.Name)
			}
			t.Checks = append(t.Checks, ck)
		}
		return nil
	})
}
