package executor

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/sql"
	"minipg/storage/heap"
	"minipg/storage/page"
	"minipg/types"
)

// The functions psql's \d commands call on the system catalogs (syscat.go):
// the reg* input casts, format_type, pg_get_indexdef, pg_get_constraintdef,
// pg_get_expr, the visibility tests, the size functions and the comment
// functions (minipg keeps no comments).

func init() {
	var (
		oid    = types.Oid
		i4     = types.Int4
		i8     = types.Int8
		boolT  = types.Bool
		textT  = types.Text
		regcls = types.RegClass
	)
	reg := func(name string, args []types.OID, min int, res types.T, fn func(e *Engine, a []types.Datum) (types.Datum, error)) {
		sql.RegisterFunction(sql.Function{Name: name, Args: args, MinArgs: min, Result: res,
			Fn: func(env any, a []types.Datum) (types.Datum, error) { return fn(env.(*Engine), a) }})
	}
	num := func(d types.Datum) uint32 { v, _ := types.OIDValue(d); return v }
	// The reg* casts (sql.RegCastFunc): from a name (text) or a number.
	for _, t := range []types.OID{types.RegClass, types.RegType, types.RegNamespace, types.RegRole, types.RegProc} {
		reg(sql.RegCastFunc(t), []types.OID{textT}, 0, types.T{OID: t, Typmod: -1}, func(e *Engine, a []types.Datum) (types.Datum, error) {
			if s, ok := a[0].(string); ok {
				return e.regIn(t, s)
			}
			v, _ := a[0].(int64)
			return types.RegName{OID: uint32(v), Name: e.regName(t, uint32(v))}, nil
		})
	}
	reg(sql.RegClassTextFunc, []types.OID{textT}, 0, types.TRegClass, func(e *Engine, a []types.Datum) (types.Datum, error) {
		return e.regClassByName(a[0].(string))
	})
	reg("pg_catalog.array_cat", []types.OID{textT, textT}, 0, types.TText, func(_ *Engine, a []types.Datum) (types.Datum, error) {
		x, y := a[0].(*types.Array), a[1].(*types.Array)
		if len(x.Dims) > 1 || len(y.Dims) > 1 {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "concatenation of multidimensional arrays is not supported")
		}
		if len(x.Elems) == 0 {
			return y, nil
		}
		if len(y.Elems) == 0 {
			return x, nil
		}
		out := &types.Array{Dims: []int{len(x.Elems) + len(y.Elems)}, Lbounds: []int{x.Lbounds[0]}}
		out.Elems = append(append(out.Elems, x.Elems...), y.Elems...)
		return out, nil
	})
	// format_type is not strict: a NULL typmod names the type without one.
	sql.RegisterFunction(sql.Function{Name: "format_type", Args: []types.OID{oid, i4}, Result: types.TText, NonStrict: true,
		Fn: func(_ any, a []types.Datum) (types.Datum, error) {
			if a[0] == nil {
				return nil, nil
			}
			typmod := int32(-1)
			if a[1] != nil {
				typmod = int32(a[1].(int64))
			}
			return formatType(num(a[0]), typmod), nil
		}})
	reg("pg_table_is_visible", []types.OID{oid}, 0, types.TBool, func(e *Engine, a []types.Datum) (types.Datum, error) {
		if e.relationName(num(a[0])) == "" {
			return nil, nil
		}
		return true, nil
	})
	reg("pg_type_is_visible", []types.OID{oid}, 0, types.TBool, func(e *Engine, a []types.Datum) (types.Datum, error) {
		if !types.Known(types.OID(num(a[0]))) {
			return nil, nil
		}
		return true, nil
	})
	reg("pg_encoding_to_char", []types.OID{types.Int4}, 0, types.TName, func(e *Engine, a []types.Datum) (types.Datum, error) {
		// PostgreSQL's pg_enc numbering for the encodings a server can
		// have; any other number is '' as in PostgreSQL.
		names := map[int64]string{0: "SQL_ASCII", 1: "EUC_JP", 2: "EUC_CN", 3: "EUC_KR", 4: "EUC_TW",
			5: "EUC_JIS_2004", 6: "UTF8", 7: "MULE_INTERNAL", 8: "LATIN1", 9: "LATIN2", 10: "LATIN3",
			11: "LATIN4", 12: "LATIN5", 13: "LATIN6", 14: "LATIN7", 15: "LATIN8", 16: "LATIN9", 17: "LATIN10",
			18: "WIN1256", 19: "WIN1258", 20: "WIN866", 21: "WIN874", 22: "KOI8R", 23: "WIN1251", 24: "WIN1252",
			25: "ISO_8859_5", 26: "ISO_8859_6", 27: "ISO_8859_7", 28: "ISO_8859_8", 29: "WIN1250",
			30: "WIN1253", 31: "WIN1254", 32: "WIN1255", 33: "WIN1257", 34: "KOI8U"}
		v, _ := a[0].(int64)
		return names[v], nil
	})
	reg("pg_get_userbyid", []types.OID{oid}, 0, types.TName, func(e *Engine, a []types.Datum) (types.Datum, error) {
		switch num(a[0]) {
		case oidSuperuser:
			return "postgres", nil
		case oidDatabaseOwner:
			return "pg_database_owner", nil
		}
		return fmt.Sprintf("unknown (OID=%d)", num(a[0])), nil
	})
	reg("pg_get_indexdef", []types.OID{oid, i4, boolT}, 1, types.TText, func(e *Engine, a []types.Datum) (types.Datum, error) {
		col := int64(0)
		if len(a) > 1 {
			col = a[1].(int64)
		}
		return e.indexDef(num(a[0]), int(col)), nil
	})
	// pg_get_viewdef: a view's definition (viewDef), by OID or name.
	reg("pg_get_viewdef", []types.OID{regcls, boolT}, 1, types.TText, func(e *Engine, a []types.Datum) (types.Datum, error) {
		if v, ok := e.cat.ViewByOID(num(a[0])); ok && v.DroppingXid == 0 {
			return viewDef(v), nil
		}
		return nil, nil
	})
	reg("pg_get_constraintdef", []types.OID{oid, boolT}, 1, types.TText, func(e *Engine, a []types.Datum) (types.Datum, error) {
		return e.constraintDef(num(a[0])), nil
	})
	// pg_get_expr: minipg keeps expressions (column defaults) as their SQL
	// text, which is what pg_node_tree prints as here.
	reg("pg_get_expr", []types.OID{textT, oid, boolT}, 2, types.TText, func(e *Engine, a []types.Datum) (types.Datum, error) {
		return a[0], nil
	})
	reg("pg_relation_is_publishable", []types.OID{regcls}, 0, types.TBool, func(e *Engine, a []types.Datum) (types.Datum, error) {
		if _, ok := e.cat.TableByOID(num(a[0])); ok {
			return true, nil
		}
		return false, nil
	})
	reg("pg_get_statisticsobjdef_columns", []types.OID{oid}, 0, types.TText, func(*Engine, []types.Datum) (types.Datum, error) {
		return nil, nil // there are no extended statistics objects
	})
	reg("obj_description", []types.OID{oid, types.Name}, 1, types.TText, func(e *Engine, a []types.Datum) (types.Datum, error) {
		class := uint32(0)
		if len(a) > 1 {
			switch a[1] {
			case "pg_class":
				class = oidPgClassCatalog
			case "pg_namespace":
				class = oidPgNamespace
			default:
				return nil, nil // no other catalog has comments here
			}
		}
		return e.description(class, num(a[0]), 0), nil
	})
	reg("col_description", []types.OID{oid, i4}, 0, types.TText, func(e *Engine, a []types.Datum) (types.Datum, error) {
		return e.description(oidPgClassCatalog, num(a[0]), int32(a[1].(int64))), nil
	})
	reg("shobj_description", []types.OID{oid, types.Name}, 0, types.TText, func(*Engine, []types.Datum) (types.Datum, error) {
		return nil, nil
	})
	reg("pg_tablespace_location", []types.OID{oid}, 0, types.TText, func(*Engine, []types.Datum) (types.Datum, error) {
		return "", nil // pg_default and pg_global live in the data directory
	})
	// pg_tablespace_size: the bytes of the files under base/ (pg_default)
	// or global/ (pg_global).
	reg("pg_tablespace_size", []types.OID{oid}, 0, types.TInt8, func(e *Engine, a []types.Datum) (types.Datum, error) {
		var dir string
		switch num(a[0]) {
		case oidDefaultTblspc:
			dir = "base"
		case oidGlobalTblspc:
			dir = "global"
		default:
			return nil, nil // no such tablespace: NULL, as PostgreSQL
		}
		var total int64
		err := filepath.WalkDir(filepath.Join(e.cfg.DataDir, dir), func(_ string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // a file removed meanwhile
			}
			if info, ierr := d.Info(); ierr == nil && !d.IsDir() {
				total += info.Size()
			}
			return nil
		})
		return total, err
	})
	reg("pg_size_pretty", []types.OID{i8}, 0, types.TText, func(_ *Engine, a []types.Datum) (types.Datum, error) {
		return sizePretty(a[0].(int64)), nil
	})
	sql.RegisterBuiltin(sql.Builtin{Name: "pg_column_size", Args: []types.OID{sql.AnyOID}, Result: i4, Volatility: sql.Stable, Strict: true, KeepUnknown: true,
		Fn: func(_ any, a []types.Datum, f *sql.Func) (types.Datum, error) {
			_, stored := f.Args[0].(*sql.ColRef)
			return columnSize(f.Args[0].Type(), a[0], stored)
		}})
	reg("pg_relation_size", []types.OID{regcls, textT}, 1, types.TInt8, func(e *Engine, a []types.Datum) (types.Datum, error) {
		fork := "main"
		if len(a) > 1 {
			fork = a[1].(string)
		}
		switch fork {
		case "main", "fsm", "vm", "init":
		default:
			return nil, pgerr.New(pgerr.InvalidParameterValue, "invalid fork name").
				WithHint("Valid fork names are \"main\", \"fsm\", \"vm\", and \"init\".")
		}
		return e.forkSize(num(a[0]), fork)
	})
	// pg_relation_filenode: the file a table's main fork is in (a new one
	// after TRUNCATE or a rewrite), the number pg_walinspect's block_ref
	// shows; for an index kept on disk its file, for another index or a
	// sequence its OID, as pg_class.relfilenode says.
	reg("pg_relation_filenode", []types.OID{regcls}, 0, types.TOid, func(e *Engine, a []types.Datum) (types.Datum, error) {
		if t, ok := e.cat.TableByOID(num(a[0])); ok {
			return int64(t.RelFileNode), nil
		}
		for _, t := range e.visibleTables() {
			for _, idx := range t.Indexes {
				if idx.OID == num(a[0]) && idx.OnDisk() {
					return int64(idx.RelFileNode), nil
				}
			}
		}
		if e.relationName(num(a[0])) == "" {
			return nil, nil
		}
		return int64(num(a[0])), nil
	})
	// pg_relation_filepath: the main fork's file, relative to the data
	// directory, of a table or an index kept on disk (minipg's files are
	// base/<relfilenode>); NULL for a relation without one (a view, a
	// system catalog, an index kept in memory), as for PostgreSQL's views.
	reg("pg_relation_filepath", []types.OID{regcls}, 0, types.TText, func(e *Engine, a []types.Datum) (types.Datum, error) {
		if t, ok := e.cat.TableByOID(num(a[0])); ok {
			return fmt.Sprintf("base/%d", t.RelFileNode), nil
		}
		for _, t := range e.visibleTables() {
			for _, idx := range t.Indexes {
				if idx.OID == num(a[0]) && idx.OnDisk() {
					return fmt.Sprintf("base/%d", idx.RelFileNode), nil
				}
			}
		}
		return nil, nil
	})
	tableSize := func(e *Engine, a []types.Datum) (types.Datum, error) {
		var total int64
		for _, f := range []string{"main", "fsm", "vm", "init"} {
			n, err := e.forkSize(num(a[0]), f)
			if err != nil || n == nil {
				return n, err
			}
			total += n.(int64)
		}
		return total, nil
	}
	reg("pg_table_size", []types.OID{regcls}, 0, types.TInt8, tableSize)
	// An index kept in memory takes no disk space; one on disk counts its
	// file.
	reg("pg_total_relation_size", []types.OID{regcls}, 0, types.TInt8, func(e *Engine, a []types.Datum) (types.Datum, error) {
		n, err := tableSize(e, a)
		if err != nil || n == nil {
			return n, err
		}
		ix, err := e.indexesSize(num(a[0]))
		return n.(int64) + ix, err
	})
	reg("pg_indexes_size", []types.OID{regcls}, 0, types.TInt8, func(e *Engine, a []types.Datum) (types.Datum, error) {
		if e.relationName(num(a[0])) == "" {
			return nil, nil
		}
		return e.indexesSize(num(a[0]))
	})
	reg("current_schemas", []types.OID{boolT}, 0, types.ArrayOf(types.TName), func(_ *Engine, a []types.Datum) (types.Datum, error) {
		if a[0].(bool) {
			return types.NewArray([]types.Datum{"pg_catalog", "public"}), nil
		}
		return types.NewArray([]types.Datum{"public"}), nil
	})
}

