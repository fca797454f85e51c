package executor

// Extensions. minipg builds in five of PostgreSQL 15's contrib modules;
// CREATE EXTENSION records one in the catalog (pg_extension), which makes
// its functions visible to SQL, and DROP EXTENSION removes it:
//
//	amcheck 1.3           bt_index_check, of indexes on disk (amcheck.go)
//	pageinspect 1.11      get_raw_page, page_header, heap_page_items,
//	                      fsm_page_contents (pageinspect.go)
//	pg_freespacemap 1.2   pg_freespace (freespace.go)
//	pg_walinspect 1.0     pg_get_wal_record_info, pg_get_wal_records_info,
//	                      pg_get_wal_stats, and their _till_end_of_wal forms
//	                      (walinspect.go)
//	pgstattuple 1.5       pgstattuple and pg_relpages of tables
//	                      (pgstattuple.go)
//
// Any other name fails as PostgreSQL fails when an extension's control
// file is absent.

import (
	"minipg/catalog"
	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// builtinExtension is one extension minipg has built in, with the version
// and description PostgreSQL 15.18 ships.
type builtinExtension struct {
	version     string
	relocatable bool
	comment     string
}

var builtinExtensions = map[string]builtinExtension{
	"amcheck":         {"1.3", true, "functions for verifying relation integrity"},
	"pageinspect":     {"1.11", true, "inspect the contents of database pages at a low level"},
	"pg_freespacemap": {"1.2", true, "examine the free space map (FSM)"},
	"pg_walinspect":   {"1.0", true, "functions to inspect contents of PostgreSQL Write-Ahead Log"},
	"pgstattuple":     {"1.5", true, "show tuple-level statistics"},
}

// Namespace OIDs as PostgreSQL's (pg_namespace): pg_catalog and public.
const (
	pgCatalogNamespace = 11
	publicNamespace    = 2200
)

func (s *Session) createExtension(st *sql.CreateExtension) (string, error) {
	if s.e.cat.HasExtension(st.Name) {
		if st.IfNotExists {
			s.notice(pgerr.SeverityNotice, pgerr.DuplicateObject, "extension \"%s\" already exists, skipping", st.Name)
			return "CREATE EXTENSION", nil
		}
		return "", pgerr.New(pgerr.DuplicateObject, "extension \"%s\" already exists", st.Name)
	}
	def, ok := builtinExtensions[st.Name]
	if !ok {
		return "", pgerr.New(pgerr.FeatureNotSupported, "extension \"%s\" is not available", st.Name).
			WithDetail("Could not open extension control file \"/usr/share/postgresql/15/extension/%s.control\": No such file or directory.", st.Name).
			WithHint("The extension must first be installed on the system where PostgreSQL is running.")
	}
	if st.Version != "" && st.Version != def.version {
		return "", pgerr.New(pgerr.InvalidParameterValue, "extension \"%s\" has no installation script nor update path for version \"%s\"", st.Name, st.Version)
	}
	schema := st.Schema
	switch schema {
	case "":
		schema = "public"
	case "public", "pg_catalog":
	default:
		return "", pgerr.New(pgerr.UndefinedSchema, "schema \"%s\" does not exist", schema)
	}
	if _, err := s.e.cat.CreateExtension(catalog.Extension{Name: st.Name, Version: def.version, Schema: schema, Relocatable: def.relocatable}); err != nil {
		return "", err
	}
	return "CREATE EXTENSION", nil
}

// dropExtension drops the named extensions; with IF EXISTS a missing one
// is a notice, else an error before anything is dropped.
func (s *Session) dropExtension(st *sql.DropExtension) (string, error) {
	var drop []string
	for _, name := range st.Names {
		if s.e.cat.HasExtension(name) {
			drop = append(drop, name)
			continue
		}
		if !st.IfExists {
			return "", pgerr.New(pgerr.UndefinedObject, "extension \"%s\" does not exist", name)
		}
		s.notice(pgerr.SeverityNotice, pgerr.SuccessfulCompletion, "extension \"%s\" does not exist, skipping", name)
	}
	for _, name := range drop {
		if err := s.e.cat.DropExtension(name); err != nil {
			return "", err
		}
	}
	return "DROP EXTENSION", nil
}

func init() {
	// pg_extension with PostgreSQL 15's columns; extconfig and
	// extcondition are NULL, as for every extension without configuration
	// tables (pg_extension_config_dump), which are all of minipg's.
	sql.RegisterVirtualTable("pg_extension", []catalog.Column{
		{Name: "oid", TypeOID: uint32(types.Oid), Typmod: -1},
		textCol("extname"),
		{Name: "extowner", TypeOID: uint32(types.Oid), Typmod: -1},
		{Name: "extnamespace", TypeOID: uint32(types.Oid), Typmod: -1},
		{Name: "extrelocatable", TypeOID: uint32(types.Bool), Typmod: -1},
		textCol("extversion"),
		{Name: "extconfig", TypeOID: uint32(types.ArrayOID(types.Oid)), Typmod: -1},
		{Name: "extcondition", TypeOID: uint32(types.ArrayOID(types.Text)), Typmod: -1},
	}, func(env any) ([][]types.Datum, error) {
		var out [][]types.Datum
		for _, x := range env.(*Engine).cat.Extensions() {
			ns := int64(publicNamespace)
			if x.Schema == "pg_catalog" {
				ns = pgCatalogNamespace
			}
			out = append(out, []types.Datum{int64(x.OID), x.Name, int64(10), ns, x.Relocatable, x.Version, nil, nil})
		}
		return out, nil
	})
}
