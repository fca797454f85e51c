package executor

import (
	"cmp"
	"slices"
	"strings"

	"minipg/catalog"
	"minipg/sql"
	"minipg/storage/buffer"
	"minipg/types"
)

// PostgreSQL 15's system catalogs that psql's \d commands and drivers read,
// computed on each scan from minipg's catalog. Each catalog is declared
// once, in sysCatalogs: its columns (PostgreSQL's names and types) and the
// function that makes its rows, in column order. The OIDs agree across
// catalogs: a table's pg_class.oid is its catalog OID, which pg_attribute
// (attrelid), pg_index (indrelid), pg_constraint (conrelid), pg_attrdef and
// regclass use; an index's is its catalog.Index OID.
//
// Catalogs minipg has nothing for (policies, publications, inheritance,
// extended statistics) are empty but have their columns, as
// psql's queries name them.

// Fixed OIDs, PostgreSQL's own where it has them.
const (
	oidPgCatalog      = 11
	oidPgNamespace    = 2615 // pg_namespace's own OID, pg_description's classoid for a schema
	oidPublic         = 2200
	oidPgToast        = 99
	oidInfoSchema     = 13181
	oidSuperuser      = 10 // the bootstrap superuser, postgres
	oidDatabaseOwner  = 6171
	oidHeapAM         = 2
	oidBtreeAM        = 403
	oidDefaultTblspc  = 1663
	oidGlobalTblspc   = 1664
	oidDefaultColl    = 100
	oidCColl          = 950
	oidPosixColl      = 951
	oidTemplate1      = 1
	oidTemplate0      = 4
	conOIDFlag        = 1 << 31 // pg_constraint OIDs: flag | index OID (PK, UNIQUE)
	fkeyOIDFlag       = 3 << 30 // flag | table OID << 6 | foreign key number
	fkeyPerTableLimit = 1 << 6
)

type sysCol struct {
	name string
	t    types.T
}

type sysCatalog struct {
	name string
	cols []sysCol
	rows func(e *Engine) [][]types.Datum
}

func oidT(n string) sysCol  { return sysCol{n, types.TOid} }
func nameT(n string) sysCol { return sysCol{n, types.TName} }
func charT(n string) sysCol { return sysCol{n, types.TChar} }
func boolT(n string) sysCol { return sysCol{n, types.TBool} }
func int2T(n string) sysCol { return sysCol{n, types.TInt2} }
func int4T(n string) sysCol { return sysCol{n, types.TInt4} }
func textT(n string) sysCol { return sysCol{n, types.TText} }
func arrT(n string, elem types.T) sysCol {
	return sysCol{n, types.ArrayOf(elem)}
}

func init() {
	for _, c := range sysCatalogs {
		cols := make([]catalog.Column, len(c.cols))
		for i, sc := range c.cols {
			cols[i] = catalog.Column{Name: sc.name, TypeOID: uint32(sc.t.OID), Typmod: sc.t.Typmod}
		}
		rows := c.rows
		sql.RegisterVirtualTable(c.name, cols, func(env any) ([][]types.Datum, error) {
			if rows == nil {
				return nil, nil
			}
			return rows(env.(*Engine)), nil
		})
	}
}

// sysRelation is one pg_class row.
type sysRelation struct {
	oid     uint32
	name    string
	kind    string // r table, i index, S sequence, v view
	table   *catalog.Table
	index   *catalog.Index
	seq     *catalog.Sequence
	view    *catalog.View
	natts   int
	options []string
}

// sysRelations lists tables, their indexes and sequences ordered by OID.
func (e *Engine) sysRelations() []sysRelation {
	var out []sysRelation
	for _, t := range e.visibleTables() {
		out = append(out, sysRelation{oid: t.OID, name: t.Name, kind: "r", table: t, natts: len(t.Columns),
			options: relOptions(t.Options)})
		for i := range t.Indexes {
			idx := &t.Indexes[i]
			out = append(out, sysRelation{oid: idx.OID, name: idx.Name, kind: "i", table: t, index: idx,
				natts: len(idx.Columns), options: relOptions(idx.Options)})
		}
	}
	for _, s := range e.cat.Sequences() {
		out = append(out, sysRelation{oid: s.OID, name: s.Name, kind: "S", seq: s, natts: 3})
	}
	for _, v := range e.visibleViews() {
		out = append(out, sysRelation{oid: v.OID, name: v.Name, kind: "v", view: v, natts: len(v.Columns)})
	}
	slices.SortFunc(out, func(a, b sysRelation) int { return cmp.Compare(a.oid, b.oid) })
	return out
}