// forkSize is the size in bytes of a fork of a table or index (from its
// file); 0 for an index kept in memory or a sequence, nil for an unknown
// OID.
func (e *Engine) forkSize(oid uint32, fork string) (types.Datum, error) {
	t, ok := e.cat.TableByOID(oid)
	if !ok {
		if e.relationName(oid) == "" {
			return nil, nil
		}
		if ri := e.indexByOID(oid); ri != nil {
			switch fork {
			case "main":
				return indexSize(ri)
			case "fsm":
				if d, ok := ri.ix.(*diskStore); ok {
					return d.FSMSize()
				}
			}
		}
		return int64(0), nil
	}
	switch fork {
	case "main":
		r, err := e.rel(oid)
		if err != nil {
			return nil, err
		}
		n, err := r.heap.NBlocks()
		if err != nil {
			return nil, err
		}
		return int64(n) * page.BlockSize, nil
	case "fsm", "vm":
		fi, err := os.Stat(filepath.Join(e.cfg.DataDir, "base", strconv.FormatUint(uint64(t.RelFileNode), 10)+"_"+fork))
		if err != nil {
			return int64(0), nil
		}
		return fi.Size(), nil
	}
	return int64(0), nil
}

// indexesSize is the bytes of the files of table oid's indexes (0 for
// indexes in memory, and for a relation that is not a table).
func (e *Engine) indexesSize(oid uint32) (int64, error) {
	if _, ok := e.cat.TableByOID(oid); !ok {
		return 0, nil
	}
	r, err := e.rel(oid)
	if err != nil {
		return 0, err
	}
	var total int64
	for _, ri := range r.indexes {
		n, err := indexSize(ri)
		if err != nil {
			return 0, err
		}
		total += n.(int64)
		if d, ok := ri.ix.(*diskStore); ok {
			// Every fork, as PostgreSQL counts an index: the free space
			// map where VACUUM records its reusable pages too.
			f, err := d.FSMSize()
			if err != nil {
				return 0, err
			}
			total += f
		}
	}
	return total, nil
}

