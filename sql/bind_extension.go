package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/pgerr"
)

// CreateExtension is a bound CREATE EXTENSION [IF NOT EXISTS] name [WITH]
// [SCHEMA s] [VERSION v] [CASCADE]. The executor checks the name against
// the extensions minipg has built in.
type CreateExtension struct {
	Name        string
	IfNotExists bool
	Schema      string // "" when not given
	Version     string // "" when not given
}

// DropExtension is a bound DROP EXTENSION [IF EXISTS] name [, ...]
// [CASCADE | RESTRICT].
type DropExtension struct {
	Names    []string
	IfExists bool
}

func (b *binder) createExtension(s *pg_query.CreateExtensionStmt) (*CreateExtension, error) {
	out := &CreateExtension{Name: s.Extname, IfNotExists: s.IfNotExists}
	for _, o := range s.Options {
		d := o.GetDefElem()
		if d == nil {
			continue
		}
		switch d.Defname {
		case "schema":
			out.Schema = defElemString(d)
		case "new_version":
			out.Version = defElemString(d)
		case "cascade":
		default:
			return nil, pgerr.New(pgerr.SyntaxError, "unrecognized option \"%s\"", d.Defname)
		}
	}
	return out, nil
}

// defElemString is a DefElem's argument as a string (a name or a literal).
func defElemString(d *pg_query.DefElem) string {
	if d.Arg == nil {
		return ""
	}
	if s := d.Arg.GetString_(); s != nil {
		return s.Sval
	}
	if c := d.Arg.GetAConst(); c != nil {
		if s := c.GetSval(); s != nil {
			return s.Sval
		}
	}
	return ""
}

func (b *binder) dropExtension(s *pg_query.DropStmt) (*DropExtension, error) {
	out := &DropExtension{IfExists: s.MissingOk}
	for _, o := range s.Objects {
		if sv := o.GetString_(); sv != nil {
			out.Names = append(out.Names, sv.Sval)
		}
	}
	return out, nil
}

func (*CreateExtension) stmt() {}
func (*DropExtension) stmt()   {}