// relOptions is pg_class.reloptions: name=value, sorted by name.
func relOptions(opts map[string]string) []string {
	var out []string
	for k, v := range opts {
		out = append(out, k+"="+v)
	}
	slices.Sort(out)
	return out
}

func textArray(ss []string) types.Datum {
	if len(ss) == 0 {
		return nil
	}
	el := make([]types.Datum, len(ss))
	for i, s := range ss {
		el[i] = s
	}
	return types.NewArray(el)
}

func int2Array(ns []int16) types.Datum {
	el := make([]types.Datum, len(ns))
	for i, n := range ns {
		el[i] = int64(n)
	}
	return types.NewArray(el)
}

// relPages is the relation's size in blocks (0 for an index: minipg's
// indexes are in memory).
// relSizeStats is pg_class.relpages and reltuples: for a table what
// VACUUM and ANALYZE last recorded (0 and -1 before either ran, as in
// PostgreSQL); for a disk index its file's blocks now and its table's
// recorded tuples, which PostgreSQL's VACUUM and ANALYZE give it too; for
// a sequence one page and one tuple.
func (e *Engine) relSizeStats(r sysRelation) (pages int64, tuples float64) {
	switch r.kind {
	case "S":
		return 1, 1
	case "v":
		return 0, -1
	case "i":
		rs := e.stats.RelSize(r.table.OID)
		if r.index.OnDisk() {
			if n, err := e.pool.NBlocks(buffer.RelFileNode(r.index.RelFileNode), buffer.MainFork); err == nil {
				pages = int64(n)
			}
		}
		return pages, rs.RelTuples
	}
	rs := e.stats.RelSize(r.oid)
	return int64(rs.RelPages), rs.RelTuples
}

func (e *Engine) pgClassRows() [][]types.Datum {
	var out [][]types.Datum
	for _, r := range e.sysRelations() {
		am, persistence := int64(0), "p"
		hasIndex := false
		filenode := int64(r.oid)
		switch r.kind {
		case "r":
			am = oidHeapAM
			hasIndex = len(r.table.Indexes) > 0
			filenode = int64(r.table.RelFileNode) // a new one after TRUNCATE
		case "i":
			am = oidBtreeAM
			if r.index.OnDisk() {
				filenode = int64(r.index.RelFileNode) // a new one after TRUNCATE
			}
		case "v":
			filenode = 0 // a view has no storage
		}
		pages, tuples := e.relSizeStats(r)
		out = append(out, []types.Datum{
			int64(r.oid), r.name, int64(oidPublic), int64(0), int64(0), int64(oidSuperuser), am,
			filenode, int64(0), pages, tuples, int64(0), int64(0), hasIndex, false, persistence,
			r.kind, int64(r.natts), relChecks(r), false, false, false, false, false, true, "d", false,
			int64(0), nil, textArray(r.options), nil,
		})
	}
	return out
}

// relChecks is pg_class.relchecks: a table's CHECK constraints.
func relChecks(r sysRelation) int64 {
	if r.kind == "r" {
		return int64(len(r.table.Checks))
	}
	return 0
}

// fkeyOID is the pg_constraint OID of foreign key i of table t.
func fkeyOID(t *catalog.Table, i int) uint32 {
	return fkeyOIDFlag | (t.OID%(1<<24))<<6 | uint32(i%fkeyPerTableLimit)
}

func (e *Engine) pgConstraintRows() [][]types.Datum {
	var out [][]types.Datum
	for _, t := range e.visibleTables() {
		for _, idx := range t.Indexes {
			if !idx.IsConstraint() {
				continue
			}
			kind := "u"
			if idx.Primary {
				kind = "p"
			}
			out = append(out, []types.Datum{int64(conOIDFlag | idx.OID), idx.Name, int64(oidPublic), kind,
				false, false, true, int64(t.OID), int64(0), int64(idx.OID), int64(0), int64(0), " ", " ", " ",
				true, int64(0), true, int2Array(idx.Columns), nil})
		}
		for i, fk := range t.ForeignKeys {
			del, upd := cmp.Or(fk.OnDelete, catalog.FKNoAction), cmp.Or(fk.OnUpdate, catalog.FKNoAction)
			var ref uint32
			if rt, ok := e.cat.TableByOID(fk.RefTable); ok {
				for _, idx := range rt.Indexes {
					if idx.Unique && slices.Equal(idx.Columns, fk.RefColumns) {
						ref = idx.OID
					}
				}
			}
			out = append(out, []types.Datum{int64(fkeyOID(t, i)), fk.Name, int64(oidPublic), "f",
				false, false, true, int64(t.OID), int64(0), int64(ref), int64(0), int64(fk.RefTable), upd, del, "s",
				true, int64(0), true, int2Array(fk.Columns), int2Array(fk.RefColumns)})
		}
		for i, ck := range t.Checks {
			var conkey types.Datum // NULL for a constraint that reads no column
			if cols := e.checkColumns(t, i); len(cols) > 0 {
				conkey = int2Array(cols)
			}
			out = append(out, []types.Datum{int64(checkOID(t, i)), ck.Name, int64(oidPublic), "c",
				false, false, !ck.NotValid, int64(t.OID), int64(0), int64(0), int64(0), int64(0), " ", " ", " ",
				true, int64(0), ck.NoInherit, conkey, nil})
		}
	}
	return out
}