// indexSize is the size of ri's file (0 for an index in memory).
func indexSize(ri *relIndex) (types.Datum, error) {
	d, ok := ri.ix.(*diskStore)
	if !ok {
		return int64(0), nil
	}
	n, err := d.Size()
	if err != nil {
		return nil, err
	}
	return n, nil
}

// indexByOID returns the open index whose OID is oid, or nil.
func (e *Engine) indexByOID(oid uint32) *relIndex {
	for _, r := range e.openRelations() {
		if ri := r.indexByOID(oid); ri != nil {
			return ri
		}
	}
	return nil
}

// columnSize is pg_column_size: the bytes d of type t takes as a datum. A
// column's value (stored) is as the heap keeps it, a varlena of up to 126
// bytes with its 1-byte header; a value computed in the query has the
// 4-byte header PostgreSQL gives it in memory. minipg neither compresses
// nor TOASTs, so a long value counts its whole length where PostgreSQL
// would count its compressed or external form. Any column reference counts
// as stored, also one to a subquery's column the subquery computes, which
// PostgreSQL counts with the 4-byte header when it flattens the subquery.
func columnSize(t types.T, d types.Datum, stored bool) (types.Datum, error) {
	switch n := t.Len(); {
	case n > 0:
		return int64(n), nil
	case n == -2: // cstring (an unknown literal): its bytes and the NUL
		s, _ := d.(string)
		return int64(len(s) + 1), nil
	}
	b, err := types.EncodeDisk(t, d)
	if err != nil {
		return nil, err
	}
	if stored {
		return int64(heap.StoredVarlenaLen(len(b))), nil
	}
	return int64(len(b) + 4), nil
}

