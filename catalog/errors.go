package catalog

import "minipg/pgerr"

func corrupt(format string, args ...any) error {
	e := pgerr.New(pgerr.DataCorrupted, "catalog: "+format, args...)
	return e
}

func errRelationExists(name string) error {
	return pgerr.New(pgerr.DuplicateTable, "relation \"%s\" already exists", name)
}

func errNoTable(oid uint32) error {
	return pgerr.New(pgerr.UndefinedTable, "relation with OID %d does not exist", oid)
}

func errMultiplePrimaryKeys(table string) error {
	return pgerr.New(pgerr.InvalidTableDefinition, "multiple primary keys for table \"%s\" are not allowed", table)
}