func (e *Engine) pgAttributeRows() [][]types.Datum {
	var out [][]types.Datum
	att := func(rel uint32, num int, c catalog.Column, hasDef bool) []types.Datum {
		t := types.T{OID: types.OID(c.TypeOID), Typmod: c.Typmod}
		coll := int64(0)
		if t.Category() == 'S' && t.OID != types.Char {
			coll = oidDefaultColl
			if t.OID == types.Name {
				coll = oidCColl
			}
		}
		storage := "p"
		if t.Len() == -1 {
			storage = "x"
			if t.OID == types.Numeric {
				storage = "m"
			}
		}
		ndims := int64(0)
		if types.IsArray(t.OID) {
			ndims = 1
		}
		// A dropped column keeps its type's length, alignment, storage and
		// collation, but not the type (atttypid 0) or statistics target.
		typid, stattarget := int64(t.OID), int64(-1)
		if c.Dropped {
			typid, stattarget = 0, 0
		}
		return []types.Datum{int64(rel), c.Name, typid, stattarget, int64(t.Len()), int64(num), ndims,
			int64(-1), int64(c.Typmod), types.TypByVal(t.OID), string(t.Align()), storage, "",
			c.NotNull, hasDef, c.Missing != nil, c.Identity, "", c.Dropped, true, int64(0), coll, nil}
	}
	for _, r := range e.sysRelations() {
		switch r.kind {
		case "r":
			for i, c := range r.table.Columns {
				out = append(out, att(r.oid, i+1, c, c.Default != ""))
			}
		case "i":
			for i, n := range r.index.Columns {
				c := r.table.Columns[n-1]
				c.NotNull, c.Identity = false, ""
				out = append(out, att(r.oid, i+1, c, false))
			}
		case "v":
			for i, c := range r.view.Columns {
				out = append(out, att(r.oid, i+1, c, false))
			}
		case "S":
			out = append(out,
				att(r.oid, 1, catalog.Column{Name: "last_value", TypeOID: uint32(types.Int8), Typmod: -1, NotNull: true}, false),
				att(r.oid, 2, catalog.Column{Name: "log_cnt", TypeOID: uint32(types.Int8), Typmod: -1, NotNull: true}, false),
				att(r.oid, 3, catalog.Column{Name: "is_called", TypeOID: uint32(types.Bool), Typmod: -1, NotNull: true}, false))
		}
	}
	return out
}

// attrdefOID is the pg_attrdef OID of column num of table t.
func attrdefOID(t *catalog.Table, num int) uint32 { return 1<<30 | (t.OID%(1<<20))<<10 | uint32(num) }

func (e *Engine) pgAttrdefRows() [][]types.Datum {
	var out [][]types.Datum
	for _, t := range e.visibleTables() {
		for i, c := range t.Columns {
			if c.Default != "" {
				out = append(out, []types.Datum{int64(attrdefOID(t, i+1)), int64(t.OID), int64(i + 1), defaultExpr(c)})
			}
		}
	}
	return out
}

func (e *Engine) pgIndexRows() [][]types.Datum {
	var out [][]types.Datum
	for _, t := range e.visibleTables() {
		for _, idx := range t.Indexes {
			n := int64(len(idx.Columns))
			out = append(out, []types.Datum{int64(idx.OID), int64(t.OID), n, n, idx.Unique, false, idx.Primary,
				false, true, idx.Clustered, true, false, true, true, false, int2Array(idx.Columns), nil, nil})
		}
	}
	return out
}