// sizePretty is pg_size_pretty(bigint) of PostgreSQL 15.
func sizePretty(size int64) string {
	units := []struct {
		name  string
		limit int64
		round bool
		bits  int
	}{{"bytes", 10 * 1024, false, 0}, {"kB", 20*1024 - 1, true, 10}, {"MB", 20*1024 - 1, true, 20},
		{"GB", 20*1024 - 1, true, 30}, {"TB", 20*1024 - 1, true, 40}, {"PB", 20*1024 - 1, true, 50}}
	abs := func(v int64) uint64 { // the minimum too (i64abs)
		if v < 0 {
			return uint64(-(v + 1)) + 1
		}
		return uint64(v)
	}
	for i, u := range units {
		if abs(size) < uint64(u.limit) || i == len(units)-1 {
			if u.round {
				if size < 0 {
					size = (size - 1) / 2
				} else {
					size = (size + 1) / 2
				}
			}
			return strconv.FormatInt(size, 10) + " " + u.name
		}
		next := units[i+1]
		bits := next.bits - u.bits
		if next.round {
			bits--
		}
		if u.round {
			bits++
		}
		size /= 1 << bits
	}
	return ""
}

// formatType is format_type(oid, typmod).
func formatType(oid uint32, typmod int32) string {
	if !types.Known(types.OID(oid)) {
		return "???"
	}
	return types.T{OID: types.OID(oid), Typmod: typmod}.Name()
}

