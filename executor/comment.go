package executor

// COMMENT ON and the comments the system catalogs show (pg_description,
// obj_description, col_description; psql's \d+ and \dt+). Comments are
// stored at once, not with the transaction.

import (
	"minipg/catalog"
	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

const oidPgClassCatalog = 1259 // pg_class's OID: pg_description's classoid for a relation

func (s *Session) comment(st *sql.Comment) (string, error) {
	e := s.e
	if st.Kind == "SCHEMA" {
		oid := map[string]uint32{"public": oidPublic, "pg_catalog": oidPgCatalog, "information_schema": oidInfoSchema}[st.Relation]
		return "COMMENT", e.cat.SetComment(oidPgNamespace, oid, 0, st.Text)
	}
	name := st.Relation
	var oid uint32
	var cols []catalog.Column
	t, isTable := e.cat.Table(name)
	v, isView := e.cat.View(name)
	q, isSeq := e.cat.Sequence(name)
	_, idx, isIndex := e.cat.IndexByName(name)
	switch {
	case isTable:
		oid, cols = t.OID, t.Columns
	case isView:
		oid, cols = v.OID, v.Columns
	case isSeq:
		oid = q.OID
	case isIndex:
		oid = idx.OID
	default:
		return "", pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", name)
	}
	wrong := func(what string) error {
		return pgerr.New(pgerr.WrongObjectType, "\"%s\" is not %s", name, what)
	}
	switch st.Kind {
	case "TABLE":
		if !isTable {
			return "", wrong("a table")
		}
	case "VIEW":
		if !isView {
			return "", wrong("a view")
		}
	case "INDEX":
		if !isIndex {
			return "", wrong("an index")
		}
	case "SEQUENCE":
		if !isSeq {
			return "", wrong("a sequence")
		}
	case "COLUMN":
		if !isTable && !isView {
			kind := "indexes"
			if isSeq {
				kind = "sequences"
			}
			return "", pgerr.New(pgerr.WrongObjectType, "cannot set comment on relation \"%s\"", name).
				WithDetail("This operation is not supported for %s.", kind)
		}
		for i, c := range cols {
			if c.Name == st.Column && !c.Dropped {
				return "COMMENT", e.cat.SetComment(oidPgClassCatalog, oid, int32(i+1), st.Text)
			}
		}
		return "", pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", st.Column, name)
	}
	return "COMMENT", e.cat.SetComment(oidPgClassCatalog, oid, 0, st.Text)
}

// descriptions are pg_description's rows: the built-in schemas' comments
// (a stored one replaces its schema's), then the stored comments of the
// relations and columns that exist.
func (e *Engine) descriptions() [][]types.Datum {
	var out [][]types.Datum
	for _, d := range schemaDescriptions {
		if e.cat.CommentOf(oidPgNamespace, uint32(d.oid), 0) == "" {
			out = append(out, []types.Datum{d.oid, int64(oidPgNamespace), int64(0), d.text})
		}
	}
	natts := map[uint32]int{}
	for _, r := range e.sysRelations() {
		natts[r.oid] = r.natts
	}
	for _, cm := range e.cat.Comments() {
		if cm.ClassOID == oidPgClassCatalog {
			n, ok := natts[cm.ObjOID]
			if !ok || int(cm.ObjSubID) > n {
				continue // its relation or column was dropped
			}
		}
		out = append(out, []types.Datum{int64(cm.ObjOID), int64(cm.ClassOID), int64(cm.ObjSubID), cm.Text})
	}
	return out
}

// description is obj_description and col_description: the comment of an
// object in catalog classOID (0: any), column sub.
func (e *Engine) description(classOID, objOID uint32, sub int32) types.Datum {
	for _, d := range e.descriptions() {
		if uint32(d[0].(int64)) == objOID && (classOID == 0 || uint32(d[1].(int64)) == classOID) && int32(d[2].(int64)) == sub {
			return d[3]
		}
	}
	return nil
}