// sysTypes are the pg_type rows: every type minipg has, with its array.
func sysTypes() []types.OID {
	base := []types.OID{types.Bool, types.Char, types.Name, types.Int8, types.Int2, types.Int4, types.Text,
		types.Oid, types.TID, types.Float4, types.Float8, types.Unknown, types.Point, types.Bpchar, types.Varchar,
		types.Date, types.Timestamp, types.Numeric, types.RegClass, types.RegType, types.RegNamespace,
		types.RegRole, types.Void, types.JSON, types.JSONB}
	base = append(base, types.Time, types.TimeTZ)
	out := slices.Clone(base)
	for _, b := range base {
		if a := types.ArrayOID(b); a != 0 {
			out = append(out, a)
		}
	}
	slices.Sort(out)
	return out
}

func pgTypeRows(*Engine) [][]types.Datum {
	var out [][]types.Datum
	for _, oid := range sysTypes() {
		t := types.T{OID: oid, Typmod: -1}
		typtype := "b"
		if oid == types.Void || oid == types.Unknown {
			typtype = "p"
		}
		coll := int64(0)
		if t.Category() == 'S' && oid != types.Char {
			coll = oidDefaultColl
			if oid == types.Name {
				coll = oidCColl
			}
		}
		delim := ","
		out = append(out, []types.Datum{int64(oid), types.TypName(oid), int64(oidPgCatalog), int64(oidSuperuser),
			int64(t.Len()), types.TypByVal(oid), typtype, string(t.Category()), types.IsPreferred(oid), true,
			delim, int64(0), int64(types.ElemOID(oid)), int64(types.ArrayOID(oid)), "x" /* typstorage below */, false,
			int64(0), int64(-1), int64(0), coll, string(t.Align()), nil, nil})
		row := out[len(out)-1]
		row[14] = "p"
		if t.Len() == -1 {
			row[14] = "x"
		}
	}
	return out
}