// relationName is the name of the relation (table, index, sequence, system
// catalog) with the given OID; "" when there is none.
func (e *Engine) relationName(oid uint32) string {
	if t, ok := e.cat.TableByOID(oid); ok {
		return t.Name
	}
	for _, t := range e.cat.Tables() {
		for _, idx := range t.Indexes {
			if idx.OID == oid {
				return idx.Name
			}
		}
	}
	if s, ok := e.cat.SequenceByOID(oid); ok {
		return s.Name
	}
	if v, ok := e.cat.ViewByOID(oid); ok {
		return v.Name
	}
	if v := sql.VirtualTableByOID(oid); v != nil {
		return v.Table.Name
	}
	return ""
}

// regName is a reg* value's output: its object's name, else the number.
func (e *Engine) regName(t types.OID, oid uint32) string {
	name := ""
	switch t {
	case types.RegClass:
		name = quoteIdent(e.relationName(oid))
		if name == `""` {
			name = ""
		}
	case types.RegType:
		if types.Known(types.OID(oid)) {
			name = formatType(oid, -1)
		} else if types.OID(oid) == sql.RecordOID {
			name = "record"
		}
	case types.RegNamespace:
		name = map[uint32]string{oidPgCatalog: "pg_catalog", oidPublic: "public", oidPgToast: "pg_toast",
			oidInfoSchema: "information_schema"}[oid]
	case types.RegRole:
		if oid == oidSuperuser {
			name = "postgres"
		}
	case types.RegProc:
		name = procName(oid)
	}
	if name == "" || oid == 0 {
		if oid == 0 {
			return "-"
		}
		return strconv.FormatUint(uint64(oid), 10)
	}
	return name
}

// regIn is the reg* input function: a number, or a (possibly qualified,
// possibly quoted) name looked up in the catalog.
func (e *Engine) regIn(t types.OID, s string) (types.Datum, error) {
	if v, err := types.ParseOID(s); err == nil && strings.TrimSpace(s) != "" && s[0] >= '0' && s[0] <= '9' {
		return types.RegName{OID: uint32(v), Name: e.regName(t, uint32(v))}, nil
	}
	if s == "-" {
		return types.RegName{Name: "-"}, nil
	}
	if t == types.RegProc {
		return regProcIn(s)
	}
	if t == types.RegClass {
		return e.regClassByName(s)
	}
	parts, err := splitQualifiedName(s)
	if err != nil {
		return nil, err
	}
	name := parts[len(parts)-1]
	switch t {
	case types.RegType:
		if base, ok := strings.CutSuffix(strings.TrimSpace(s), "[]"); ok {
			et, err := e.regIn(t, base)
			if err != nil {
				return nil, err
			}
			at := types.ArrayOID(types.OID(et.(types.RegName).OID))
			if at == 0 {
				return nil, pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", s)
			}
			return types.RegName{OID: uint32(at), Name: formatType(uint32(at), -1)}, nil
		}
		typ, err := types.TypeByName(name, nil)
		if err != nil || len(parts) > 2 {
			return nil, pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", s)
		}
		return types.RegName{OID: uint32(typ.OID), Name: formatType(uint32(typ.OID), -1)}, nil
	case types.RegNamespace:
		for _, oid := range []uint32{oidPgCatalog, oidPublic, oidPgToast, oidInfoSchema} {
			if len(parts) == 1 && e.regName(t, oid) == name {
				return types.RegName{OID: oid, Name: name}, nil
			}
		}
		return nil, pgerr.New(pgerr.UndefinedSchema, "schema \"%s\" does not exist", strings.Join(parts, "."))
	case types.RegRole:
		if len(parts) == 1 && name == "postgres" {
			return types.RegName{OID: oidSuperuser, Name: name}, nil
		}
		return nil, pgerr.New(pgerr.UndefinedObject, "role \"%s\" does not exist", strings.Join(parts, "."))
	}
	return nil, pgerr.New(pgerr.FeatureNotSupported, "input of type %s is not supported", types.TypName(t))
}

// sqlVirtual is the system catalog or view of that name.
func sqlVirtual(name string) *sql.VirtualTable { return sql.LookupVirtualTable(name) }

// splitQualifiedName splits a.b."C" as the reg* input functions do
// (stringToQualifiedNameList): unquoted parts are lower-cased.
func splitQualifiedName(s string) ([]string, error) {
	var parts []string
	invalid := pgerr.New(pgerr.InvalidName, "invalid name syntax")
	for {
		s = strings.TrimLeft(s, " \t\n\r")
		var part string
		if strings.HasPrefix(s, `"`) {
			end := 1
			var b strings.Builder
			for {
				i := strings.IndexByte(s[end:], '"')
				if i < 0 {
					return nil, invalid
				}
				b.WriteString(s[end : end+i])
				end += i + 1
				if end < len(s) && s[end] == '"' {
					b.WriteByte('"')
					end++
					continue
				}
				break
			}
			part, s = b.String(), s[end:]
			if part == "" {
				return nil, invalid
			}
		} else {
			i := strings.IndexAny(s, ". \t\n\r")
			if i < 0 {
				i = len(s)
			}
			part, s = strings.ToLower(s[:i]), s[i:]
			if part == "" {
				return nil, invalid
			}
		}
		parts = append(parts, part)
		s = strings.TrimLeft(s, " \t\n\r")
		if s == "" {
			return parts, nil
		}
		if s[0] != '.' {
			return nil, invalid
		}
		s = s[1:]
	}
}

// indexDef is pg_get_indexdef: the CREATE INDEX statement of an index, or
// with col > 0 the name of its col-th column.
func (e *Engine) indexDef(oid uint32, col int) types.Datum {
	for _, t := range e.cat.Tables() {
		for _, idx := range t.Indexes {
			if idx.OID != oid {
				continue
			}
			if col > 0 {
				if col > len(idx.Columns) {
					return ""
				}
				return quoteIdent(t.Columns[idx.Columns[col-1]-1].Name)
			}
			unique := ""
			if idx.Unique {
				unique = "UNIQUE "
			}
			with := ""
			if opts := relOptions(idx.Options); len(opts) > 0 {
				// flatten_reloptions: a value that is not a simple
				// identifier is quoted as a literal.
				for i, o := range opts {
					if k, v, _ := strings.Cut(o, "="); quoteIdent(v) != v {
						opts[i] = k + "=" + quoteLiteral(v)
					}
				}
				with = " WITH (" + strings.Join(opts, ", ") + ")"
			}
			return fmt.Sprintf("CREATE %sINDEX %s ON public.%s USING btree (%s)%s", unique, quoteIdent(idx.Name),
				quoteIdent(t.Name), columnList(t, idx.Columns, ", "), with)
		}
	}
	return nil
}