var sysCatalogs = []sysCatalog{
	{"pg_class", []sysCol{oidT("oid"), nameT("relname"), oidT("relnamespace"), oidT("reltype"), oidT("reloftype"),
		oidT("relowner"), oidT("relam"), oidT("relfilenode"), oidT("reltablespace"), int4T("relpages"),
		{"reltuples", types.TFloat4}, int4T("relallvisible"), oidT("reltoastrelid"), boolT("relhasindex"),
		boolT("relisshared"), charT("relpersistence"), charT("relkind"), int2T("relnatts"), int2T("relchecks"),
		boolT("relhasrules"), boolT("relhastriggers"), boolT("relhassubclass"), boolT("relrowsecurity"),
		boolT("relforcerowsecurity"), boolT("relispopulated"), charT("relreplident"), boolT("relispartition"),
		oidT("relrewrite"), arrT("relacl", types.TText), arrT("reloptions", types.TText), textT("relpartbound")},
		(*Engine).pgClassRows},
	{"pg_namespace", []sysCol{oidT("oid"), nameT("nspname"), oidT("nspowner"), arrT("nspacl", types.TText)}, func(*Engine) [][]types.Datum {
		// The ACLs of a new PostgreSQL 15 cluster (\dn+ prints them).
		super := textArray([]string{"postgres=UC/postgres", "=U/postgres"})
		return [][]types.Datum{{int64(oidPgToast), "pg_toast", int64(oidSuperuser), nil},
			{int64(oidPgCatalog), "pg_catalog", int64(oidSuperuser), super},
			{int64(oidPublic), "public", int64(oidDatabaseOwner),
				textArray([]string{"pg_database_owner=UC/pg_database_owner", "=U/pg_database_owner"})},
			{int64(oidInfoSchema), "information_schema", int64(oidSuperuser), super}}
	}},
	{"pg_am", []sysCol{oidT("oid"), nameT("amname"), {"amhandler", types.T{OID: types.RegProc, Typmod: -1}}, charT("amtype")},
		func(*Engine) [][]types.Datum {
			return [][]types.Datum{
				{int64(oidHeapAM), "heap", types.RegName{OID: 3, Name: "heap_tableam_handler"}, "t"},
				{int64(oidBtreeAM), "btree", types.RegName{OID: 330, Name: "bthandler"}, "i"}}
		}},
	{"pg_attribute", []sysCol{oidT("attrelid"), nameT("attname"), oidT("atttypid"), int4T("attstattarget"),
		int2T("attlen"), int2T("attnum"), int4T("attndims"), int4T("attcacheoff"), int4T("atttypmod"),
		boolT("attbyval"), charT("attalign"), charT("attstorage"), charT("attcompression"), boolT("attnotnull"),
		boolT("atthasdef"), boolT("atthasmissing"), charT("attidentity"), charT("attgenerated"),
		boolT("attisdropped"), boolT("attislocal"), int4T("attinhcount"), oidT("attcollation"),
		arrT("attacl", types.TText)},
		(*Engine).pgAttributeRows},
	{"pg_attrdef", []sysCol{oidT("oid"), oidT("adrelid"), int2T("adnum"), textT("adbin")}, (*Engine).pgAttrdefRows},
	{"pg_type", []sysCol{oidT("oid"), nameT("typname"), oidT("typnamespace"), oidT("typowner"), int2T("typlen"),
		boolT("typbyval"), charT("typtype"), charT("typcategory"), boolT("typispreferred"), boolT("typisdefined"),
		charT("typdelim"), oidT("typrelid"), oidT("typelem"), oidT("typarray"), charT("typstorage"),
		boolT("typnotnull"), oidT("typbasetype"), int4T("typtypmod"), int4T("typndims"), oidT("typcollation"),
		charT("typalign"), textT("typdefault"), arrT("typacl", types.TText)}, pgTypeRows},
	{"pg_index", []sysCol{oidT("indexrelid"), oidT("indrelid"), int2T("indnatts"), int2T("indnkeyatts"),
		boolT("indisunique"), boolT("indnullsnotdistinct"), boolT("indisprimary"), boolT("indisexclusion"),
		boolT("indimmediate"), boolT("indisclustered"), boolT("indisvalid"), boolT("indcheckxmin"),
		boolT("indisready"), boolT("indislive"), boolT("indisreplident"), arrT("indkey", types.TInt2),
		textT("indexprs"), textT("indpred")}, (*Engine).pgIndexRows},
	{"pg_constraint", []sysCol{oidT("oid"), nameT("conname"), oidT("connamespace"), charT("contype"),
		boolT("condeferrable"), boolT("condeferred"), boolT("convalidated"), oidT("conrelid"), oidT("contypid"),
		oidT("conindid"), oidT("conparentid"), oidT("confrelid"), charT("confupdtype"), charT("confdeltype"),
		charT("confmatchtype"), boolT("conislocal"), int4T("coninhcount"), boolT("connoinherit"),
		arrT("conkey", types.TInt2), arrT("confkey", types.TInt2)}, (*Engine).pgConstraintRows},
	{"pg_collation", []sysCol{oidT("oid"), nameT("collname"), oidT("collnamespace"), oidT("collowner"),
		charT("collprovider"), boolT("collisdeterministic"), int4T("collencoding"), textT("collcollate"),
		textT("collctype")}, func(*Engine) [][]types.Datum {
		return [][]types.Datum{
			{int64(oidDefaultColl), "default", int64(oidPgCatalog), int64(oidSuperuser), "d", true, int64(-1), nil, nil},
			{int64(oidCColl), "C", int64(oidPgCatalog), int64(oidSuperuser), "c", true, int64(-1), "C", "C"},
			{int64(oidPosixColl), "POSIX", int64(oidPgCatalog), int64(oidSuperuser), "c", true, int64(-1), "POSIX", "POSIX"}}
	}},
	{"pg_proc", []sysCol{oidT("oid"), nameT("proname"), oidT("pronamespace"), oidT("proowner"), oidT("prolang"),
		{"procost", types.TFloat4}, {"prorows", types.TFloat4}, oidT("provariadic"), charT("prokind"),
		boolT("prosecdef"), boolT("proleakproof"), boolT("proisstrict"), boolT("proretset"), charT("provolatile"),
		charT("proparallel"), int2T("pronargs"), int2T("pronargdefaults"), oidT("prorettype"),
		arrT("proargtypes", types.TOid), textT("prosrc"), arrT("proacl", types.TText)}, (*Engine).pgProcRows},
	{"pg_language", []sysCol{oidT("oid"), nameT("lanname"), oidT("lanowner"), boolT("lanispl"),
		boolT("lanpltrusted")}, func(*Engine) [][]types.Datum {
		return [][]types.Datum{{int64(langInternal), "internal", int64(oidSuperuser), false, false},
			{int64(13), "c", int64(oidSuperuser), false, false},
			{int64(14), "sql", int64(oidSuperuser), false, true}}
	}},
	{"pg_enum", []sysCol{oidT("oid"), oidT("enumtypid"), {"enumsortorder", types.TFloat4}, nameT("enumlabel")}, nil},
	{"pg_inherits", []sysCol{oidT("inhrelid"), oidT("inhparent"), int4T("inhseqno"), boolT("inhdetachpending")}, nil},
	{"pg_partitioned_table", []sysCol{oidT("partrelid"), charT("partstrat"), int2T("partnatts"),
		oidT("partdefid"), arrT("partattrs", types.TInt2)}, nil},
	{"pg_description", []sysCol{oidT("objoid"), oidT("classoid"), int4T("objsubid"), textT("description")},
		(*Engine).descriptions},
	{"pg_policy", []sysCol{oidT("oid"), nameT("polname"), oidT("polrelid"), charT("polcmd"), boolT("polpermissive"),
		arrT("polroles", types.TOid), textT("polqual"), textT("polwithcheck")}, nil},
	{"pg_statistic_ext", []sysCol{oidT("oid"), oidT("stxrelid"), nameT("stxname"), oidT("stxnamespace"),
		oidT("stxowner"), int4T("stxstattarget"), arrT("stxkeys", types.TInt2), arrT("stxkind", types.TChar),
		textT("stxexprs")}, nil},
	{"pg_publication", []sysCol{oidT("oid"), nameT("pubname"), oidT("pubowner"), boolT("puballtables"),
		boolT("pubinsert"), boolT("pubupdate"), boolT("pubdelete"), boolT("pubtruncate"), boolT("pubviaroot")}, nil},
	{"pg_publication_rel", []sysCol{oidT("oid"), oidT("prpubid"), oidT("prrelid"), textT("prqual"),
		arrT("prattrs", types.TInt2)}, nil},
	{"pg_publication_namespace", []sysCol{oidT("oid"), oidT("pnpubid"), oidT("pnnspid")}, nil},
	{"pg_roles", []sysCol{nameT("rolname"), boolT("rolsuper"), boolT("rolinherit"), boolT("rolcreaterole"),
		boolT("rolcreatedb"), boolT("rolcanlogin"), boolT("rolreplication"), int4T("rolconnlimit"),
		textT("rolpassword"), {"rolvaliduntil", types.TTimestamp}, boolT("rolbypassrls"),
		arrT("rolconfig", types.TText), oidT("oid")}, func(*Engine) [][]types.Datum {
		return [][]types.Datum{{"postgres", true, true, true, true, true, true, int64(-1), "********", nil, true, nil,
			int64(oidSuperuser)}}
	}},
	{"pg_authid", []sysCol{oidT("oid"), nameT("rolname"), boolT("rolsuper"), boolT("rolinherit"),
		boolT("rolcreaterole"), boolT("rolcreatedb"), boolT("rolcanlogin"), boolT("rolreplication"),
		boolT("rolbypassrls"), int4T("rolconnlimit"), textT("rolpassword"), {"rolvaliduntil", types.TTimestamp}},
		func(*Engine) [][]types.Datum {
			return [][]types.Datum{{int64(oidSuperuser), "postgres", true, true, true, true, true, true, true,
				int64(-1), nil, nil}}
		}},
	{"pg_auth_members", []sysCol{oidT("roleid"), oidT("member"), oidT("grantor"), boolT("admin_option")}, nil},
	{"pg_database", []sysCol{oidT("oid"), nameT("datname"), oidT("datdba"), int4T("encoding"),
		charT("datlocprovider"), boolT("datistemplate"), boolT("datallowconn"), int4T("datconnlimit"),
		oidT("dattablespace"), textT("datcollate"), textT("datctype"), textT("daticulocale"),
		textT("datcollversion"), arrT("datacl", types.TText)}, func(*Engine) [][]types.Datum {
		db := func(oid int64, name string, tmpl, conn bool) []types.Datum {
			return []types.Datum{oid, name, int64(oidSuperuser), int64(6), "c", tmpl, conn, int64(-1),
				int64(oidDefaultTblspc), "C.UTF-8", "C.UTF-8", nil, nil, nil}
		}
		return [][]types.Datum{db(oidTemplate1, "template1", true, true), db(oidTemplate0, "template0", true, false),
			db(databaseOID, "postgres", false, true)}
	}},
	{"pg_tablespace", []sysCol{oidT("oid"), nameT("spcname"), oidT("spcowner"), arrT("spcacl", types.TText),
		arrT("spcoptions", types.TText)},
		func(*Engine) [][]types.Datum {
			return [][]types.Datum{{int64(oidDefaultTblspc), "pg_default", int64(oidSuperuser), nil, nil},
				{int64(oidGlobalTblspc), "pg_global", int64(oidSuperuser), nil, nil}}
		}},
	{"pg_sequence", []sysCol{oidT("seqrelid"), oidT("seqtypid"), {"seqstart", types.TInt8},
		{"seqincrement", types.TInt8}, {"seqmax", types.TInt8}, {"seqmin", types.TInt8}, {"seqcache", types.TInt8},
		boolT("seqcycle")}, func(e *Engine) [][]types.Datum {
		var out [][]types.Datum
		for _, s := range e.cat.Sequences() {
			out = append(out, []types.Datum{int64(s.OID), int64(s.TypeOID), s.Start, s.Increment, s.MaxValue,
				s.MinValue, s.Cache, s.Cycle})
		}
		return out
	}},
	{"information_schema.tables", []sysCol{nameT("table_catalog"), nameT("table_schema"), nameT("table_name"),
		textT("table_type"), nameT("self_referencing_column_name"), textT("reference_generation"),
		nameT("user_defined_type_catalog"), nameT("user_defined_type_schema"), nameT("user_defined_type_name"),
		textT("is_insertable_into"), textT("is_typed"), textT("commit_action")}, func(e *Engine) [][]types.Datum {
		var out [][]types.Datum
		for _, r := range e.sysRelations() {
			switch r.kind {
			case "r":
				out = append(out, []types.Datum{"postgres", "public", r.name, "BASE TABLE", nil, nil, nil, nil, nil,
					"YES", "NO", nil})
			case "v":
				insertable := "NO"
				if v, ok := e.cat.View(r.name); ok {
					insertable = yesNo(sql.ViewUpdatable(e.cat, v))
				}
				out = append(out, []types.Datum{"postgres", "public", r.name, "VIEW", nil, nil, nil, nil, nil,
					insertable, "NO", nil})
			}
		}
		return out
	}},
	{"information_schema.views", []sysCol{nameT("table_catalog"), nameT("table_schema"), nameT("table_name"),
		textT("view_definition"), textT("check_option"), textT("is_updatable"), textT("is_insertable_into"),
		textT("is_trigger_updatable"), textT("is_trigger_deletable"), textT("is_trigger_insertable_into")}, func(e *Engine) [][]types.Datum {
		var out [][]types.Datum
		for _, v := range e.visibleViews() {
			check := map[string]string{"": "NONE", "local": "LOCAL", "cascaded": "CASCADED"}[v.CheckOption]
			updatable := yesNo(sql.ViewUpdatable(e.cat, v))
			out = append(out, []types.Datum{"postgres", "public", v.Name, viewDef(v), check, updatable, updatable, "NO", "NO", "NO"})
		}
		return out
	}},
	{"pg_tables", []sysCol{nameT("schemaname"), nameT("tablename"), nameT("tableowner"), nameT("tablespace"),
		boolT("hasindexes"), boolT("hasrules"), boolT("hastriggers"), boolT("rowsecurity")}, func(e *Engine) [][]types.Datum {
		var out [][]types.Datum
		for _, t := range e.visibleTables() {
			out = append(out, []types.Datum{"public", t.Name, "postgres", nil, len(t.Indexes) > 0, false, false, false})
		}
		return out
	}},
	{"pg_indexes", []sysCol{nameT("schemaname"), nameT("tablename"), nameT("indexname"), nameT("tablespace"),
		textT("indexdef")}, func(e *Engine) [][]types.Datum {
		var out [][]types.Datum
		for _, t := range e.visibleTables() {
			for _, idx := range t.Indexes {
				out = append(out, []types.Datum{"public", t.Name, idx.Name, nil, e.indexDef(idx.OID, 0)})
			}
		}
		return out
	}},
	{"pg_sequences", []sysCol{nameT("schemaname"), nameT("sequencename"), nameT("sequenceowner"),
		{"data_type", types.TRegType}, {"start_value", types.TInt8}, {"min_value", types.TInt8},
		{"max_value", types.TInt8}, {"increment_by", types.TInt8}, boolT("cycle"), {"cache_size", types.TInt8},
		{"last_value", types.TInt8}}, func(e *Engine) [][]types.Datum {
		var out [][]types.Datum
		for _, s := range e.cat.Sequences() {
			var last types.Datum // NULL until nextval has been called
			if v, called, err := e.cat.SequenceState(s.OID); err == nil && called {
				last = v
			}
			typ := types.T{OID: types.OID(s.TypeOID), Typmod: -1}
			out = append(out, []types.Datum{"public", s.Name, "postgres", types.RegName{OID: s.TypeOID, Name: typ.Name()},
				s.Start, s.MinValue, s.MaxValue, s.Increment, s.Cycle, s.Cache, last})
		}
		return out
	}},
	{"pg_matviews", []sysCol{nameT("schemaname"), nameT("matviewname"), nameT("matviewowner"), nameT("tablespace"),
		boolT("hasindexes"), boolT("ispopulated"), textT("definition")}, nil},
	{"pg_views", []sysCol{nameT("schemaname"), nameT("viewname"), nameT("viewowner"), textT("definition")}, func(e *Engine) [][]types.Datum {
		var out [][]types.Datum
		for _, v := range e.visibleViews() {
			out = append(out, []types.Datum{"public", v.Name, "postgres", viewDef(v)})
		}
		return out
	}},
	{"information_schema.columns", []sysCol{nameT("table_catalog"), nameT("table_schema"), nameT("table_name"),
		nameT("column_name"), {"ordinal_position", types.TInt4}, textT("column_default"), textT("is_nullable"),
		textT("data_type"), int4T("character_maximum_length"), int4T("numeric_precision"),
		int4T("numeric_scale"), textT("is_identity"), textT("is_generated")}, func(e *Engine) [][]types.Datum {
		var out [][]types.Datum
		for _, r := range e.sysRelations() {
			var cols []catalog.Column
			switch r.kind {
			case "r":
				cols = r.table.Columns
			case "v":
				cols = r.view.Columns
			}
			for i, c := range cols {
				if c.Dropped {
					continue // ordinal_position is attnum: it keeps the gap
				}
				ct := types.T{OID: types.OID(c.TypeOID), Typmod: c.Typmod}
				var def types.Datum
				if c.Default != "" {
					def = c.Default
				}
				nullable := "YES"
				if c.NotNull {
					nullable = "NO"
				}
				var maxLen, prec, scale types.Datum
				if n, ok := ct.CharLen(); ok {
					maxLen = int64(n)
				}
				if p, s, ok := ct.NumericPrecScale(); ok {
					prec, scale = int64(p), int64(s)
				}
				dt := strings.TrimSuffix(types.T{OID: ct.OID, Typmod: -1}.Name(), "[]")
				if types.IsArray(ct.OID) {
					dt = "ARRAY"
				}
				identity := "NO"
				if c.Identity != "" {
					identity = "YES"
					def = nil
				}
				out = append(out, []types.Datum{"postgres", "public", r.name, c.Name, int64(i + 1), def, nullable,
					dt, maxLen, prec, scale, identity, "NEVER"})
			}
		}
		return out
	}},
}