func columnList(t *catalog.Table, cols []int16, sep string) string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = quoteIdent(t.Columns[c-1].Name)
	}
	return strings.Join(names, sep)
}

// constraintDef is pg_get_constraintdef.
func (e *Engine) constraintDef(oid uint32) types.Datum {
	for _, t := range e.cat.Tables() {
		for _, idx := range t.Indexes {
			if idx.IsConstraint() && conOIDFlag|idx.OID == oid {
				kind := "UNIQUE"
				if idx.Primary {
					kind = "PRIMARY KEY"
				}
				return kind + " (" + columnList(t, idx.Columns, ", ") + ")"
			}
		}
		for i, ck := range t.Checks {
			if checkOID(t, i) == oid {
				return checkDef(ck)
			}
		}
		for i, fk := range t.ForeignKeys {
			if fkeyOID(t, i) != oid {
				continue
			}
			rt, ok := e.cat.TableByOID(fk.RefTable)
			if !ok {
				return nil
			}
			def := "FOREIGN KEY (" + columnList(t, fk.Columns, ", ") + ") REFERENCES " + quoteIdent(rt.Name) +
				"(" + columnList(rt, fk.RefColumns, ", ") + ")"
			actions := map[string]string{catalog.FKRestrict: "RESTRICT", catalog.FKCascade: "CASCADE",
				catalog.FKSetNull: "SET NULL", catalog.FKSetDefault: "SET DEFAULT"}
			if a, ok := actions[fk.OnUpdate]; ok {
				def += " ON UPDATE " + a
			}
			if a, ok := actions[fk.OnDelete]; ok {
				def += " ON DELETE " + a
			}
			return def
		}
	}
	return nil
}

// regClassByName is regclass(text): a relation named by a possibly
// qualified name (no number), 42P01 when there is none.
func (e *Engine) regClassByName(s string) (types.Datum, error) {
	parts, err := splitQualifiedName(s)
	if err != nil {
		return nil, err
	}
	name := parts[len(parts)-1]
	if len(parts) <= 3 {
		for _, r := range e.sysRelations() {
			if r.name == name && (len(parts) == 1 || parts[len(parts)-2] == "public") {
				return types.RegName{OID: r.oid, Name: quoteIdent(name)}, nil
			}
		}
		if v := sqlVirtual(name); v != nil && (len(parts) == 1 || parts[len(parts)-2] == "pg_catalog") {
			return types.RegName{OID: v.Table.OID, Name: quoteIdent(name)}, nil
		}
	}
	return nil, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", strings.Join(parts, "."))
}

// minipg keeps no pg_proc: a built-in function's regproc OID is its place
// among the built-in function names in order, from firstProcOID (the
// numbers are minipg's own, not PostgreSQL's).
const firstProcOID = 8000

var procNames struct {
	once  sync.Once
	names []string
	oids  map[string]uint32
}

func loadProcNames() {
	procNames.once.Do(func() {
		procNames.names = sql.BuiltinNames()
		procNames.oids = make(map[string]uint32, len(procNames.names))
		for i, n := range procNames.names {
			procNames.oids[n] = firstProcOID + uint32(i)
		}
	})
}

// procName is regprocout's name for a built-in function's OID ("" for
// none).
func procName(oid uint32) string {
	loadProcNames()
	if oid < firstProcOID || oid-firstProcOID >= uint32(len(procNames.names)) {
		return ""
	}
	return procNames.names[oid-firstProcOID]
}

// regProcIn is regprocin for a name: the one built-in function of that
// name; 42883 when there is none, 42725 when it is overloaded.
func regProcIn(s string) (types.Datum, error) {
	loadProcNames()
	parts, err := splitQualifiedName(s)
	if err != nil {
		return nil, err
	}
	name := parts[len(parts)-1]
	n := len(sql.LookupBuiltins(name))
	if len(parts) > 2 || (len(parts) == 2 && parts[0] != "pg_catalog") {
		n = 0
	}
	switch {
	case n == 0:
		return nil, pgerr.New(pgerr.UndefinedFunction, "function \"%s\" does not exist", s)
	case n > 1:
		return nil, pgerr.New(pgerr.AmbiguousFunction, "more than one function named \"%s\"", s)
	}
	return types.RegName{OID: procNames.oids[name], Name: name}, nil
}