// viewDef is a view's definition as pg_get_viewdef and pg_views give it:
// its query as minipg stores it (pg_query's deparse of the query as
// written, not PostgreSQL's ruleutils formatting), after a space and
// before a semicolon, as PostgreSQL's.
func viewDef(v *catalog.View) string { return " " + v.Query + ";" }

// defaultExpr is a column default as pg_get_expr prints it: a quoted
// literal carries the cast to the column's type that PostgreSQL's stored
// expression has ('x'::character varying); other expressions print as
// written.
func defaultExpr(c catalog.Column) string {
	d := strings.TrimSpace(c.Default)
	if len(d) >= 2 && d[0] == '\'' && d[len(d)-1] == '\'' && !strings.Contains(d[1:len(d)-1], "'") {
		t := types.T{OID: types.OID(c.TypeOID), Typmod: -1}
		name := t.Name()
		if t.OID == types.Bpchar {
			name = "bpchar"
		}
		return d + "::" + name
	}
	return d
}

// visibleTables are the catalog's tables less those a running transaction
// dropped (catalog.Table.Dropping), which the system catalogs no longer
// show.
func (e *Engine) visibleTables() []*catalog.Table {
	return slices.DeleteFunc(e.cat.Tables(), func(t *catalog.Table) bool { return t.Dropping != nil })
}

// schemaDescriptions are the comments of a new PostgreSQL 15 cluster's
// schemas (pg_description; \dn+ shows them).
var schemaDescriptions = []struct {
	oid  int64
	text string
}{
	{oidPgToast, "reserved schema for TOAST tables"},
	{oidPgCatalog, "system catalog schema"},
	{oidPublic, "standard public schema"},
}
